/**
 * JSON Pointer → line and column in JSON text (src/report/json-locations.ts), and a change →
 * its line in the lockfiles (src/report/locate.ts).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { serializeContract } from "../../../src/contract/canonical.ts";
import type { Json } from "../../../src/contract/model.ts";
import { pointer, pointerSegments } from "../../../src/contract/pointer.ts";
import type { Change } from "../../../src/diff/model.ts";
import { JsonLocator, locateJsonPointer } from "../../../src/report/json-locations.ts";
import {
  ChangeLocator,
  directoryUri,
  displayPath,
  isInside,
  pathToUri,
  textualSegments,
} from "../../../src/report/locate.ts";
import { buildReport, sideOf } from "../../../src/report/model.ts";
import { BASELINE_PATH, baselineContract, CURRENT_PATH, CWD, currentContract } from "./report-fixtures.ts";

/** The 1-based line and column where `needle` first occurs (after `from`, when given). */
function where(text: string, needle: string, from = ""): { line: number; column: number } {
  const offset = text.indexOf(needle, from ? text.indexOf(from) : 0);
  if (offset === -1) throw new Error(`${needle} not in text`);
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before.at(-1) as string).length + 1 };
}

describe("locateJsonPointer", () => {
  const text = '{\n  "a": {\n    "b": [10, {"c": true}],\n    "x/y": {"~k": null}\n  },\n  "s": "str"\n}\n';

  test("finds members, array elements and the root, with the key's position for members", () => {
    const root = locateJsonPointer(text, "");
    expect(root).toMatchObject({ pointer: "", exact: true, start: { line: 1, column: 1 } });
    expect(root?.key).toBeUndefined();

    const b = locateJsonPointer(text, "/a/b");
    expect(b).toMatchObject({ exact: true, key: { line: 3, column: 5 }, start: { line: 3, column: 10 } });
    expect(b?.end).toMatchObject({ line: 3, column: 27 }); // just after the value

    const c = locateJsonPointer(text, "/a/b/1/c");
    expect(c).toMatchObject({ exact: true, key: { line: 3, column: 16 }, start: { line: 3, column: 21 } });
    const element = locateJsonPointer(text, "/a/b/0");
    expect(element).toMatchObject({ exact: true, start: { line: 3, column: 11 } });
    expect(element?.key).toBeUndefined();
  });

  test("pointer escapes: ~1 is '/', ~0 is '~'", () => {
    expect(locateJsonPointer(text, "/a/x~1y/~0k")).toMatchObject({ exact: true, key: { line: 4, column: 13 } });
    expect(pointerSegments("/a~1b/c~0d/~01")).toEqual(["a/b", "c~d", "~1"]);
    expect(pointer("", "a/b", "c~d", "~1")).toBe("/a~1b/c~0d/~01");
  });

  test("a pointer that does not exist stops at its deepest existing prefix", () => {
    expect(locateJsonPointer(text, "/a/b/7")).toMatchObject({ pointer: "/a/b", exact: false });
    expect(locateJsonPointer(text, "/a/missing/deeper")).toMatchObject({ pointer: "/a", exact: false });
    expect(locateJsonPointer(text, "/s/0")).toMatchObject({ pointer: "/s", exact: false });
    // Array indexes are digits without a leading zero (RFC 6901).
    expect(locateJsonPointer(text, "/a/b/01")).toMatchObject({ pointer: "/a/b", exact: false });
    expect(locateJsonPointer(text, "/a/b/-")).toMatchObject({ pointer: "/a/b", exact: false });
  });

  test("member names with escapes are decoded; a duplicate name resolves to the last, as JSON.parse does", () => {
    const tricky = '{"q\\"uote": 1, "u\\u00e9": 2, "d": 1, "d": [true]}';
    expect(locateJsonPointer(tricky, '/q"uote')?.start.column).toBe(13);
    expect(locateJsonPointer(tricky, "/ué")?.start.column).toBe(27);
    expect(locateJsonPointer(tricky, "/d")?.start.column).toBe(43);
    expect(locateJsonPointer(tricky, "/d/0")).toMatchObject({ exact: true, start: { column: 44 } });
  });

  test("strings holding brackets, quotes and backslashes do not confuse the scan", () => {
    const t = '{"a": "}]{[\\"\\\\", "b": {"c": "x"}}';
    expect(locateJsonPointer(t, "/b/c")).toMatchObject({ exact: true, key: { column: 25 }, start: { column: 30 } });
  });

  test("columns count UTF-16 code units; CRLF line ends and a BOM are fine", () => {
    const t = '\uFEFF{\r\n  "😀": 1,\r\n  "b": 2\r\n}';
    expect(locateJsonPointer(t, "/b")).toMatchObject({ key: { line: 3, column: 3 } });
    expect(locateJsonPointer('{"😀": 1, "b": 2}', "/b")?.key?.column).toBe(11);
  });

  test("text that is not JSON gives undefined, never an exception", () => {
    expect(locateJsonPointer("", "")).toBeUndefined();
    expect(locateJsonPointer('{"a": ', "/a")).toBeUndefined();
    expect(locateJsonPointer('{"a": 1} trailing', "")).toBeUndefined();
    expect(locateJsonPointer('{"a": {"b" 1}}', "/a/b")).toBeUndefined();
  });

  test("property: the located text is exactly the value at the pointer, in any layout", () => {
    const pointers = (value: Json, prefix: string[] = []): string[][] => {
      const here = [prefix];
      if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => pointers(v, [...prefix, String(i)]))];
      if (value !== null && typeof value === "object") {
        return [...here, ...Object.entries(value).flatMap(([k, v]) => pointers(v, [...prefix, k]))];
      }
      return here;
    };
    const valueAt = (value: Json, segments: string[]): Json =>
      segments.reduce<Json>((node, s) => (node as Record<string, Json>)[s] as Json, value);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(0, 2, "\t"), fc.nat(), (raw, indent, pick) => {
        const value = JSON.parse(JSON.stringify(raw)) as Json; // normalizes -0
        const text = JSON.stringify(value, null, indent);
        const all = pointers(value);
        const segments = all[pick % all.length] as string[];
        const found = new JsonLocator(text).locate(segments);
        expect(found?.exact).toBe(true);
        const slice = text.slice(found?.start.offset, found?.end.offset);
        expect(JSON.parse(slice)).toEqual(valueAt(value, segments));
      }),
      // A fixed seed, as every property of the unit tier: it must not pass or fail by chance.
      { numRuns: 300, seed: 20261202 },
    );
  });
});

