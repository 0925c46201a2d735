import { type Contract, isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { pointer } from "../contract/pointer.ts";
import type { TargetKind } from "../contract/surface.ts";
import type { LintRuleId } from "../rules/registry.ts";
import { followSegments, readFragment, resolvePointer } from "../schema/ref.ts";
import {
  describeJson,
  type Found,
  found,
  SCHEMA_KEYS,
  type SchemaFound,
  type SchemaNode,
  show,
  stringOrEmpty,
  walkSchema,
} from "./found.ts";
import type { LintCheck } from "./model.ts";
import { mcpHeaders, outputSchemaTools } from "./rules-2026.ts";
import { ajvMessage, metaErrors, patternProblemsAt, schemaDialect } from "./schema-meta.ts";
import type { SchemaVisitor } from "./schema-pass.ts";
import { uriTemplateProblem } from "./uri-template-syntax.ts";

// ── tool names ─────────────────────────────────────────────────────────────────────────

const NAME_CHAR = /[A-Za-z0-9_.-]/u;
/** A name with nothing to say about it (ASCII, so its characters are its code units). */
const GOOD_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function toolNameProblem(name: Json | undefined): string | undefined {
  if (typeof name !== "string") return `tool name is ${describeJson(name)}, not a string`;
  if (GOOD_NAME.test(name)) return undefined;
  const length = [...name].length;
  if (length === 0) return "tool name is empty (must be 1–128 characters)";
  if (length > 128) return `tool name ${show(name, 40)} is ${length} characters long (must be 1–128)`;
  const bad = [...name].filter((c) => !NAME_CHAR.test(c));
  if (bad.length > 0) {
    // An invisible character is spelled out with its code point already; a visible one gets it added.
    const distinct = [...new Set(bad)].map((c) => {
      const quoted = show(c);
      return quoted.includes("<U+")
        ? quoted
        : `${quoted} (U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`;
    });
    return `tool name ${show(name)} contains ${distinct.join(", ")}; only A–Z a–z 0–9 _ - . are allowed`;
  }
  return undefined;
}

function checkToolNames(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const tool of contract.tools) {
    const problem = toolNameProblem(tool.name);
    if (problem) out.push(found("tool", stringOrEmpty(tool.name), "/name", problem, tool.name ?? null));
  }
  return out;
}

