import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serializeContract } from "../../../src/contract/canonical.ts";
import type { Contract, JsonObject } from "../../../src/contract/model.ts";
import { parseContract } from "../../../src/contract/read.ts";
import { buildChanges, type ChangeSpec } from "../../../src/diff/change.ts";
import { fnv1a64 } from "../../../src/diff/fingerprint.ts";
import { mapSchemaChanges, schemaLocation } from "../../../src/diff/tools.ts";
import { compareSurfaces } from "../../../src/policy/compare.ts";
import type { SchemaChange } from "../../../src/schema/compare/index.ts";
import { contract, prompt, resource, reverseKeys, summary, template, tool } from "./helpers.ts";

const ROOT = join(import.meta.dir, "../../..");
const weather = (): Contract =>
  JSON.parse(readFileSync(join(ROOT, "examples/weather.contract.json"), "utf8")) as Contract;

/** A contract that exercises every list, with changes of most kinds against `weather`. */
function drifted(): Contract {
  const c = weather();
  const forecast = c.tools[0]!;
  c.tools[0] = { ...forecast, annotations: {}, description: "Daily forecast" };
  c.tools[1] = { ...c.tools[1]!, name: "set_weather_alert" };
  c.tools.push({ name: "list_stations", inputSchema: { type: "object" } });
  c.resources[0] = { ...c.resources[0]!, mimeType: "text/csv" };
  c.resourceTemplates[0] = { ...c.resourceTemplates[0]!, uriTemplate: "weather://city/{city}/{day}" };
  c.prompts[0] = {
    ...c.prompts[0]!,
    arguments: [
      { name: "city", required: true },
      { name: "nights", required: true },
    ],
  };
  c.capabilities = { tools: {}, prompts: {} };
  c.server = { ...c.server, version: "2.0.0" };
  c.instructions = "Use get_forecast.";
  return c;
}

describe("diffContracts", () => {
  test("identical contracts give no changes", () => {
    expect(compareSurfaces(weather(), weather())).toEqual([]);
    expect(compareSurfaces(contract(), contract())).toEqual([]);
  });

  test("key order and item order do not matter", () => {
    const oldC = weather();
    const newC = drifted();
    const shuffled = (c: Contract): Contract => {
      const r = reverseKeys(c);
      return {
        ...r,
        tools: [...r.tools].reverse(),
        resources: [...r.resources].reverse(),
        resourceTemplates: [...r.resourceTemplates].reverse(),
        prompts: [...r.prompts].reverse(),
      };
    };
    const expected = compareSurfaces(oldC, newC);
    expect(expected.length).toBeGreaterThan(10);
    expect(JSON.stringify(compareSurfaces(shuffled(oldC), shuffled(newC)))).toBe(JSON.stringify(expected));
    expect(compareSurfaces(shuffled(oldC), oldC)).toEqual([]);
  });

  test("changes are sorted by target kind, target name, path, rule", () => {
    const changes = compareSurfaces(weather(), drifted());
    const kinds = ["tool", "resource", "resourceTemplate", "prompt", "server"];
    const keys = changes.map((c) => [kinds.indexOf(c.target.kind), c.target.name, c.path, c.rule] as const);
    const sorted = [...keys].sort(
      (a, b) =>
        a[0] - b[0] ||
        (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) ||
        (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0) ||
        (a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : 0),
    );
    expect(keys).toEqual(sorted);
    expect([...new Set(changes.map((c) => c.target.kind as string))]).toEqual(kinds);
  });

  test("a realistic drift of the weather example (openWorldHint true → absent is an equivalent rewrite)", () => {
    const changes = compareSurfaces(weather(), drifted());
    expect(changes.map((c) => c.message)).toEqual([
      'tool "get_forecast": equivalent rewrite, no effect: annotations.openWorldHint true → absent',
      'tool "get_forecast": no longer read-only (readOnlyHint true → absent)',
      'tool "get_forecast": description changed from "Get the daily weather forecast for a city, up to 7 days ahe…" to "Daily forecast"',
      'tool "list_stations": added',
      'tool "set_alert": removed (renamed to "set_weather_alert"?)',
      'tool "set_weather_alert": added',
      'resource "weather://stations": mimeType changed from "application/json" to "text/csv"',
      'resource template "weather://city/{city}/today": variable "day" added (uriTemplate now "weather://city/{city}/{day}")',
      'prompt "packing_list": argument "city" description removed (was "Destination city")',
      'prompt "packing_list": argument "nights" added (required)',
      'prompt "packing_list": argument "days" removed (it was optional)',
      'server: capability "resources" removed',
      'server: instructions changed from "Forecasts come from a fictional provider; use get_forecast …" to "Use get_forecast."',
      'server: serverInfo.version changed from "1.2.0" to "2.0.0"',
    ]);
  });

  test("a tool listed twice: every copy is matched, a new copy is breaking, one that goes away is not reported", () => {
    const oldC = contract({ tools: [tool("a", { description: "one" }), tool("a", { description: "two" })] });
    const newC = contract({ tools: [tool("a", { description: "one" })] });
    expect(compareSurfaces(oldC, newC)).toEqual([]);
    expect(compareSurfaces(newC, oldC).map((c) => [c.rule, c.severity, c.target.name])).toEqual([
      ["tool-duplicate-added", "breaking", "a"],
    ]);
    expect(compareSurfaces(oldC, contract({ tools: [...oldC.tools].reverse() }))).toEqual([]);
  });

  test("new copies of one identity get distinct, stable fingerprints", () => {
    const copies = (n: number) => Array.from({ length: n }, (_, i) => tool("a", { description: `copy ${i}` }));
    const two = compareSurfaces(contract({ tools: copies(1) }), contract({ tools: copies(3) }));
    expect(two.map((c) => c.rule)).toEqual(["tool-duplicate-added", "tool-duplicate-added"]);
    expect(new Set(two.map((c) => c.fingerprint)).size).toBe(2);
    const one = compareSurfaces(contract({ tools: copies(1) }), contract({ tools: copies(2) }));
    expect(one[0]!.fingerprint).toBe(two[0]!.fingerprint);
  });

  test("the lockfile reader and the canonical serializer keep every copy", () => {
    const dup = contract({
      tools: [tool("a", { description: "two" }), tool("a", { description: "one" })],
      resources: [resource("r://x"), resource("r://x", { name: "other" })],
      resourceTemplates: [template("t://{x}", "t"), template("t://{x}", "u")],
      prompts: [prompt("p"), prompt("p", { description: "d" })],
    });
    const read = parseContract(serializeContract(dup), "dup.json");
    expect(read.tools.map((t) => t.description)).toEqual(["one", "two"]);
    expect(read.resources).toHaveLength(2);
    expect(read.resourceTemplates).toHaveLength(2);
    expect(read.prompts).toHaveLength(2);
    expect(compareSurfaces(dup, read)).toEqual([]);
    const single = contract({ tools: [tool("a", { description: "one" })] });
    expect(compareSurfaces(single, read).map((c) => c.rule)).toContain("tool-duplicate-added");
  });
});

