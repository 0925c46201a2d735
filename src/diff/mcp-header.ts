/**
 * `x-mcp-header` on a tool's input properties (MCP 2026-07-28): the argument is mirrored into
 * an `Mcp-Param-{name}` HTTP header that load balancers, gateways and WAFs route on. The
 * schema engine sees the keyword as an annotation (patch); here the declarations of both
 * schemas are matched by header name, ignoring case as HTTP does, and judged for what
 * intermediaries and clients do with them: a header no longer sent or renamed breaks routing,
 * a new one is minor, and declarations that turn invalid make clients on Streamable HTTP drop
 * the tool. The engine's annotation finding for a declaration judged here is replaced by the
 * judgement, so one edit gives one change. Pure.
 */
import { jsonEqual } from "../contract/json-equal.ts";
import type { Json } from "../contract/model.ts";
import { pointerToDotted } from "../contract/pointer.ts";
import {
  headerName,
  MCP_HEADER_KEYWORD,
  type McpHeaderDeclaration,
  mcpHeaderDeclarations,
  validHeaders,
} from "../schema/mcp-header.ts";
import type { ChangeSpec } from "./change.ts";

const FIELD = "/inputSchema";

/**
 * The inputSchema's changes (`schemaSpecs`, from the schema engine) with the x-mcp-header
 * judgements of tool `name` added, and the annotation findings they explain taken out.
 */
export function withMcpHeaders(
  name: string,
  oldSchema: Json | undefined,
  newSchema: Json | undefined,
  schemaSpecs: ChangeSpec[],
): ChangeSpec[] {
  if (jsonEqual(oldSchema, newSchema)) return schemaSpecs;
  // Most schemas hold no declaration at all: a plain key search says so before the schema walk.
  if (!holdsKey(oldSchema, 0) && !holdsKey(newSchema, 0)) return schemaSpecs;
  const before = mcpHeaderDeclarations(oldSchema);
  const after = mcpHeaderDeclarations(newSchema);
  if (before.length === 0 && after.length === 0) return schemaSpecs;
  const judged = judge(name, before, after);
  if (judged.length === 0) return schemaSpecs;
  const explained = new Set(judged.map((spec) => spec.path));
  const kept = schemaSpecs.filter((spec) => !(spec.rule === "annotation-keyword-changed" && explained.has(spec.path)));
  return [...kept, ...judged];
}

/** Deeper than this, holdsKey answers yes and leaves the question to the schema walk. */
const MAX_SEARCH_DEPTH = 300;

/** Whether any object inside `value`, at any position, schema or data, has the x-mcp-header key. */
function holdsKey(value: Json | undefined, depth: number): boolean {
  if (value === null || typeof value !== "object") return false;
  if (depth > MAX_SEARCH_DEPTH) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (holdsKey(value[i], depth + 1)) return true;
    return false;
  }
  if (Object.hasOwn(value, MCP_HEADER_KEYWORD)) return true;
  for (const key in value) if (holdsKey(value[key], depth + 1)) return true;
  return false;
}

function judge(name: string, before: McpHeaderDeclaration[], after: McpHeaderDeclaration[]): ChangeSpec[] {
  const oldFault = before.find((d) => d.problem !== undefined);
  const newFault = after.find((d) => d.problem !== undefined);
  if (newFault && !oldFault) {
    return [
      {
        rule: "mcp-header-now-invalid",
        kind: "tool",
        name,
        path: FIELD + newFault.path,
        after: newFault.value,
        message: `x-mcp-header at ${location(newFault)} is invalid, so clients on Streamable HTTP now drop the tool: ${newFault.problem}`,
      },
    ];
  }
  if (oldFault && !newFault) {
    return [
      {
        rule: "mcp-header-no-longer-invalid",
        kind: "tool",
        name,
        path: FIELD + oldFault.path,
        before: oldFault.value,
        message: `x-mcp-header declarations are valid again, so clients on Streamable HTTP list the tool again (was invalid at ${location(oldFault)}: ${oldFault.problem})`,
      },
    ];
  }
  // Both invalid: those clients drop the tool before and after, and no header is sent.
  if (oldFault && newFault) return [];

  const oldHeaders = validHeaders(before);
  const newHeaders = validHeaders(after);
  const removed = [...oldHeaders].filter(([key]) => !newHeaders.has(key)).map(([, d]) => d);
  const added = [...newHeaders].filter(([key]) => !oldHeaders.has(key)).map(([, d]) => d);
  const specs: ChangeSpec[] = [];
  // A declaration whose property kept its place but whose name changed is one edit: a rename.
  const renamedFrom = new Map<McpHeaderDeclaration, McpHeaderDeclaration>();
  for (const d of added) {
    const old = removed.find((r) => !renamedFrom.has(r) && sameProperty(r, d));
    if (old) renamedFrom.set(old, d);
  }
  for (const old of removed) {
    const now = renamedFrom.get(old);
    if (now) {
      specs.push({
        rule: "mcp-header-changed",
        kind: "tool",
        name,
        path: FIELD + now.path,
        before: old.value,
        after: now.value,
        message: `argument mirrored into header ${headerName(now.value as string)} instead of ${headerName(old.value as string)} at ${location(now)}`,
      });
    } else {
      specs.push({
        rule: "mcp-header-removed",
        kind: "tool",
        name,
        path: FIELD + old.path,
        before: old.value,
        message: `header ${headerName(old.value as string)} no longer sent (x-mcp-header removed) at ${location(old)}`,
      });
    }
  }
  const renamedTo = new Set(renamedFrom.values());
  for (const d of added) {
    if (renamedTo.has(d)) continue;
    specs.push({
      rule: "mcp-header-added",
      kind: "tool",
      name,
      path: FIELD + d.path,
      after: d.value,
      message: `argument now mirrored into header ${headerName(d.value as string)} at ${location(d)}`,
    });
  }
  return specs;
}

function sameProperty(a: McpHeaderDeclaration, b: McpHeaderDeclaration): boolean {
  return a.property !== undefined && b.property !== undefined && jsonEqual(a.property, b.property);
}

/** "inputSchema.properties.region": the property that declares the header. */
function location(d: McpHeaderDeclaration): string {
  return pointerToDotted(FIELD + d.path.replace(/\/x-mcp-header$/, ""));
}
