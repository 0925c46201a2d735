/** Regenerate docs/rules.md from both rule catalogs, diff and lint (npm run docs). A test fails when they differ. */
import { writeFileSync } from "node:fs";
import { renderRulesMarkdown } from "../src/report/rules-doc.ts";

writeFileSync("docs/rules.md", renderRulesMarkdown());
console.log("wrote docs/rules.md");
