import { describe, expect, test } from "bun:test";
import { applyScope, describeUsage, parseUsedList, usageMatcher } from "../../../src/policy/scope.ts";
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