/** One finding per identity that appears more than once in a list. */
function duplicates(
  items: readonly JsonObject[],
  field: string,
  kind: TargetKind,
  noun: string,
  method: string,
): Found[] {
  const counts = new Map<string, number>();
  for (const item of items) {
    const id = item[field];
    if (typeof id === "string") counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const out: Found[] = [];
  for (const [id, count] of counts) {
    if (count > 1)
      out.push(found(kind, id, `/${field}`, `${noun} ${show(id)} appears ${count} times in ${method}`, id));
  }
  return out;
}

// ── schemas: presence and shape ────────────────────────────────────────────────────────

function checkInputSchemaMissing(contract: Contract): Found[] {
  return contract.tools
    .filter((tool) => tool.inputSchema === undefined)
    .map((tool) => found("tool", tool.name, "/inputSchema", `tool ${show(tool.name)} has no inputSchema`));
}

/** Why `schema` is not an object schema (type "object"), or undefined when it is. */
function objectSchemaProblem(label: string, schema: Json): { path: string; message: string } | undefined {
  if (!isJsonObject(schema))
    return { path: "", message: `${label} is ${describeJson(schema)}, not a JSON Schema object` };
  if (!Object.hasOwn(schema, "type")) return { path: "", message: `${label} has no "type" (must be "object")` };
  if (schema.type !== "object") {
    return { path: "/type", message: `${label} has type ${JSON.stringify(schema.type)} (must be "object")` };
  }
  return undefined;
}

function checkObjectSchema(contract: Contract, key: "inputSchema" | "outputSchema"): Found[] {
  const out: Found[] = [];
  for (const tool of contract.tools) {
    const schema = tool[key];
    if (schema === undefined) continue;
    const problem = objectSchemaProblem(key, schema);
    if (problem) {
      const evidence = isJsonObject(schema) ? (schema.type ?? null) : schema;
      out.push(
        found("tool", tool.name, `/${key}${problem.path}`, `tool ${show(tool.name)}: ${problem.message}`, evidence),
      );
    }
  }
  return out;
}

// ── schemas: meta-schema validation (the ajv part is in schema-meta.ts) ────────────────

/** ajv's errors first (once per schema, in finish), then each pattern that does not compile, node by node. */
const schemaValid: SchemaVisitor = {
  keys: SCHEMA_KEYS,
  on: ["pattern", "patternProperties"],
  visit(node, root, key, out) {
    // Most nodes with a pattern have no problem: an index loop over the one empty list then.
    const problems = patternProblemsAt(node);
    if (problems.length === 0 || !schemaDialect(root)) return;
    for (let i = 0; i < problems.length; i++) {
      const { path, pattern, problem } = problems[i]!;
      out.push({
        path,
        message: `${key} has pattern ${show(pattern)}, which is not a valid regular expression (${problem})`,
        evidence: pattern,
      });
    }
  },
  finish(root, key, patterns) {
    const dialect = schemaDialect(root);
    if (!dialect) return patterns;
    const errors = metaErrors(root, dialect);
    // Most schemas are proven valid: their patterns' findings are all (the pass copies them).
    if (errors.length === 0) return patterns;
    const out: SchemaFound[] = [];
    for (const error of errors) {
      const value = resolvePointer(root, error.instancePath);
      const small = value !== undefined && JSON.stringify(value).length <= 200 ? value : undefined;
      const at = error.instancePath === "" ? "" : ` at ${error.instancePath}`;
      out.push({
        path: `/${key}${error.instancePath}`,
        message: `${key} is not valid JSON Schema ${dialect}${at}: ${ajvMessage(error)}`,
        evidence: small,
      });
    }
    out.push(...patterns);
    return out;
  },
};

function checkDialectUnsupported(contract: Contract): Found[] {
  const out: Found[] = [];
  // Tool by tool, key by key, without a list of 20,000 pairs on big surfaces.
  for (const tool of contract.tools) {
    for (const key of SCHEMA_KEYS) {
      const schema = tool[key];
      if (!isJsonObject(schema) || schemaDialect(schema)) continue;
      const declared = String(schema.$schema);
      out.push(
        found(
          "tool",
          tool.name,
          `/${key}/$schema`,
          `tool ${show(tool.name)}: ${key} declares $schema ${show(declared)}, a dialect that cannot be checked (2020-12, 2019-09, draft-07 and draft-06 can)`,
          declared,
        ),
      );
    }
  }
  return out;
}

// ── schemas: required without properties ───────────────────────────────────────────────

const COMPOSITION = ["allOf", "anyOf", "oneOf"];

/** Property names declared by the schema or its direct composition branches; null = unknowable ($ref). */
function declaredNames(schema: JsonObject): Set<string> | null {
  const names = new Set<string>();
  const branches: Json[] = [schema];
  for (const key of COMPOSITION) {
    const list = schema[key];
    if (Array.isArray(list)) branches.push(...list);
  }
  for (const key of ["then", "else", "if"]) if (schema[key] !== undefined) branches.push(schema[key]);
  for (const branch of branches) {
    if (!isJsonObject(branch)) continue;
    if (branch.$ref !== undefined || branch.$dynamicRef !== undefined || branch.$recursiveRef !== undefined)
      return null;
    if (isJsonObject(branch.properties)) for (const name of Object.keys(branch.properties)) names.add(name);
  }
  return names;
}

function matchesPattern(schema: JsonObject, name: string): boolean {
  if (!isJsonObject(schema.patternProperties)) return false;
  return Object.keys(schema.patternProperties).some((pattern) => {
    try {
      return new RegExp(pattern, "u").test(name);
    } catch {
      return true; // an unreadable pattern might match: do not guess
    }
  });
}

/**
 * Whether each required name that is a string is a property of the node itself: then it is
 * declared however the rule looks, and no name sets are built (most nodes with `required`).
 */
function allOwn(required: Json[], properties: Json | undefined): boolean {
  if (!isJsonObject(properties)) return false;
  for (let i = 0; i < required.length; i++) {
    const name = required[i];
    if (typeof name === "string" && !Object.hasOwn(properties, name)) return false;
  }
  return true;
}

const requiredDeclared: SchemaVisitor = {
  keys: SCHEMA_KEYS,
  on: ["required"],
  visit(node, _root, _key, out) {
    // Read one by one, each only when needed: most nodes with `required` stop at allOwn.
    const schema = node.schema;
    const required = schema.required;
    if (!Array.isArray(required)) return;
    const properties = schema.properties;
    if (allOwn(required, properties)) return;
    const closed = schema.additionalProperties === false;
    if (!closed && !isJsonObject(properties)) return;
    const own = new Set(isJsonObject(properties) ? Object.keys(properties) : []);
    const declared = closed ? own : declaredNames(node.schema);
    if (declared === null) return;
    required.forEach((name, index) => {
      if (typeof name !== "string" || declared.has(name) || matchesPattern(node.schema, name)) return;
      const why = closed
        ? "and additionalProperties is false, so no value can satisfy the schema"
        : "so it has no type or description";
      out.push({
        path: pointer(node.path, "required", index),
        message: `required property ${show(name)} is not declared in properties ${why}`,
        evidence: name,
      });
    });
  },
};

// ── schemas: $ref resolution ───────────────────────────────────────────────────────────

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

interface RefProblem {
  remote: boolean;
  message: string;
}

function stripFragment(uri: string): string {
  const hash = uri.indexOf("#");
  return hash === -1 ? uri : uri.slice(0, hash);
}

function tryUrl(ref: string, base?: string): string | undefined {
  try {
    return stripFragment(new URL(ref, base).href);
  } catch {
    return undefined;
  }
}

/** Resolves a fragment ("" | "/pointer" | "anchor") inside one schema resource. */
function resolveFragment(resource: JsonObject, fragment: string): string | undefined {
  // Read once per fragment text (ref.ts): most schemas repeat a few references.
  const { decoded, segments } = readFragment(fragment);
  if (decoded === undefined) return `its fragment ${show(fragment)} is not valid percent-encoding`;
  if (decoded === "") return undefined;
  if (segments !== undefined) {
    const target = followSegments(resource, segments);
    if (target === undefined) return "nothing is at that JSON Pointer";
    if (typeof target !== "boolean" && !isJsonObject(target))
      return `it points at ${describeJson(target)}, not a schema`;
    return undefined;
  }
  for (const node of walkSchema(resource, "")) {
    const s = node.schema;
    if (s.$anchor === decoded || s.$dynamicAnchor === decoded || s.$id === `#${decoded}`) return undefined;
  }
  return `no $anchor ${show(decoded)} is defined`;
}

function refProblem(root: JsonObject, ref: string): RefProblem | undefined {
  const hash = ref.indexOf("#");
  const base = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? "" : ref.slice(hash + 1);
  if (base === "") {
    const problem = resolveFragment(root, fragment);
    return problem ? { remote: false, message: problem } : undefined;
  }
  // A reference to an embedded schema resource ($id), resolved against the root's $id if any.
  const rootId = typeof root.$id === "string" && SCHEME.test(root.$id) ? stripFragment(root.$id) : undefined;
  const target = tryUrl(base, rootId) ?? base;
  for (const node of walkSchema(root, "")) {
    const id = node.schema.$id;
    if (typeof id !== "string" || stripFragment(id) === "") continue;
    const resolved = tryUrl(id, rootId) ?? stripFragment(id);
    if (resolved === target || stripFragment(id) === base) {
      const problem = resolveFragment(node.schema, fragment);
      return problem ? { remote: false, message: problem } : undefined;
    }
  }
  if (SCHEME.test(base) || rootId) return { remote: true, message: "it points outside the schema" };
  return { remote: false, message: "it is a relative reference and the schema has no base URI ($id)" };
}

/**
 * The problems of a node's references, asked by ref-unresolvable and then ref-remote at the same
 * node of the one schema pass: the second gets the first's answer. Kept by the node's visit
 * number (the pass fills one node object again for the next node), which no other visit has,
 * so an answer never outlives its node.
 */
let lastVisit = -1;
/** The answers for the node of `lastVisit`, by REF_KEYWORDS index: one list, written over for the next node. */
const lastProblems: (RefProblem | undefined)[] = [undefined, undefined];

const REF_KEYWORDS = ["$ref", "$dynamicRef"] as const;

/** The problems of the node's references (its `$ref` and `$dynamicRef`), by REF_KEYWORDS index: read them before the next node's visit. */
function refProblems(
  node: SchemaNode,
  root: JsonObject,
  $ref: Json | undefined,
  $dynamicRef: Json | undefined,
): readonly (RefProblem | undefined)[] {
  if (lastVisit !== node.visit) {
    // Both keywords written out, and no object or list made per node that holds a reference.
    lastProblems[0] = typeof $ref === "string" ? refProblem(root, $ref) : undefined;
    lastProblems[1] = typeof $dynamicRef === "string" ? refProblem(root, $dynamicRef) : undefined;
    lastVisit = node.visit;
  }
  return lastProblems;
}

function refsVisitor(remote: boolean): SchemaVisitor {
  /** The finding of one reference of the node, if its problem is this rule's. */
  const report = (
    node: SchemaNode,
    keyword: string,
    ref: string,
    problem: RefProblem | undefined,
    out: SchemaFound[],
  ) => {
    if (!problem || problem.remote !== remote) return;
    const message = remote
      ? `${keyword} ${show(ref)} is remote and cannot be checked offline`
      : `${keyword} ${show(ref)} does not resolve: ${problem.message}`;
    out.push({ path: pointer(node.path, keyword), message, evidence: ref });
  };
  return {
    keys: SCHEMA_KEYS,
    on: REF_KEYWORDS,
    visit(node, root, _key, out) {
      const { $ref, $dynamicRef } = node.schema;
      // Most nodes hold neither.
      if (typeof $ref !== "string" && typeof $dynamicRef !== "string") return;
      const problems = refProblems(node, root, $ref, $dynamicRef);
      // Each keyword by name, in REF_KEYWORDS order: looked up from the list, a read per keyword and node.
      if (typeof $ref === "string") report(node, "$ref", $ref, problems[0], out);
      if (typeof $dynamicRef === "string") report(node, "$dynamicRef", $dynamicRef, problems[1], out);
    },
  };
}

// ── resource templates: RFC 6570 (the syntax is in uri-template-syntax.ts) ──────────────

function checkTemplates(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const template of contract.resourceTemplates) {
    const uri = template.uriTemplate;
    if (typeof uri !== "string") {
      out.push(found("resourceTemplate", "", "/uriTemplate", `uriTemplate is ${describeJson(uri)}, not a string`));
      continue;
    }
    const problem = uriTemplateProblem(uri);
    if (problem) out.push(found("resourceTemplate", uri, "/uriTemplate", `URI template ${show(uri)}: ${problem}`, uri));
  }
  return out;
}

