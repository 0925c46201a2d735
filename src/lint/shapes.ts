/**
 * Tool schemas by shape. Big servers repeat a few schemas across hundreds or thousands of
 * tools, and a schema rule's findings depend only on the schema and where it sits, so the
 * rules compute them once per shape (found.ts perToolSchema, rules-security.ts) and hand them
 * to every tool of that shape. Two schemas have one shape when their compact JSON is the same
 * text: same keys in the same order, since ajv's error order, and the cap on findings per
 * schema, follow key order. The same pass measures each tool's compact JSON, which the token
 * estimate of the tool list needs, so the surface is serialized once, not three times. Pure.
 */
import { compactLength } from "../contract/compact-length.ts";
import { type Contract, isJsonObject, type Tool } from "../contract/model.ts";
import type { MeasuredTools } from "../contract/schema-spans.ts";

/** Measured without making the text: in src/contract/, as the reader measures each tool while checking it. */
export { compactLength };

export interface SurfaceSizes {
  /** Characters of each tool's compact JSON (`JSON.stringify(tool).length`), in list order. */
  toolLengths: number[];
  /**
   * Each tool's inputSchema and outputSchema shape, by tool index: schemas with one id have the
   * same JSON text (-1: not an object schema).
   */
  shapes: Record<"inputSchema" | "outputSchema", Int32Array>;
}

const INDEXED = new WeakMap<Contract, SurfaceSizes>();

/** Shapes found as a contract was read, with each tool's name as it was read, when the reader kept them. */
export interface ReadSizes extends SurfaceSizes {
  names?: readonly unknown[];
}

/** Shapes found as contracts were read (src/lint/shape-text.ts), with the tools they were found for. */
const DECLARED = new WeakMap<Contract, { sizes: SurfaceSizes; tools: Tool[]; names: readonly unknown[] }>();

/**
 * Declares the shapes a ShapeReader found as `contract` was read (src/lint/shape-text.ts): they
 * are used instead of serializing every schema while the contract holds the same tools. The
 * names are those the reader kept as it read each tool, when it did (reading 10,000 names again
 * from tools no longer in the processor's caches cost a few milliseconds).
 */
export function declareShapes(contract: Contract, sizes: ReadSizes): void {
  const names = sizes.names ?? contract.tools.map((t) => t.name);
  DECLARED.set(contract, { sizes, tools: [...contract.tools], names });
}

/** The declared shapes, if the contract still holds the tools (and names) they were found for. */
function declaredShapes(contract: Contract): SurfaceSizes | undefined {
  const declared = DECLARED.get(contract);
  const tools = contract.tools;
  if (declared === undefined || declared.tools.length !== tools.length) return undefined;
  for (let i = 0; i < tools.length; i++) {
    if (tools[i] !== declared.tools[i] || tools[i]!.name !== declared.names[i]) return undefined;
  }
  return declared.sizes;
}

const SCHEMA_FIELDS = new Set(["inputSchema", "outputSchema"]);

/**
 * The shapes and sizes of a surface whose schemas rarely repeat (src/lint/shape-text.ts): a
 * schema object is its own shape (tools that hold one object share it), and each tool is
 * measured by compactLength, so no schema is serialized. On 10,000 tools whose schemas all
 * differ, serializing them made 45 MB of text only to be hashed and measured. `measured`: what
 * the reader found of the tools it measured as it checked them, in the contract's order (its
 * length, which of its schema fields hold objects of its own, its name): such a tool is not
 * walked or read again, and its schemas take the next ids without being looked up (no other
 * tool holds them); a tool not where the list has it is measured and looked up as the others.
 * `lengthOf`: the length of another tool, when the reader knows it (one built from schema spans).
 */
