import { describe, expect, test } from "bun:test";
import {
  escapeSegment,
  pointer,
  pointerSegments,
  pointerToDotted,
  unescapeSegment,
} from "../../../src/contract/pointer.ts";
import { ITEM_LISTS, LIST_OF } from "../../../src/contract/surface.ts";

describe("JSON Pointer", () => {
  test("segments escape ~ before / and unescape in the reverse order (RFC 6901)", () => {
    expect(escapeSegment("a/b~c")).toBe("a~1b~0c");
    expect(unescapeSegment("a~1b~0c")).toBe("a/b~c");
    // ~01 is "~1" literally, not "/".
    expect(unescapeSegment("~01")).toBe("~1");
    expect(pointer("/inputSchema", "properties", "a/b", 0)).toBe("/inputSchema/properties/a~1b/0");
    expect(pointerSegments("")).toEqual([]);
    expect(pointerSegments("/")).toEqual([""]);
    expect(pointerSegments(pointer("", "x~y", "/"))).toEqual(["x~y", "/"]);
  });

  test("the dotted form people read", () => {
    expect(pointerToDotted("")).toBe("");
    expect(pointerToDotted("/inputSchema/properties/units")).toBe("inputSchema.properties.units");
    expect(pointerToDotted("/arguments/1/name")).toBe("arguments[1].name");
    expect(pointerToDotted("/properties/a~1b/x y")).toBe('properties["a/b"]["x y"]');
    expect(pointerToDotted('/"q"')).toBe('["\\"q\\""]');
  });
});

describe("surface lists", () => {
  test("each item kind lives in one list with one identity field", () => {
    expect(ITEM_LISTS.map((l) => [l.kind, l.key, l.id])).toEqual([
      ["tool", "tools", "name"],
      ["resource", "resources", "uri"],
      ["resourceTemplate", "resourceTemplates", "uriTemplate"],
      ["prompt", "prompts", "name"],
    ]);
    for (const list of ITEM_LISTS) expect(LIST_OF[list.kind]).toBe(list);
  });
});