// ── prompts and annotations ────────────────────────────────────────────────────────────

function checkPromptArguments(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const prompt of contract.prompts) {
    const args = prompt.arguments;
    if (!Array.isArray(args)) continue;
    const seen = new Map<string, number>();
    args.forEach((arg, index) => {
      if (!isJsonObject(arg) || typeof arg.name !== "string") return;
      const first = seen.get(arg.name);
      if (first === undefined) {
        seen.set(arg.name, index);
        return;
      }
      out.push(
        found(
          "prompt",
          prompt.name,
          `/arguments/${index}/name`,
          `prompt ${show(prompt.name)}: argument ${show(arg.name)} is declared twice (arguments ${first} and ${index})`,
          arg.name,
        ),
      );
    });
  }
  return out;
}

export const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

function checkHints(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const tool of contract.tools) {
    const annotations = tool.annotations;
    if (annotations === undefined) continue;
    if (!isJsonObject(annotations)) {
      out.push(
        found(
          "tool",
          tool.name,
          "/annotations",
          `tool ${show(tool.name)}: annotations is ${describeJson(annotations)}, not an object`,
          annotations,
        ),
      );
      continue;
    }
    for (const hint of HINTS) {
      const value = annotations[hint];
      if (value === undefined || typeof value === "boolean") continue;
      out.push(
        found(
          "tool",
          tool.name,
          `/annotations/${hint}`,
          `tool ${show(tool.name)}: ${hint} is ${describeJson(value)} (${JSON.stringify(value)}), not a boolean`,
          value,
        ),
      );
    }
  }
  return out;
}