describe("annotation defaults", () => {
  const diffHints = (a: Record<string, boolean>, b: Record<string, boolean>) =>
    compareSurfaces(
      contract({ tools: [tool("t", { annotations: a })] }),
      contract({ tools: [tool("t", { annotations: b })] }),
    ).map((c) => c.rule);

  test.each([
    [{}, { destructiveHint: true }],
    [{}, { readOnlyHint: false }],
    [{}, { idempotentHint: false }],
    [{}, { openWorldHint: true }],
    [{}, { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }],
    // Read-only tools: destructiveHint and idempotentHint mean nothing.
    [{ readOnlyHint: true }, { readOnlyHint: true, destructiveHint: true }],
    [
      { readOnlyHint: true, idempotentHint: false },
      { readOnlyHint: true, idempotentHint: true },
    ],
  ])("%j and %j mean the same: one equivalent rewrite at patch, both ways", (a, b) => {
    expect(diffHints(a, b)).toEqual(["equivalent-rewrite"]);
    expect(diffHints(b, a)).toEqual(["equivalent-rewrite"]);
  });

  test("absent annotations mean an empty annotations object: the new line is explained, at patch", () => {
    const changes = compareSurfaces(
      contract({ tools: [tool("t")] }),
      contract({ tools: [tool("t", { annotations: {} })] }),
    );
    expect(changes.map((c) => [c.rule, c.severity])).toEqual([["equivalent-rewrite", "patch"]]);
    expect(changes[0]?.note).toBe("annotations: an empty object where there was none.");
  });

  test("{readOnlyHint: true} → {} is no longer read-only, and its note says it is now destructive", () => {
    expect(diffHints({ readOnlyHint: true }, {})).toEqual(["tool-no-longer-read-only"]);
    const [change] = compareSurfaces(
      contract({ tools: [tool("t", { annotations: { readOnlyHint: true } })] }),
      contract({ tools: [tool("t")] }),
    );
    expect(change!.severity).toBe("breaking");
    expect(change!.note).toBe(
      "So it may now perform destructive updates (destructiveHint is absent, which means true) and is no longer idempotent (idempotentHint is absent, which means false).",
    );
  });

  // destructiveHint means nothing on the read-only side, so its effect is part of the flip:
  // one finding (the strongest verdict of the three), the consequences in its note.
  test("a destructiveHint that changes together with readOnlyHint is folded into the read-only finding", () => {
    const a = { readOnlyHint: true, destructiveHint: false };
    const b = { readOnlyHint: false, destructiveHint: true };
    expect(diffHints(a, b)).toEqual(["tool-no-longer-read-only"]);
    expect(diffHints(b, a)).toEqual(["tool-now-read-only"]);
    const [change] = compareSurfaces(
      contract({ tools: [tool("t", { annotations: a })] }),
      contract({ tools: [tool("t", { annotations: b })] }),
    );
    expect(change?.severity).toBe("breaking");
    expect(change?.note).toContain("may now perform destructive updates");
  });

  test("the note explains which defaults decided the verdict", () => {
    const [change] = compareSurfaces(
      contract({ tools: [tool("t", { annotations: { destructiveHint: false } })] }),
      contract({ tools: [tool("t")] }),
    );
    expect(change!.note).toBe(
      "readOnlyHint is absent, which means false; destructiveHint is absent, which means true.",
    );
    expect(change!.before).toBe(false);
    expect(change!.after).toBe(true);
  });

  test("a hint that is not a boolean counts as absent (the line is an equivalent rewrite)", () => {
    expect(diffHints({}, { destructiveHint: "no" as unknown as boolean })).toEqual(["equivalent-rewrite"]);
  });
});

