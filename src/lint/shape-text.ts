/**
 * Shapes found while a lockfile is parsed (src/lint/shapes.ts), instead of serializing every
 * schema: the lockfile's schema spans (src/contract/schema-spans.ts) are its shapes, found as
 * each tool is parsed, while its text is still in the processor's caches (a second pass over a
 * big file's text afterwards cost more than the comparing itself). Each distinct span is
 * parsed, measured and walked by the boundary check once. Pure; no I/O.
 */
import type { Contract } from "../contract/model.ts";
import { SchemaSpans } from "../contract/schema-spans.ts";
import { type ReadSizes, shapesByIdentity } from "./shapes.ts";

/**
 * Reads the shapes of the tools of one lockfile as they are parsed: pass it to parseContract
 * as its reader, then ask `shapesOf` for the contract it returned.
 */
export class ShapeReader extends SchemaSpans {
  constructor() {
    super({ measure: true });
  }

  /**
   * The shapes of a contract whose tools were all read here (the contract parseContract
   * returned, unchanged), or undefined: a tool not read here, or schemas that rarely repeat
   * without the first tools having shown it. When they did, each schema object is its own
   * shape, measured without serializing it (shapes.ts shapesByIdentity).
   */
  shapesOf(contract: Contract): ReadSizes | undefined {
    const tools = contract.tools;
    if (tools.length === 0) return undefined;
    if (this.gaveUpEarly()) {
      return shapesByIdentity(contract, this.measuredTools(), (tool) => this.shapeOf(tool)?.length);
    }
    if (!this.repeats()) return undefined;
    const shapes = {
      inputSchema: new Int32Array(tools.length),
      outputSchema: new Int32Array(tools.length),
    };
    const toolLengths: number[] = new Array(tools.length);
    for (let i = 0; i < tools.length; i++) {
      const shape = this.shapeOf(tools[i] as object);
      if (shape === undefined) return undefined;
      shapes.inputSchema[i] = shape.input;
      shapes.outputSchema[i] = shape.output;
      toolLengths[i] = shape.length;
    }
    return { toolLengths, shapes };
  }
}
