import { describe, expect, test } from "bun:test";
import type { Json } from "../../../src/contract/model.ts";
import { pointer, pointerToDotted } from "../../../src/contract/pointer.ts";
import { show } from "../../../src/diff/change.ts";
import { fnv1a64, fnv1a64After, fnvPrefix } from "../../../src/diff/fingerprint.ts";
import {
  findRenames,
  MAX_SIMILARITY_PAIRS,
  nameSimilarity,
  normalizeName,
  type RenameCandidate,
} from "../../../src/diff/rename.ts";
import { absentWording, hintSummary, isHintRule, mapSchemaChanges } from "../../../src/diff/tools.ts";
import { parseTemplateVariables, templateVariableNames } from "../../../src/diff/uri-template.ts";
import { compareSchemas } from "../../../src/schema/compare/index.ts";
import { levenshtein } from "../../../src/util/text.ts";

describe("fnv1a64", () => {
  test.each([
    ["", "cbf29ce484222325"],
    ["a", "af63dc4c8601ec8c"],
    ["foobar", "85944171f73967e8"],
  ])("%j → %s", (text, hash) => {
    expect(fnv1a64(text)).toBe(hash);
  });

  test("hashes UTF-8 bytes", () => {
    expect(fnv1a64("é")).not.toBe(fnv1a64("e"));
    expect(fnv1a64("é")).toMatch(/^[0-9a-f]{16}$/);
  });

  test("resumes from a prefix's state as if the whole text were hashed", () => {
    const texts = [
      "",
      "a",
      "foobar",
      "é",
      "日本",
      "😀",
      "\ud800x",
      "lint|tool-name-invalid|tool|",
      "get.weather|/name",
    ];
    for (const a of texts) {
      const state = fnvPrefix(a);
      for (const b of texts) expect(fnv1a64After(state, b)).toBe(fnv1a64(a + b));
    }
    expect(fnv1a64After(fnvPrefix("foo"), "bar")).toBe("85944171f73967e8");
  });
});

describe("URI templates", () => {
  test.each([
    ["weather://city/{city}/today", ["city"]],
    ["file:///{+path}", ["path"]],
    ["http://x/{a,b}{?q,lang}{&page}", ["a", "b", "q", "lang", "page"]],
    ["x://{/segments*}{#frag}{.ext}{;params}", ["segments", "frag", "ext", "params"]],
    ["x://{var:3}/{var}", ["var"]],
    ["no variables", []],
    ["x://{unclosed", []],
    ["x://{}/{ a }", ["a"]],
  ])("%s", (template, names) => {
    expect(templateVariableNames(template)).toEqual(names);
  });

  test("keeps operators and modifiers", () => {
    expect(parseTemplateVariables("{+path*}{?q:10}")).toEqual([
      { name: "path", operator: "+", explode: true },
      { name: "q", operator: "?", explode: false, prefix: 10 },
    ]);
  });
});

describe("rename similarity", () => {
  test("levenshtein", () => {
    expect(levenshtein("kitten", "sitting")).toBe(3);
    expect(levenshtein("", "abc")).toBe(3);
    expect(levenshtein("same", "same")).toBe(0);
  });

  test("-, _ and . are the same, case is ignored", () => {
    expect(normalizeName("Get-Forecast.v2")).toBe("get_forecast_v2");
    expect(nameSimilarity("get-forecast", "GET_FORECAST")).toBe(1);
    expect(nameSimilarity("get_forecast", "get_forecasts")).toBeGreaterThanOrEqual(0.75);
    expect(nameSimilarity("a", "abcdefgh")).toBeLessThan(0.75);
  });

  test("a shared signature beats name similarity", () => {
    const renames = findRenames(
      [{ id: "set_alert", text: "set_alert", signature: "S" }],
      [
        { id: "set_alerts", text: "set_alerts" },
        { id: "notify", text: "notify", signature: "S" },
      ],
    );
    expect(renames.get("set_alert")).toBe("notify");
  });
});