describe("fingerprints", () => {
  test("hash rule|kind|name|direction|path with FNV-1a 64", () => {
    const [change] = compareSurfaces(contract({ tools: [tool("a")] }), contract());
    expect(change!.fingerprint).toBe(fnv1a64("tool-removed|tool|a||"));
    expect(change!.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  test("are stable across runs and distinct within a diff", () => {
    const first = compareSurfaces(weather(), drifted());
    const second = compareSurfaces(weather(), drifted());
    expect(second.map((c) => c.fingerprint)).toEqual(first.map((c) => c.fingerprint));
    expect(new Set(first.map((c) => c.fingerprint)).size).toBe(first.length);
  });

  test("do not depend on before/after values or messages", () => {
    const at = (version: string) =>
      compareSurfaces(contract({ server: { name: "s", version: "1" } }), contract({ server: { name: "s", version } }));
    expect(at("2")[0]!.fingerprint).toBe(at("3")[0]!.fingerprint);
  });

  test("changes that share rule, target and path still get distinct fingerprints", () => {
    const spec = (value: string): ChangeSpec => ({
      rule: "pattern-changed",
      kind: "tool",
      name: "t",
      direction: "input",
      path: "/inputSchema/pattern",
      before: value,
      message: "x",
    });
    const changes = buildChanges([spec("a"), spec("b"), spec("b")]);
    expect(new Set(changes.map((c) => c.fingerprint)).size).toBe(3);
  });

  test("template variables each get their own fingerprint", () => {
    const changes = compareSurfaces(
      contract({ resourceTemplates: [template("a://{x}", "a")] }),
      contract({ resourceTemplates: [template("a://{x}/{y}/{z}", "a")] }),
    );
    expect(changes.map((c) => c.rule)).toEqual(["template-variable-added", "template-variable-added"]);
    expect(changes[0]!.fingerprint).not.toBe(changes[1]!.fingerprint);
  });
});

describe("rename hints", () => {
  const schema = {
    type: "object",
    properties: { city: { type: "string" }, condition: { type: "string" } },
    required: ["city", "condition"],
  };

  test("a removed tool with the same inputSchema as an added one", () => {
    const changes = compareSurfaces(
      contract({ tools: [tool("set_alert", { inputSchema: schema })] }),
      contract({
        tools: [tool("create_notification", { inputSchema: { ...schema, required: ["condition", "city"] } })],
      }),
    );
    const removal = changes.find((c) => c.rule === "tool-removed")!;
    expect(removal.severity).toBe("breaking");
    expect(removal.renamedTo).toBe("create_notification");
    expect(removal.message).toBe('tool "set_alert": removed (renamed to "create_notification"?)');
  });

  test("a removed tool with a similar name", () => {
    const changes = compareSurfaces(
      contract({ tools: [tool("get-forecast"), tool("zap")] }),
      contract({ tools: [tool("get_forecasts"), tool("delete_everything")] }),
    );
    expect(changes.filter((c) => c.rule === "tool-removed").map((c) => [c.target.name, c.renamedTo])).toEqual([
      ["get-forecast", "get_forecasts"],
      ["zap", undefined],
    ]);
  });

  test("no hint from an empty inputSchema shared by unrelated tools", () => {
    const changes = compareSurfaces(contract({ tools: [tool("list_all")] }), contract({ tools: [tool("get_status")] }));
    const removal = changes.find((c) => c.rule === "tool-removed");
    expect(removal!.renamedTo).toBeUndefined();
    expect(removal!.message).toBe('tool "list_all": removed');
  });

  test("each added tool is suggested for one removed tool at most", () => {
    const changes = compareSurfaces(
      contract({ tools: [tool("fetch_item"), tool("fetch_items")] }),
      contract({ tools: [tool("fetch_itemz")] }),
    );
    const hints = changes.filter((c) => c.rule === "tool-removed").map((c) => c.renamedTo);
    expect(hints.filter((h) => h !== undefined)).toEqual(["fetch_itemz"]);
  });

  test("prompts, resources and templates", () => {
    const changes = compareSurfaces(
      contract({
        prompts: [prompt("packing_list")],
        resources: [resource("file:///docs/readme.md", { name: "readme" })],
        resourceTemplates: [template("weather://city/{city}", "city")],
      }),
      contract({
        prompts: [prompt("packing-lists")],
        resources: [resource("file:///documentation/README.md", { name: "readme" })],
        resourceTemplates: [template("weather://cities/{city}", "cities")],
      }),
    );
    const hints = changes.filter((c) => c.rule.endsWith("-removed")).map((c) => [c.rule, c.renamedTo]);
    expect(hints).toEqual([
      ["resource-removed", "file:///documentation/README.md"],
      ["template-removed", "weather://cities/{city}"],
      ["prompt-removed", "packing-lists"],
    ]);
  });
});

describe("resource templates", () => {
  test("a changed uriTemplate with the same name is the same template, changed", () => {
    const changes = compareSurfaces(
      contract({
        resourceTemplates: [template("w://city/{city}/{day}", "forecast", { mimeType: "application/json" })],
      }),
      contract({ resourceTemplates: [template("w://{country}/{city}", "forecast", { mimeType: "text/plain" })] }),
    );
    expect(summary(changes)).toEqual([
      { rule: "template-mime-type-changed", severity: "breaking", direction: undefined, path: "/mimeType" },
      { rule: "template-variable-added", severity: "breaking", direction: undefined, path: "/uriTemplate" },
      { rule: "template-variable-removed", severity: "breaking", direction: undefined, path: "/uriTemplate" },
    ]);
    expect(changes.every((c) => c.target.name === "w://city/{city}/{day}")).toBe(true);
    expect(changes[1]!.message).toContain('variable "country" added');
    expect(changes[2]!.message).toContain('variable "day" removed');
    expect(changes[1]!.before).toBe("w://city/{city}/{day}");
    expect(changes[1]!.after).toBe("w://{country}/{city}");
  });

  test("modifiers and operators change the shape, not the variables", () => {
    const changes = compareSurfaces(
      contract({ resourceTemplates: [template("file:///{path}", "file")] }),
      contract({ resourceTemplates: [template("file:///{+path*}", "file")] }),
    );
    expect(changes.map((c) => c.rule)).toEqual(["template-changed"]);
  });

  test("templates with different names are removed and added", () => {
    const changes = compareSurfaces(
      contract({ resourceTemplates: [template("w://{a}", "one")] }),
      contract({ resourceTemplates: [template("x://{b}", "two")] }),
    );
    expect(changes.map((c) => c.rule)).toEqual(["template-removed", "template-added"]);
  });
});

describe("schema changes", () => {
  test.todo("schema changes inside inputSchema map to input-direction Changes");

  test("mapSchemaChanges: direction decides severity, paths are prefixed, messages say where", () => {
    const sc: SchemaChange = {
      rule: "enum-value-added",
      path: "/properties/units/enum",
      after: "kelvin",
      message: 'value "kelvin" now allowed',
    };
    const [input] = buildChanges(mapSchemaChanges("get_forecast", "inputSchema", "input", [sc]));
    const [output] = buildChanges(mapSchemaChanges("get_forecast", "outputSchema", "output", [sc]));
    expect(input).toMatchObject({
      rule: "enum-value-added",
      severity: "minor",
      direction: "input",
      path: "/inputSchema/properties/units/enum",
      after: "kelvin",
      message: 'tool "get_forecast": value "kelvin" now allowed at inputSchema.properties.units',
    });
    expect(output).toMatchObject({
      severity: "breaking",
      direction: "output",
      path: "/outputSchema/properties/units/enum",
    });
    expect(input!.fingerprint).not.toBe(output!.fingerprint);
  });

  test("mapSchemaChanges keeps the note; enum values each get their own fingerprint", () => {
    const changes = buildChanges(
      mapSchemaChanges("t", "inputSchema", "input", [
        { rule: "enum-value-removed", path: "/enum", before: "a", message: 'value "a" no longer allowed' },
        { rule: "enum-value-removed", path: "/enum", before: "b", message: 'value "b" no longer allowed', note: "n" },
      ]),
    );
    expect(changes.map((c) => c.message)).toEqual([
      'tool "t": value "a" no longer allowed at inputSchema',
      'tool "t": value "b" no longer allowed at inputSchema',
    ]);
    expect(changes[1]!.note).toBe("n");
    expect(changes[0]!.fingerprint).toBe(fnv1a64('enum-value-removed|tool|t|input|/inputSchema/enum|"a"'));
  });

  test.each([
    ["", "inputSchema"],
    ["/inputSchema", "inputSchema"],
    ["/inputSchema/required", "inputSchema"],
    ["/inputSchema/properties/units/enum", "inputSchema.properties.units"],
    ["/inputSchema/properties/type", "inputSchema.properties.type"],
    ["/outputSchema/properties/days/items/properties/a b/type", 'outputSchema.properties.days.items.properties["a b"]'],
    ["/inputSchema/anyOf/1", "inputSchema.anyOf[1]"],
    ["/inputSchema/properties/a~1b", 'inputSchema.properties["a/b"]'],
  ])("schemaLocation(%j) = %j", (path, expected) => {
    expect(schemaLocation(path === "" ? "/inputSchema" : path)).toBe(expected);
  });

  test("the engine's findings reach the diff: input and output verdicts follow variance", () => {
    const oldC = weather();
    const newC = weather();
    const forecast = newC.tools[0]! as unknown as {
      inputSchema: { properties: { units: { enum: string[] } } };
      outputSchema: { properties: { days: { items: { properties: { conditions: { enum: string[] } } } } } };
    };
    forecast.inputSchema.properties.units.enum = ["metric"];
    forecast.outputSchema.properties.days.items.properties.conditions.enum.push("hail");
    const changes = compareSurfaces(oldC, newC).filter((c) => c.rule.startsWith("enum-"));
    expect(changes.map((c) => [c.rule, c.severity, c.direction, c.path])).toEqual([
      ["enum-value-removed", "breaking", "input", "/inputSchema/properties/units/enum"],
      ["enum-value-added", "breaking", "output", "/outputSchema/properties/days/items/properties/conditions/enum"],
    ]);
    expect(changes[0]!.message).toContain('tool "get_forecast": ');
    expect(changes[0]!.message).toContain("imperial");
    expect(changes[0]!.message).toEndWith("at inputSchema.properties.units");
  });
});

describe("a property declared and required in one release", () => {
  const schema = (properties: JsonObject, required: string[] = []): JsonObject => ({
    inputSchema: { type: "object", properties, required },
  });
  const rules = (a: JsonObject, b: JsonObject) =>
    compareSurfaces(contract({ tools: [tool("t", a)] }), contract({ tools: [tool("t", b)] })).map((c) => [
      c.rule,
      c.severity,
      c.message,
    ]);

  test("is one breaking change, and its declaration is no unexplained rewrite", () => {
    expect(
      rules(
        schema({ q: { type: "string" } }),
        schema({ q: { type: "string" }, region: { type: "string" } }, ["region"]),
      ),
    ).toEqual([["required-added", "breaking", 'tool "t": property "region" added, and required at inputSchema']]);
  });

  test("removed while required, it is one change the other way: breaking on output", () => {
    const output = (properties: JsonObject, required: string[] = []): JsonObject => ({
      inputSchema: { type: "object" },
      outputSchema: { type: "object", properties, required },
    });
    expect(
      rules(
        output({ q: { type: "string" }, region: { type: "string" } }, ["region"]),
        output({ q: { type: "string" } }),
      ),
    ).toEqual([
      ["required-removed", "breaking", 'tool "t": property "region" removed, and no longer required at outputSchema'],
    ]);
  });

  test("a property that only became required keeps its own rewrites", () => {
    // ["string"] → "string" accepts the same values: an equivalent rewrite beside the requirement.
    expect(rules(schema({ q: { type: ["string"] } }), schema({ q: { type: "string" } }, ["q"]))).toEqual([
      [
        "equivalent-rewrite",
        "patch",
        'tool "t": equivalent rewrite, no effect: inputSchema.properties.q.type ["string"] → "string"',
      ],
      ["required-added", "breaking", 'tool "t": property "q" is now required at inputSchema'],
    ]);
  });
});