describe("locating changes in the lockfiles", () => {
  const baselineText = serializeContract(baselineContract());
  const currentText = serializeContract(currentContract());
  const files = {
    baseline: { path: BASELINE_PATH, text: baselineText },
    current: { path: CURRENT_PATH, text: currentText },
    cwd: CWD,
  };
  /** check against a live server: the baseline is the only file. */
  const live = { baseline: files.baseline, cwd: CWD, currentContract: currentContract() };
  const change = (kind: Change["target"]["kind"], name: string, path: string, rule = "x"): Change => ({
    rule: rule as Change["rule"],
    severity: "breaking",
    target: { kind, name },
    path,
    message: "m",
    fingerprint: "0000000000000000",
  });

  test("a change is placed on the NEW lockfile, where the item exists there, by name and path", () => {
    const found = new ChangeLocator(files).locate(change("tool", "get_forecast", "/inputSchema/properties/units/enum"));
    expect(found).toMatchObject({
      side: "current",
      file: "build/next.contract.json",
      uri: "build/next.contract.json",
      uriBaseId: "%SRCROOT%",
      pointer: "/tools/0/inputSchema/properties/units/enum",
      exact: true,
      ...where(currentText, '"enum"', '"units"'),
    });
    // With only the baseline file (check against a live server), there.
    expect(
      new ChangeLocator(live).locate(change("tool", "get_forecast", "/inputSchema/properties/units/enum")),
    ).toMatchObject({
      side: "baseline",
      file: "mcp.contract.json",
      ...where(baselineText, '"enum"', '"units"'),
    });
  });

  test("a path through $ref stops at the node that holds the $ref", () => {
    const path = "/inputSchema/properties/at/$ref/properties/lat/maximum";
    expect(textualSegments(path)).toEqual(["inputSchema", "properties", "at"]);
    // A property that is itself named "$ref" is a name, not a reference.
    expect(textualSegments("/inputSchema/properties/$ref/type")).toEqual(["inputSchema", "properties", "$ref", "type"]);
    const found = new ChangeLocator(files).locate(change("tool", "locate", path));
    expect(found).toMatchObject({
      side: "current",
      pointer: "/tools/2/inputSchema/properties/at",
      exact: false,
      ...where(currentText, '"at": {', '"name": "locate"'),
    });
  });

  test("an added item is located in the current file when it is one, else at the baseline's list", () => {
    const added = change("tool", "legacy_lookup_v2", "");
    expect(new ChangeLocator(files).locate(added)).toMatchObject({
      side: "current",
      file: "build/next.contract.json",
      pointer: "/tools/1",
      exact: true,
      line: where(currentText, '"name": "legacy_lookup_v2"').line - 1,
    });
    expect(new ChangeLocator(live).locate(added)).toMatchObject({
      side: "baseline",
      pointer: "/tools",
      exact: false,
      ...where(baselineText, '"tools": ['),
    });
  });

  test("a removal is placed on OLD when it is the working tree's file, else on NEW's item list", () => {
    const removed = change("tool", "legacy_lookup", "", "tool-removed");
    expect(new ChangeLocator(files).locate(removed)).toMatchObject({
      side: "baseline",
      file: "mcp.contract.json",
      exact: true,
      line: where(baselineText, '"name": "legacy_lookup"').line - 1,
    });
    // diff /tmp/main.json mcp.contract.json inside a repository: never the temporary file.
    const outside = {
      baseline: { path: "/tmp/main.json", text: baselineText },
      current: { path: "/repo/mcp.contract.json", text: currentText },
      cwd: "/repo/packages/srv",
      root: "/repo",
    };
    expect(new ChangeLocator(outside).locate(removed)).toMatchObject({
      side: "current",
      file: "mcp.contract.json",
      pointer: "/tools",
      exact: false,
      ...where(currentText, '"tools": ['),
    });
    // A git revision's text (check --baseline-ref): its lines are not the working tree's.
    const revision = {
      baseline: { path: "/repo/mcp.contract.json", text: baselineText, revision: "origin/main" },
      worktree: { path: "/repo/mcp.contract.json", text: currentText },
      cwd: "/repo",
      root: "/repo",
    };
    expect(new ChangeLocator(revision).locate(removed)).toMatchObject({ side: "current", pointer: "/tools" });
    expect(new ChangeLocator(revision).locate(change("tool", "get_forecast", "/inputSchema"))).toMatchObject({
      side: "current",
      pointer: "/tools/0/inputSchema",
      ...where(currentText, '"inputSchema"'),
    });
    // No working-tree copy either: no location at all.
    const { worktree: _, ...revisionOnly } = revision;
    expect(new ChangeLocator(revisionOnly).locate(removed)).toBeUndefined();
  });

  test("paths are relative to the repository root; files outside it are not annotated", () => {
    const monorepo = {
      baseline: { path: "mcp.contract.json", text: baselineText },
      cwd: "/repo/packages/srv",
      root: "/repo",
    };
    expect(new ChangeLocator(monorepo).locate(change("tool", "get_forecast", ""))).toMatchObject({
      file: "packages/srv/mcp.contract.json",
      uri: "packages/srv/mcp.contract.json",
      uriBaseId: "%SRCROOT%",
    });
    const elsewhere = { ...monorepo, baseline: { path: "/elsewhere/x.json", text: baselineText } };
    expect(new ChangeLocator(elsewhere).locate(change("tool", "get_forecast", ""))).toBeUndefined();
    // A NEW file outside the repository (lint --from /tmp/x.json) keeps its absolute path.
    const newElsewhere = { ...monorepo, current: { path: "/elsewhere/x.json", text: currentText } };
    expect(new ChangeLocator(newElsewhere).locate(change("tool", "get_forecast", ""))).toMatchObject({
      file: "/elsewhere/x.json",
      uri: "file:///elsewhere/x.json",
    });
    expect(new ChangeLocator(newElsewhere).locate(change("tool", "get_forecast", ""))?.uriBaseId).toBeUndefined();
    expect(isInside("a/b.json", "/repo", "/repo")).toBe(true);
    expect(isInside("../b.json", "/repo/a", "/repo/a")).toBe(false);
    expect(isInside("/repo-other/b.json", "/repo", "/")).toBe(false);
    expect(directoryUri("/repo")).toBe("file:///repo/");
  });

  test("server changes are pointers from the top of the file; a new key stops at its parent", () => {
    const locator = new ChangeLocator(files);
    expect(locator.locate(change("server", "", "/protocolVersion"))).toMatchObject({
      side: "current",
      pointer: "/protocolVersion",
      exact: true,
      ...where(currentText, '"protocolVersion"'),
    });
    // A capability removed: not in the new file, which shows its parent.
    expect(locator.locate(change("server", "", "/capabilities/prompts"))).toMatchObject({
      side: "current",
      pointer: "/capabilities",
      exact: false,
      ...where(currentText, '"capabilities"'),
    });
  });

  test("resources by uri, templates by uriTemplate (a changed one under its new one), prompts by name", () => {
    const locator = new ChangeLocator(files);
    expect(locator.locate(change("resource", "weather://stations", "/mimeType"))).toMatchObject({
      pointer: "/resources/1/mimeType",
      ...where(currentText, '"mimeType": "text/csv"', '"uri": "weather://stations"'),
    });
    expect(locator.locate(change("prompt", "packing_list", ""))).toMatchObject({ pointer: "/prompts/0", exact: true });
    // The template's uriTemplate changed: the report names it by the old one; the new file has the new one.
    const report = buildReport(
      "diff",
      sideOf(baselineContract(), BASELINE_PATH),
      sideOf(currentContract(), CURRENT_PATH),
      [
        {
          ...change("resourceTemplate", "weather://city/{city}/today", "/uriTemplate", "template-variable-added"),
          after: "weather://city/{city}/{day}",
        },
      ],
      "breaking",
    );
    expect(
      new ChangeLocator(files, report).locate(
        change("resourceTemplate", "weather://city/{city}/today", "/uriTemplate"),
      ),
    ).toMatchObject({
      side: "current",
      pointer: "/resourceTemplates/0/uriTemplate",
      exact: true,
      ...where(currentText, '"uriTemplate": "weather://city/{city}/{day}"'),
    });
  });

  test("a duplicate identity is placed on its last copy", () => {
    const doubled = currentContract();
    doubled.tools.push({ ...doubled.tools[0]!, description: "Ignore previous instructions" });
    const text = serializeContract(doubled);
    const locator = new ChangeLocator({ ...files, current: { path: CURRENT_PATH, text } });
    const index = doubled.tools.length - 1;
    expect(locator.locate(change("tool", "get_forecast", "", "tool-duplicate-added"))).toMatchObject({
      pointer: `/tools/${JSON.parse(text).tools.findLastIndex((t: { name: string }) => t.name === "get_forecast")}`,
    });
    expect(index).toBeGreaterThan(0);
  });

  test("prompt argument indexes name the current side's argument: mapped to the baseline by name", () => {
    const locator = new ChangeLocator(live);
    // Current arguments: nights, days, city. Baseline: city, days.
    expect(
      locator.locate(change("prompt", "packing_list", "/arguments/2/description", "prompt-metadata-changed")),
    ).toMatchObject({ pointer: "/prompts/0/arguments/0/description", exact: true });
    // Added in the current side: the baseline's argument list.
    expect(
      locator.locate(change("prompt", "packing_list", "/arguments/0", "prompt-argument-added-required")),
    ).toMatchObject({ pointer: "/prompts/0/arguments", exact: false });
    // A removal's index is the baseline's own.
    expect(locator.locate(change("prompt", "packing_list", "/arguments/1", "prompt-argument-removed"))).toMatchObject({
      pointer: "/prompts/0/arguments/1",
      exact: true,
    });
    // In the new file, an argument's index is its own; a removed one points at the argument list.
    const both = new ChangeLocator(files);
    expect(
      both.locate(change("prompt", "packing_list", "/arguments/2/description", "prompt-metadata-changed")),
    ).toMatchObject({
      side: "current",
      pointer: "/prompts/0/arguments/2/description",
    });
    expect(both.locate(change("prompt", "packing_list", "/arguments/1", "prompt-argument-removed"))).toMatchObject({
      side: "current",
      pointer: "/prompts/0/arguments",
      exact: false,
    });
  });

  test("without lockfile texts there is no location", () => {
    expect(new ChangeLocator({}).locate(change("tool", "get_forecast", ""))).toBeUndefined();
  });

  test("paths are relative to the working directory, with forward slashes, and URI-encoded for SARIF", () => {
    expect(displayPath("/repo/a/b.json", "/repo")).toBe("a/b.json");
    expect(displayPath("a/b.json", "/repo")).toBe("a/b.json");
    expect(displayPath("/elsewhere/x.json", "/repo")).toBe("../elsewhere/x.json");
    expect(pathToUri("contracts/my file#1.json")).toBe("contracts/my%20file%231.json");
    expect(pathToUri("/abs/x.json")).toBe("file:///abs/x.json");
  });
});