export function shapesByIdentity(
  contract: Contract,
  measured: Readonly<MeasuredTools> = { tools: [], lengths: [], objects: [], names: [] },
  lengthOf: (tool: object) => number | undefined = () => undefined,
): ReadSizes {
  const tools = contract.tools;
  const ids = new Map<object, number>();
  let next = 0;
  // The next of the measured tools, which the contract holds in the same order.
  let m = 0;
  const shapes = { inputSchema: new Int32Array(tools.length), outputSchema: new Int32Array(tools.length) };
  const toolLengths: number[] = new Array(tools.length);
  const names: unknown[] = new Array(tools.length);
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i] as Tool;
    if (m < measured.tools.length && measured.tools[m] === tool) {
      // A lookup per schema object on 10,000 tools cost more than the rest of the index.
      toolLengths[i] = measured.lengths[m]!;
      names[i] = measured.names[m];
      const objects = measured.objects[m++]!;
      shapes.inputSchema[i] = (objects & 1) !== 0 ? next++ : -1;
      shapes.outputSchema[i] = (objects & 2) !== 0 ? next++ : -1;
      continue;
    }
    toolLengths[i] = lengthOf(tool) ?? compactLength(tool);
    names[i] = tool.name;
    for (const key of ["inputSchema", "outputSchema"] as const) {
      const schema = isJsonObject(tool) ? tool[key] : undefined;
      let id = -1;
      if (isJsonObject(schema)) {
        id = ids.get(schema) ?? next;
        if (id === next) ids.set(schema, next++);
      }
      shapes[key][i] = id;
    }
  }
  return { toolLengths, shapes, names };
}

/**
 * Shape ids by JSON text, keeping no text: a shape is found by a hash of its text, and a hash
 * shared by another shape is told apart by that shape's text, made again from its schema (and
 * then kept). Keeping every text (on a surface whose schemas all differ, each schema's) made
 * the live heap half as big again while the index was built.
 */
export class ShapeIds {
  private readonly byHash = new Map<number, { id: number; schema: object; text?: string }[]>();
  private count = 0;
  /** `hash`: tests pass one under which every text collides. */
  constructor(private readonly hash: (text: string) => number = nativeOrFnv) {}
  /** The shape id of a schema whose compact JSON is `text`: the next free one for a new text. */
  id(text: string, schema: object): number {
    const hash = this.hash(text);
    const known = this.byHash.get(hash);
    if (known === undefined) {
      const id = this.count++;
      this.byHash.set(hash, [{ id, schema }]);
      return id;
    }
    for (const shape of known) {
      shape.text ??= JSON.stringify(shape.schema);
      if (shape.text === text) return shape.id;
    }
    const id = this.count++;
    known.push({ id, schema, text });
    return id;
  }
}

/**
 * Bun's native CRC-32 where it runs (the CLI): on 10,000 schemas that all differ, FNV-1a in
 * JavaScript took 50-150 ms of the index, the native hash a tenth of that. Only the ids' order
 * of first appearance matters, and a shared hash is told apart by the texts either way.
 */
const nativeOrFnv: (text: string) => number =
  typeof Bun !== "undefined" && typeof Bun.hash?.crc32 === "function" ? (text) => Bun.hash.crc32(text) : hashText;

/** FNV-1a over the UTF-16 code units. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * Gives every tool schema of the contract its shape id and measures every tool, once per
 * contract (`fresh`: again, as lintContract does at the start of each run, in case the caller
 * changed the contract since). No shape's text is kept (see ShapeIds).
 */
export function indexShapes(contract: Contract, fresh = false): SurfaceSizes {
  const known = fresh ? undefined : INDEXED.get(contract);
  if (known) return known;
  const declared = declaredShapes(contract);
  if (declared) {
    // A new index each time: what is cached by the index (surface-texts.ts) is found again.
    const sizes = { toolLengths: declared.toolLengths, shapes: declared.shapes };
    INDEXED.set(contract, sizes);
    return sizes;
  }
  const byText = new ShapeIds();
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
        shapes[key as keyof typeof shapes][index] = byText.id(text, value);
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
