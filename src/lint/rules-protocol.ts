/**
 * Protocol lint rules: what the MCP specification (2025-11-25) requires or recommends of a
 * surface, checked offline on the lockfile. Schemas are checked against their dialect's
 * meta-schema with ajv; `$ref`s are resolved inside the schema only (no network). Pure.
 *
 * Also exports the small helpers the quality rules share (schema walk, quoting).
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import type AjvCore from "ajv/dist/core";
import { type Contract, isJsonObject, type Json, type JsonObject, type Tool } from "../contract/model.ts";
import { pointer } from "../diff/change.ts";
import type { TargetKind } from "../diff/model.ts";
import { forEachSubschema } from "../schema/subschemas.ts";
import type { Finding, LintRule } from "./model.ts";
import { visible } from "./text-scan.ts";

export type Found = Omit<Finding, "rule" | "level">;

// ── shared helpers ─────────────────────────────────────────────────────────────────────

const INVISIBLE = /[\u0080-\u009f\u00a0\u00ad\u061c\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/;

/**
 * A string quoted for a message: quotes and backslashes escaped, line breaks as \n, invisible
 * and look-alike space characters spelled out as the security rules do ("<U+200B ZERO WIDTH
 * SPACE>"), long text cut.
 */
export function show(value: string, max = 80): string {
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  const escaped = cut.replace(/[\\"]/g, (c) => `\\${c}`);
  return `"${visible(escaped, (cp) => INVISIBLE.test(String.fromCodePoint(cp)))}"`;
}

/** What kind of JSON value this is, for messages: "a string", "an array", "null". */
export function describeJson(value: Json | undefined): string {
  if (value === undefined) return "absent";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}

export function found(kind: TargetKind, name: string, path: string, message: string, evidence?: Json): Found {
  return evidence === undefined
    ? { target: { kind, name }, path, message }
    : { target: { kind, name }, path, message, evidence };
}

export interface SchemaNode {
  schema: JsonObject;
  /** JSON Pointer of this subschema inside the item (e.g. "/inputSchema/properties/city"). */
  path: string;
}

/**
 * Every object subschema of `schema`, itself first, visiting only schema positions (so an
 * `enum`, `const`, `default` or `examples` value that looks like a schema is not visited).
 */
export function* walkSchema(schema: Json | undefined, path: string): Generator<SchemaNode> {
  if (!isJsonObject(schema)) return;
  yield { schema, path };
  const children: [Json, string[]][] = [];
  forEachSubschema(schema, (child, segments) => children.push([child, segments]));
  for (const [child, segments] of children) yield* walkSchema(child, pointer(path, ...segments));
}

export const SCHEMA_KEYS = ["inputSchema", "outputSchema"] as const;

/** Each tool's inputSchema and outputSchema that is present, with its pointer. */
export function* toolSchemas(contract: Contract): Generator<{ tool: Tool; key: string; schema: Json }> {
  for (const tool of contract.tools) {
    for (const key of SCHEMA_KEYS) {
      const schema = tool[key];
      if (schema !== undefined) yield { tool, key, schema };
    }
  }
}

/** Resolves a JSON Pointer (already URI-decoded) inside `root`; undefined when it does not. */
export function resolvePointer(root: Json, ptr: string): Json | undefined {
  if (ptr === "") return root;
  if (!ptr.startsWith("/")) return undefined;
  let node: Json | undefined = root;
  for (const raw of ptr.slice(1).split("/")) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
      node = node[Number(segment)];
    } else if (isJsonObject(node)) {
      node = Object.hasOwn(node, segment) ? node[segment] : undefined;
    } else {
      return undefined;
    }
    if (node === undefined) return undefined;
  }
  return node;
}

function stringOrEmpty(value: Json | undefined): string {
  return typeof value === "string" ? value : "";
}

// ── tool names ─────────────────────────────────────────────────────────────────────────

const NAME_CHAR = /[A-Za-z0-9_.-]/u;

