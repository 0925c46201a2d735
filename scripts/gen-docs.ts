/** Regenerate docs/rules.md from the rule registry (diff and lint rules) (npm run docs). A test fails when they differ. */
import { writeFileSync } from "node:fs";
import { renderRulesMarkdown } from "../src/rules/docs.ts";

writeFileSync("docs/rules.md", renderRulesMarkdown());
console.log("wrote docs/rules.md");
