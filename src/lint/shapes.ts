/**
 * Tool schemas by shape. Big servers repeat a few schemas across hundreds or thousands of
 * tools, and a schema rule's findings depend only on the schema and where it sits, so the
 * rules compute them once per shape (found.ts perToolSchema, rules-security.ts) and hand them
 * to every tool of that shape. Two schemas have one shape when their compact JSON is the same
 * text: same keys in the same order, since ajv's error order, and the cap on findings per
 * schema, follow key order. The same pass measures each tool's compact JSON, which the token
 * estimate of the tool list needs, so the surface is serialized once, not three times. Pure.
 */
import { type Contract, isJsonObject } from "../contract/model.ts";
import { shapesFromText } from "./shape-text.ts";

interface SurfaceSizes {
  /** Characters of each tool's compact JSON (`JSON.stringify(tool).length`), in list order. */
  toolLengths: number[];
  /**
   * Each tool's inputSchema and outputSchema shape, by tool index: schemas with one id have the
   * same JSON text (-1: not an object schema).
   */
  shapes: Record<"inputSchema" | "outputSchema", Int32Array>;
}

const INDEXED = new WeakMap<Contract, SurfaceSizes>();

/** Lockfile texts that contracts were parsed from, as the lint command declares them. */
const SOURCES = new WeakMap<Contract, string>();

/**
 * Declares that `JSON.parse(text)` is `contract` (a lockfile read as it is, and not changed
 * since): its shapes are then read from the text (src/lint/shape-text.ts) rather than by
 * serializing every schema.
 */
export function declareSourceText(contract: Contract, text: string): void {
  SOURCES.set(contract, text);
}

const SCHEMA_FIELDS = new Set(["inputSchema", "outputSchema"]);

/**
 * Gives every tool schema of the contract its shape id and measures every tool, once per
 * contract (`fresh`: again, as lintContract does at the start of each run, in case the caller
 * changed the contract since). The text of each shape is kept only while the pass runs.
 */
export function indexShapes(contract: Contract, fresh = false): SurfaceSizes {
  const known = fresh ? undefined : INDEXED.get(contract);
  if (known) return known;
  const source = SOURCES.get(contract);
  const fromText = source === undefined ? undefined : shapesFromText(contract, source);
  if (fromText) {
    INDEXED.set(contract, fromText);
    return fromText;
  }
  const byText = new Map<string, number>();
  const shapes = {
    inputSchema: new Int32Array(contract.tools.length).fill(-1),
    outputSchema: new Int32Array(contract.tools.length).fill(-1),
  };
  const toolLengths = contract.tools.map((tool, index) => {
    if (!isJsonObject(tool)) return (JSON.stringify(tool) ?? "null").length;
    // The tool's compact JSON length, assembled field by field: "{" key ":" value ("," …) "}".
    let length = 1;
    let fields = 0;
    for (const key of Object.keys(tool)) {
      const value = tool[key];
      if (value === undefined) continue;
      let text: string;
      if (SCHEMA_FIELDS.has(key) && isJsonObject(value)) {
        text = JSON.stringify(value);
        let id = byText.get(text);
        if (id === undefined) {
          id = byText.size;
          byText.set(text, id);
        }
        shapes[key as keyof typeof shapes][index] = id;
      } else {
        text = JSON.stringify(value) ?? "";
        if (text === "") continue;
      }
      length += JSON.stringify(key).length + 1 + text.length + (fields++ > 0 ? 1 : 0);
    }
    return length + 1;
  });
  const sizes = { toolLengths, shapes };
  INDEXED.set(contract, sizes);
  return sizes;
}
