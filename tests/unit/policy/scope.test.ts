import { describe, expect, test } from "bun:test";
import type { Contract } from "../../../src/contract/model.ts";
import { UsageError } from "../../../src/errors.ts";
import {
  applyScope,
  describeUsage,
  parseUsedList,
  resolveScope,
  usageMatcher,
  usedByNotice,
} from "../../../src/policy/scope.ts";
import { change } from "./helpers.ts";

const forecast = change("required-added", "breaking", "tool", "get_forecast", { direction: "input" });
const alert = change("tool-removed", "breaking", "tool", "set_alert");
const echo = change("prompt-removed", "breaking", "prompt", "echo");
const stations = change("resource-removed", "breaking", "resource", "weather://stations");
const today = change("template-removed", "breaking", "resourceTemplate", "weather://city/{city}/today");
const server = change("capability-removed", "breaking", "server", "");
const ALL = [forecast, alert, echo, stations, today, server];

const names = (changes: { target: { name: string } }[]) => changes.map((c) => c.target.name);

describe("--used", () => {
  test("splits comma-separated, repeated values and drops blanks", () => {
    expect(parseUsedList(["echo,get-*", " a , ,b", ""])).toEqual(["echo", "get-*", "a", "b"]);
  });

  test("names and globs match tool and prompt names, resource URIs and uriTemplates", () => {
    const used = usageMatcher({ patterns: ["get_*", "echo", "weather://st*"], description: "" });
    expect(names(ALL.filter(used))).toEqual(["get_forecast", "echo", "weather://stations", ""]);
  });

  test("a concrete URI selects the template it fits", () => {
    const used = usageMatcher({ patterns: ["weather://city/paris/today"], description: "" });
    expect(used(today)).toBe(true);
    expect(used(stations)).toBe(false);
  });

  test("a glob is matched against the uriTemplate text, not expanded", () => {
    expect(usageMatcher({ patterns: ["weather://city/*"], description: "" })(today)).toBe(true);
    expect(usageMatcher({ patterns: ["weather://city/p*"], description: "" })(today)).toBe(false);
  });

  test("server-level changes are always in scope", () => {
    expect(usageMatcher({ patterns: ["nothing"], description: "" })(server)).toBe(true);
  });
});

describe("--used-by literals", () => {
  const usage = (literals: string[]) => ({ patterns: [], literals: new Set(literals), description: "--used-by src/" });

  test("a target is used when a literal equals its identity", () => {
    const used = usageMatcher(usage(["get_forecast", "weather://stations", "unrelated"]));
    expect(names(ALL.filter(used))).toEqual(["get_forecast", "weather://stations", ""]);
  });

  test("a literal must match exactly, not contain the name", () => {
    const used = usageMatcher(usage(["call get_forecast now", "get_forecast2", "Get_Forecast"]));
    expect(used(forecast)).toBe(false);
  });

  test("a template is used by the template itself or by a URI that fits it", () => {
    expect(usageMatcher(usage(["weather://city/{city}/today"]))(today)).toBe(true);
    expect(usageMatcher(usage(["weather://city/paris/today"]))(today)).toBe(true);
    expect(usageMatcher(usage(["weather://city/${c}/today"]))(today)).toBe(true);
    expect(usageMatcher(usage(["weather://city/paris/tomorrow", "weather://city/"]))(today)).toBe(false);
  });

  test("--used and --used-by together: used by either", () => {
    const used = usageMatcher({ patterns: ["echo"], literals: new Set(["set_alert"]), description: "" });
    expect(names(ALL.filter(used))).toEqual(["set_alert", "echo", ""]);
  });
});