function toolNameProblem(name: Json | undefined): string | undefined {
  if (typeof name !== "string") return `tool name is ${describeJson(name)}, not a string`;
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

// ── schemas: meta-schema validation ────────────────────────────────────────────────────

export type Dialect = "2020-12" | "2019-09" | "draft-07" | "draft-06";

/** The dialect a schema declares; `undefined` = a dialect this linter cannot check. */
export function schemaDialect(schema: JsonObject): Dialect | undefined {
  const declared = schema.$schema;
  if (declared === undefined || typeof declared !== "string") return "2020-12";
  const uri = declared.trim().replace(/#$/, "");
  if (/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema$/.test(uri)) return "2020-12";
  if (/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema$/.test(uri)) return "2019-09";
  if (/^https?:\/\/json-schema\.org\/draft-07\/schema$/.test(uri)) return "draft-07";
  if (/^https?:\/\/json-schema\.org\/draft-06\/schema$/.test(uri)) return "draft-06";
  return undefined;
}

const META_IDS: Record<Dialect, string> = {
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "draft-07": "http://json-schema.org/draft-07/schema",
  "draft-06": "http://json-schema.org/draft-06/schema",
};

const AJV_OPTIONS = { strict: false, allErrors: true, logger: false, validateFormats: true } as const;

/** Why `text` is not a regular expression JavaScript accepts (without the u flag, leniently). */
function regexProblem(text: string): string | undefined {
  try {
    new RegExp(text);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Patterns that do not compile. ajv does not assert formats (such as "regex") while
 * validating against a meta-schema, so `pattern` and `patternProperties` are checked here.
 */
function* patternProblems(schema: Json, base: string): Generator<{ path: string; pattern: string; problem: string }> {
  for (const node of walkSchema(schema, base)) {
    const { pattern, patternProperties } = node.schema;
    if (typeof pattern === "string") {
      const problem = regexProblem(pattern);
      if (problem) yield { path: pointer(node.path, "pattern"), pattern, problem };
    }
    if (isJsonObject(patternProperties)) {
      for (const key of Object.keys(patternProperties)) {
        const problem = regexProblem(key);
        if (problem) yield { path: pointer(node.path, "patternProperties", key), pattern: key, problem };
      }
    }
  }
}

const metaValidators = new Map<Dialect, ValidateFunction>();

/**
 * ajv is required here, on first use, not imported at the top: every command builds the lint
 * catalog (for `rules`, the policy file and the drift lens), and evaluating ajv would add
 * milliseconds to the start-up of all of them, while only `lint` validates schemas.
 */
function newAjv(dialect: Dialect): AjvCore {
  // Literal module names, so that the bundler finds and embeds them.
  type AjvModule = { default: new (options: typeof AJV_OPTIONS) => AjvCore };
  const Ajv =
    dialect === "2020-12"
      ? (require("ajv/dist/2020") as AjvModule).default
      : dialect === "2019-09"
        ? (require("ajv/dist/2019") as AjvModule).default
        : (require("ajv") as AjvModule).default;
  const ajv = new Ajv(AJV_OPTIONS);
  (require("ajv-formats") as { default: (ajv: AjvCore) => void }).default(ajv);
  if (dialect === "draft-06") ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json"));
  return ajv;
}

function metaValidator(dialect: Dialect): ValidateFunction {
  const cached = metaValidators.get(dialect);
  if (cached) return cached;
  const ajv = newAjv(dialect);
  const validate = ajv.getSchema(META_IDS[dialect]);
  if (!validate) throw new Error(`no meta-schema for ${dialect}`);
  metaValidators.set(dialect, validate);
  return validate;
}

const MAX_SCHEMA_FINDINGS = 20;

/** The ajv errors of one schema, one per instance path (the first, most specific, one). */
function metaErrors(schema: JsonObject, dialect: Dialect): ErrorObject[] {
  const validate = metaValidator(dialect);
  if (validate(schema)) return [];
  const byPath = new Map<string, ErrorObject>();
  for (const error of validate.errors ?? []) if (!byPath.has(error.instancePath)) byPath.set(error.instancePath, error);
  return [...byPath.values()].slice(0, MAX_SCHEMA_FINDINGS);
}

function ajvMessage(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
    return `${error.message}: ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  return error.message ?? error.keyword;
}

function checkSchemaValid(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const { tool, key, schema } of toolSchemas(contract)) {
    if (!isJsonObject(schema)) continue;
    const dialect = schemaDialect(schema);
    if (!dialect) continue;
    for (const error of metaErrors(schema, dialect)) {
      const value = resolvePointer(schema, error.instancePath);
      const small = value !== undefined && JSON.stringify(value).length <= 200 ? value : undefined;
      const at = error.instancePath === "" ? "" : ` at ${error.instancePath}`;
      out.push(
        found(
          "tool",
          tool.name,
          `/${key}${error.instancePath}`,
          `tool ${show(tool.name)}: ${key} is not valid JSON Schema ${dialect}${at}: ${ajvMessage(error)}`,
          small,
        ),
      );
    }
    for (const { path, pattern, problem } of patternProblems(schema, `/${key}`)) {
      out.push(
        found(
          "tool",
          tool.name,
          path,
          `tool ${show(tool.name)}: ${key} has pattern ${show(pattern)}, which is not a valid regular expression (${problem})`,
          pattern,
        ),
      );
    }
  }
  return out;
}

function checkDialectUnsupported(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const { tool, key, schema } of toolSchemas(contract)) {
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

function checkRequiredDeclared(contract: Contract): Found[] {
  const out: Found[] = [];
  for (const { tool, key, schema } of toolSchemas(contract)) {
    for (const node of walkSchema(schema, `/${key}`)) {
      const { required, properties, additionalProperties } = node.schema;
      if (!Array.isArray(required)) continue;
      const closed = additionalProperties === false;
      if (!closed && !isJsonObject(properties)) continue;
      const own = new Set(isJsonObject(properties) ? Object.keys(properties) : []);
      const declared = closed ? own : declaredNames(node.schema);
      if (declared === null) continue;
      required.forEach((name, index) => {
        if (typeof name !== "string" || declared.has(name) || matchesPattern(node.schema, name)) return;
        const why = closed
          ? "and additionalProperties is false, so no value can satisfy the schema"
          : "so it has no type or description";
        out.push(
          found(
            "tool",
            tool.name,
            pointer(node.path, "required", index),
            `tool ${show(tool.name)}: required property ${show(name)} is not declared in properties ${why}`,
            name,
          ),
        );
      });
    }
  }
  return out;
}

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
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    return `its fragment ${show(fragment)} is not valid percent-encoding`;
  }
  if (decoded === "") return undefined;
  if (decoded.startsWith("/")) {
    const target = resolvePointer(resource, decoded);
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

function checkRefs(contract: Contract, remote: boolean): Found[] {
  const out: Found[] = [];
  for (const { tool, key, schema } of toolSchemas(contract)) {
    if (!isJsonObject(schema)) continue;
    for (const node of walkSchema(schema, `/${key}`)) {
      for (const keyword of ["$ref", "$dynamicRef"]) {
        const ref = node.schema[keyword];
        if (typeof ref !== "string") continue;
        const problem = refProblem(schema, ref);
        if (!problem || problem.remote !== remote) continue;
        const message = remote
          ? `tool ${show(tool.name)}: ${keyword} ${show(ref)} is remote and cannot be checked offline`
          : `tool ${show(tool.name)}: ${keyword} ${show(ref)} does not resolve: ${problem.message}`;
        out.push(found("tool", tool.name, pointer(node.path, keyword), message, ref));
      }
    }
  }
  return out;
}

// ── resource templates: RFC 6570 ───────────────────────────────────────────────────────

const OPERATORS = "+#./;?&";
const RESERVED_OPERATORS = "=,!@|";
const VARCHAR = "(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})";
const VARNAME = new RegExp(`^${VARCHAR}(?:\\.?${VARCHAR})*$`);
const MAX_LENGTH = /^[1-9]\d{0,3}$/;

function varspecProblem(spec: string): string | undefined {
  if (spec === "") return "empty variable name";
  let name = spec;
  if (spec.endsWith("*")) {
    name = spec.slice(0, -1);
  } else {
    const colon = spec.indexOf(":");
    if (colon !== -1) {
      name = spec.slice(0, colon);
      const length = spec.slice(colon + 1);
      if (!MAX_LENGTH.test(length)) return `prefix modifier ${show(`:${length}`)} must be :1 to :9999`;
    }
  }
  if (name === "") return `modifier ${show(spec)} has no variable name`;
  if (!VARNAME.test(name)) {
    return `variable name ${show(name)} is invalid (letters, digits, _ and %XX, dots only between them)`;
  }
  return undefined;
}

function expressionProblem(body: string): string | undefined {
  if (body === "") return "empty expression";
  let list = body;
  const first = body.charAt(0);
  if (RESERVED_OPERATORS.includes(first)) return `operator ${show(first)} is reserved for future extensions`;
  if (OPERATORS.includes(first)) list = body.slice(1);
  for (const spec of list.split(",")) {
    const problem = varspecProblem(spec);
    if (problem) return problem;
  }
  return undefined;
}

/** Characters RFC 6570 does not allow as literals (besides braces and a stray %). */
function isBadLiteral(code: number): boolean {
  if (code <= 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) return true;
  return `"'<>\\^\`|`.includes(String.fromCodePoint(code));
}

/** The first way `template` is not a valid RFC 6570 (level 1–4) URI Template, if any. */
export function uriTemplateProblem(template: string): string | undefined {
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    const column = i + 1;
    if (c === "{") {
      const end = template.indexOf("}", i + 1);
      const open = template.indexOf("{", i + 1);
      if (end === -1) return `"{" at column ${column} is never closed`;
      if (open !== -1 && open < end) return `"{" at column ${open + 1} opens inside the expression at column ${column}`;
      const body = template.slice(i + 1, end);
      const problem = expressionProblem(body);
      if (problem) return `expression ${show(`{${body}}`)} at column ${column}: ${problem}`;
      i = end + 1;
      continue;
    }
    if (c === "}") return `"}" at column ${column} closes no expression`;
    if (c === "%") {
      if (!/^%[0-9A-Fa-f]{2}/.test(template.slice(i, i + 3))) return `"%" at column ${column} is not a %XX escape`;
      i += 3;
      continue;
    }
    const code = template.codePointAt(i)!;
    if (isBadLiteral(code))
      return `${show(String.fromCodePoint(code))} at column ${column} is not allowed in a URI template`;
    i += code > 0xffff ? 2 : 1;
  }
  return undefined;
}

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

// ── the rules ──────────────────────────────────────────────────────────────────────────

export const PROTOCOL_RULES: LintRule[] = [
  {
    id: "tool-name-invalid",
    group: "protocol",
    level: "error",
    summary: "a tool name is not 1–128 characters of A–Z a–z 0–9 _ - .",
    rationale:
      "The MCP specification says tool names SHOULD be 1–128 characters using only ASCII letters, digits, underscore, hyphen and dot. Clients and model providers enforce stricter patterns than the spec and reject or silently drop tools whose names contain spaces, slashes or other characters.",
    example: '"name": "get weather" (space)',
    check: checkToolNames,
  },
  {
    id: "tool-name-duplicate",
    group: "protocol",
    level: "error",
    summary: "two tools share a name",
    rationale:
      "Tool names are unique within a server: tools/call addresses a tool by name, so all but one of the duplicates can never be called, and which one wins depends on the client.",
    example: 'tools/list returns two tools named "search"',
    check: (contract) => duplicates(contract.tools, "name", "tool", "tool name", "tools/list"),
  },
  {
    id: "prompt-name-duplicate",
    group: "protocol",
    level: "error",
    summary: "two prompts share a name",
    rationale: "prompts/get addresses a prompt by name, so all but one of the duplicates are unreachable.",
    example: 'prompts/list returns two prompts named "summarize"',
    check: (contract) => duplicates(contract.prompts, "name", "prompt", "prompt name", "prompts/list"),
  },
  {
    id: "resource-uri-duplicate",
    group: "protocol",
    level: "error",
    summary: "two resources share a URI",
    rationale:
      "resources/read addresses a resource by URI; two entries with one URI cannot both be read, and their metadata disagree.",
    example: 'resources/list returns "file:///README.md" twice',
    check: (contract) => duplicates(contract.resources, "uri", "resource", "resource URI", "resources/list"),
  },
  {
    id: "resource-template-duplicate",
    group: "protocol",
    level: "error",
    summary: "two resource templates share a uriTemplate",
    rationale:
      "Two templates with the same uriTemplate match the same URIs; a client cannot tell which one describes a resource it reads.",
    example: 'resources/templates/list returns "repo://{owner}/{name}" twice',
    check: (contract) =>
      duplicates(
        contract.resourceTemplates,
        "uriTemplate",
        "resourceTemplate",
        "URI template",
        "resources/templates/list",
      ),
  },
  {
    id: "input-schema-missing",
    group: "protocol",
    level: "error",
    summary: "a tool has no inputSchema",
    rationale:
      'inputSchema is required on every tool (a tool without parameters uses {"type": "object"}); clients that validate tools/list reject the whole list.',
    example: '{"name": "ping"} without "inputSchema"',
    check: checkInputSchemaMissing,
  },
  {
    id: "input-schema-not-object",
    group: "protocol",
    level: "error",
    summary: 'a tool\'s inputSchema is not an object schema with type "object"',
    rationale:
      'Tool arguments are a JSON object, and the specification requires inputSchema to be a JSON Schema object with "type": "object". SDK clients validate exactly that and reject other shapes (a missing type, a type list, a boolean schema).',
    example: '"inputSchema": {"type": "string"}',
    check: (contract) => checkObjectSchema(contract, "inputSchema"),
  },
  {
    id: "output-schema-not-object",
    group: "protocol",
    level: "error",
    summary: 'a tool\'s outputSchema is not an object schema with type "object"',
    rationale:
      'structuredContent is a JSON object, so the specification requires an outputSchema, when present, to have "type": "object"; clients reject other shapes.',
    example: '"outputSchema": {"type": "array", "items": {"type": "string"}}',
    check: (contract) => checkObjectSchema(contract, "outputSchema"),
  },
  {
    id: "schema-invalid",
    group: "protocol",
    level: "error",
    summary: "an inputSchema or outputSchema is not valid against its dialect's meta-schema",
    rationale:
      "Schemas must be valid JSON Schema in their dialect: 2020-12 when $schema is absent (the MCP default), otherwise the declared one (2019-09, draft-07, draft-06). Validating clients fail to compile an invalid schema and then reject every call to the tool, or the whole list. Checked with ajv against the official meta-schemas; the path points at the offending keyword.",
    example: '"properties": {"city": {"type": "text"}}',
    check: checkSchemaValid,
  },
  {
    id: "schema-dialect-unsupported",
    group: "protocol",
    level: "info",
    summary: "a schema declares a $schema dialect the linter cannot check",
    rationale:
      "Only 2020-12, 2019-09, draft-07 and draft-06 schemas are checked against their meta-schema; draft-04 (whose keywords differ, e.g. boolean exclusiveMinimum) and custom meta-schemas are skipped, and this says so rather than passing silently. Clients may not support such dialects either.",
    example: '"$schema": "http://json-schema.org/draft-04/schema#"',
    check: checkDialectUnsupported,
  },
  {
    id: "required-not-declared",
    group: "protocol",
    level: "warning",
    summary: "a required property is not declared in properties",
    rationale:
      "JSON Schema allows `required` to name a property that `properties` does not describe: it only demands that the member be present. But when additionalProperties is false such a member is also forbidden, so no value satisfies the schema and the tool cannot be called (or cannot return); and when properties are listed, the missing one is almost always a typo or a rename left half-done, and the model is given no type or description for an argument it must send. A warning, not an error, because the schema is still valid. Properties declared in allOf/anyOf/oneOf/if/then/else branches or matched by patternProperties count as declared; schemas with a $ref branch are skipped.",
    example: '"properties": {"city": {...}}, "required": ["cty"]',
    check: checkRequiredDeclared,
  },
  {
    id: "ref-unresolvable",
    group: "protocol",
    level: "error",
    summary: "a $ref inside a schema does not resolve",
    rationale:
      "Tool schemas travel alone, inline in tools/list: a $ref must point inside the same schema (a JSON Pointer such as #/$defs/Point, an $anchor, or an embedded $id). A dangling reference makes validating clients fail to compile the schema, and leaves the model without the shape it refers to.",
    example: '"$ref": "#/$defs/Point" with no "$defs"',
    check: (contract) => checkRefs(contract, false),
  },
  {
    id: "ref-remote",
    group: "protocol",
    level: "warning",
    summary: "a $ref inside a schema points outside it",
    rationale:
      "A remote reference cannot be checked offline, and most clients do not fetch remote schemas: they fail to compile the schema or treat the reference as anything-goes. Inline the definition under $defs.",
    example: '"$ref": "https://example.com/schemas/point.json"',
    check: (contract) => checkRefs(contract, true),
  },
  {
    id: "template-uri-invalid",
    group: "protocol",
    level: "error",
    summary: "a resource template's uriTemplate is not a valid RFC 6570 URI Template",
    rationale:
      "uriTemplate is an RFC 6570 URI Template. Unbalanced braces, unknown or reserved operators (= , ! @ |), invalid variable names, bad :N prefixes (1–9999) and characters not allowed in literals make clients fail to expand or match it, so the resources behind it cannot be read.",
    example: '"uriTemplate": "file:///{path"',
    check: checkTemplates,
  },
  {
    id: "prompt-argument-duplicate",
    group: "protocol",
    level: "error",
    summary: "a prompt declares two arguments with one name",
    rationale:
      "prompts/get passes arguments as a name→value map, so two arguments with one name cannot both be given; their descriptions and required flags conflict.",
    example: '"arguments": [{"name": "city"}, {"name": "city"}]',
    check: checkPromptArguments,
  },
  {
    id: "annotation-hint-not-boolean",
    group: "protocol",
    level: "warning",
    summary: "a tool annotation hint is not a boolean",
    rationale:
      'readOnlyHint, destructiveHint, idempotentHint and openWorldHint are booleans. A string such as "false" is truthy in many clients, so a tool can be shown as read-only or safe when it is not; strict clients reject the tool.',
    example: '"annotations": {"readOnlyHint": "true"}',
    check: checkHints,
  },
];
