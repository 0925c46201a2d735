/** `check --all --format github` interleaves servers: every line says which server it is about (issue #29). */
import { expect, test } from "bun:test";
import { renderGithub } from "../../../src/report/github.ts";
import { diffScenario } from "./report-fixtures.ts";

test("with a server in the context, every annotation's title and the summary line name it", async () => {
  const { report, context } = await diffScenario();
  const lines = renderGithub(report, { ...context, server: "weather" })
    .trimEnd()
    .split("\n");
  const commands = lines.filter((line) => line.startsWith("::"));
  expect(commands.length).toBeGreaterThan(3);
  for (const line of commands) expect(line).toMatch(/title=[^:]*\(server weather\)::/);
  expect(lines.at(-1)).toStartWith("server weather: mcp-contract diff: ");
  // Without one (a single server's report), nothing changes.
  expect(renderGithub(report, context)).not.toContain("server weather");
});