// ── each rule's check, by its id in src/rules/lint/ ───────────────────────────────────

export const PROTOCOL_CHECKS = {
  "tool-name-invalid": checkToolNames,
  "tool-name-duplicate": (contract) => duplicates(contract.tools, "name", "tool", "tool name", "tools/list"),
  "prompt-name-duplicate": (contract) => duplicates(contract.prompts, "name", "prompt", "prompt name", "prompts/list"),
  "resource-uri-duplicate": (contract) =>
    duplicates(contract.resources, "uri", "resource", "resource URI", "resources/list"),
  "resource-template-duplicate": (contract) =>
    duplicates(
      contract.resourceTemplates,
      "uriTemplate",
      "resourceTemplate",
      "URI template",
      "resources/templates/list",
    ),
  "input-schema-missing": checkInputSchemaMissing,
  "input-schema-not-object": (contract) => checkObjectSchema(contract, "inputSchema"),
  "output-schema-not-object": (contract) => checkObjectSchema(outputSchemaTools(contract), "outputSchema"),
  "schema-dialect-unsupported": checkDialectUnsupported,
  "template-uri-invalid": checkTemplates,
  "prompt-argument-duplicate": checkPromptArguments,
  "annotation-hint-not-boolean": checkHints,
} satisfies Partial<Record<LintRuleId, LintCheck>>;

/** The schema rules that read every node, walked once for all of them (schema-pass.ts). */
export const PROTOCOL_SCHEMA_VISITORS = {
  "schema-invalid": schemaValid,
  "required-not-declared": requiredDeclared,
  "ref-unresolvable": refsVisitor(false),
  "ref-remote": refsVisitor(true),
  "mcp-header-invalid": mcpHeaders,
} satisfies Partial<Record<LintRuleId, SchemaVisitor>>;