describe("message helpers", () => {
  test("pointers escape ~ and /", () => {
    expect(pointer("/inputSchema", "properties", "a/b~c", 0)).toBe("/inputSchema/properties/a~1b~0c/0");
    expect(pointerToDotted("/inputSchema/properties/a~1b~0c/0")).toBe('inputSchema.properties["a/b~c"][0]');
    expect(pointerToDotted("")).toBe("");
  });

  test("values are shortened for one-line messages", () => {
    expect(show(undefined)).toBe("absent");
    expect(show("x".repeat(100))).toBe(JSON.stringify(`${"x".repeat(59)}…`));
    expect(show({ b: 1, a: [1, 2] })).toBe('{"a":[1,2],"b":1}');
  });
});

describe("rename budget", () => {
  test("past MAX_SIMILARITY_PAIRS only equal signatures give hints", () => {
    const n = Math.ceil(Math.sqrt(MAX_SIMILARITY_PAIRS)) + 1;
    const removed: RenameCandidate[] = Array.from({ length: n }, (_, i) => ({ id: `old_${i}`, text: `old_${i}` }));
    const added: RenameCandidate[] = Array.from({ length: n }, (_, i) => ({ id: `old_${i}x`, text: `old_${i}x` }));
    removed[0] = { ...removed[0]!, signature: "S" };
    added[5] = { ...added[5]!, signature: "S" };
    const renames = findRenames(removed, added);
    expect([...renames]).toEqual([["old_0", "old_5x"]]);
    expect(findRenames(removed.slice(0, 3), added.slice(0, 3)).get("old_1")).toBe("old_1x");
  });
});

describe("messages people read", () => {
  const schemaMessages = (a: Json, b: Json) =>
    mapSchemaChanges("t", "inputSchema", "input", compareSchemas(a, b)).map((c) => c.message);

  test('a missing keyword is "absent", never JavaScript\'s undefined, and an absent upper bound "no limit"', () => {
    expect(
      schemaMessages({ type: "object" }, { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object" }),
    ).toEqual(['dialect changed from absent to "https://json-schema.org/draft/2020-12/schema" at inputSchema']);
    expect(schemaMessages({ type: "string", maxLength: 50 }, { type: "string" })).toEqual([
      "maxLength raised from 50 to absent (no limit) at inputSchema",
    ]);
    expect(schemaMessages({ type: "number", multipleOf: 5 }, { type: "number" })).toEqual([
      "multipleOf changed from 5 to absent at inputSchema",
    ]);
    expect(schemaMessages({ type: "number", maximum: 5 }, { type: "number" })).toEqual([
      "upper bound changed from <= 5 to absent at inputSchema",
    ]);
    for (const message of schemaMessages({ type: "string", minLength: 2, maxItems: 3 }, { type: "string" })) {
      expect(message).not.toMatch(/\bundefined\b|\bnone\b/);
    }
    expect(absentWording("x changed from undefined to 3", undefined, 3)).toBe("x changed from absent to 3");
    // A value that is really called "none" stays.
    expect(absentWording('enum value "none" removed', "none", undefined)).toBe('enum value "none" removed');
  });

  test("a tool's hint changes in one phrase", () => {
    expect(
      hintSummary([
        "tool-now-read-only",
        "tool-no-longer-destructive",
        "tool-now-idempotent",
        "tool-no-longer-open-world",
      ]),
    ).toBe("now read-only, non-destructive, idempotent, closed-world");
    expect(hintSummary(["tool-now-destructive", "tool-no-longer-read-only", "tool-no-longer-idempotent"])).toBe(
      "no longer read-only or idempotent; now destructive",
    );
    expect(isHintRule("tool-now-open-world")).toBe(true);
    expect(isHintRule("tool-metadata-changed")).toBe(false);
  });
});