describe("applyScope", () => {
  test("marks unused changes out of scope with the reason, keeps every change listed", () => {
    const out = applyScope(ALL, { patterns: [], literals: new Set(["get_forecast"]), description: "--used-by src/" });
    expect(out).toHaveLength(ALL.length);
    expect(out.map((c) => c.exempt?.kind ?? "-")).toEqual([
      "-",
      "out-of-scope",
      "out-of-scope",
      "out-of-scope",
      "out-of-scope",
      "-",
    ]);
    expect(out[1]?.exempt?.reason).toBe("not used by the consumer (--used-by src/)");
  });

  test("leaves a change that is already exempt (ignored) alone", () => {
    const ignored = { ...alert, exempt: { kind: "ignored" as const, reason: "planned" } };
    const [out] = applyScope([ignored], { patterns: [], description: "--used x" });
    expect(out?.exempt).toEqual({ kind: "ignored", reason: "planned" });
  });

  test("describes how the scope was given", () => {
    expect(describeUsage(["echo,get-*"], [])).toBe("--used echo,get-*");
    expect(describeUsage([], ["src/", "lib/"])).toBe("--used-by src/ lib/");
    expect(describeUsage(["a", "b"], ["src/"])).toBe("--used a,b --used-by src/");
  });
});

describe("the resolved scope", () => {
  const surface = (tools: string[], templates: string[] = []): Contract =>
    ({
      lockfileVersion: 1,
      server: { name: "w" },
      protocolVersion: "2025-11-25",
      capabilities: {},
      capture: { clientCapabilities: [] },
      tools: tools.map((name) => ({ name })),
      resources: [],
      resourceTemplates: templates.map((uriTemplate) => ({ uriTemplate })),
      prompts: [],
    }) as Contract;
  const before = surface(["get_forecast", "set_alert", "tool_10", "tool_9"], ["weather://city/{city}/today"]);
  const after = surface(["get_forecast", "tool_10", "tool_9", "new_tool"]);

  test("what --used selects on either side, in kind order then natural order", () => {
    const usage = { patterns: ["tool_*", "set_alert", "weather://city/paris/today"], description: "--used …" };
    expect(resolveScope(usage, before, after)).toEqual({
      given: "--used …",
      used: ["tool_*", "set_alert", "weather://city/paris/today"],
      usedBy: [],
      items: [
        { kind: "tool", name: "set_alert" },
        { kind: "tool", name: "tool_9" },
        { kind: "tool", name: "tool_10" },
        { kind: "resourceTemplate", name: "weather://city/{city}/today" },
      ],
    });
  });

  test("a --used entry that selects nothing is a usage error with the closest names", () => {
    const run = (patterns: string[]) => () => resolveScope({ patterns, description: "" }, before, after);
    expect(run(["get_forcast"])).toThrow(UsageError);
    expect(run(["get_forcast"])).toThrow(
      '--used "get_forcast" matches no tool, prompt, resource or template on either side. Did you mean "get_forecast"?',
    );
    expect(run(["zzz_*"])).toThrow('--used "zzz_*" matches no tool');
    // Only on the old side, or only on the new: both count.
    expect(run(["set_alert", "new_tool"])).not.toThrow();
  });

  test("--used-by: how many items its literals selected, and the notice when none", () => {
    const usage = {
      patterns: [],
      literals: new Set(["unrelated"]),
      usedBy: ["src/"],
      files: 3,
      description: "--used-by src/",
    };
    const scope = resolveScope(usage, before, after);
    expect(scope).toMatchObject({ usedBy: ["src/"], items: [], fromUsedBy: 0 });
    expect(usedByNotice(scope, usage)).toBe(
      "--used-by src/ mentions none of the tools, prompts, resources or templates of either side in its string literals (3 files scanned), so only server-level changes count.",
    );
    expect(usedByNotice(scope, { ...usage, files: 0 })).toBe(
      "--used-by src/ holds no source files to scan, so only server-level changes count.",
    );
    const found = { ...usage, literals: new Set(["get_forecast"]) };
    expect(usedByNotice(resolveScope(found, before, after), found)).toBeUndefined();
  });
});
