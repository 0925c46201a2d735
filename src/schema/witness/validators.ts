/**
 * Validators for whole root schemas: the final word on every witness candidate (server
 * patterns run on the bounded matcher, so a validator never hangs). A draft-07 schema whose
 * keywords the interpreting validator reads as ajv does is checked by it (interpreted.ts: no
 * compile); every other schema is compiled by ajv.
 * Validators are cached per root object until releaseValidators(); ajv and its instances are
 * loaded on first use, one instance shared per dialect (a private one for schemas with
 * embedded ids).
 */
import type AjvClass from "ajv";
import { isJsonObject, type Json, type JsonObject } from "../../contract/model.ts";
import { numericBounds } from "../normalize.ts";
import { compileRegex, RegexUndecidable } from "../regex.ts";
import { forEachSubschema } from "../subschemas.ts";
import { interpretable, interpretedCheck } from "./interpreted.ts";

/** Whether a value is valid: true, false, or undefined when a pattern could not be decided within its budget. */
export type Check = (value: Json) => boolean | undefined;
type Dialect = "2020" | "2019" | "07";
interface Compiler {
  compile(schema: object): (data: unknown) => boolean | Promise<unknown>;
  removeSchema(schema: object): unknown;
}

/**
 * `pattern` and `patternProperties` are server text: ajv runs them on the bounded matcher
 * (../regex.ts), never on the host's backtracking engine. An invalid pattern fails the
 * compile, as it would with RegExp; a test that runs out of budget throws RegexUndecidable
 * out of the validator, and the check answers undefined.
 */
const boundedRegExp = Object.assign(
  (pattern: string, flags: string) => {
    if (flags !== "u") throw new SyntaxError(`unsupported regular expression flags "${flags}"`);
    const re = compileRegex(pattern);
    if (!re) throw new SyntaxError(`invalid regular expression /${pattern}/`);
    return re;
  },
  { code: "boundedRegExp" },
);

// code.optimize off: compiling is what costs here (each root schema is validated a few hundred
// times at most), and skipping ajv's code optimization passes roughly halves compile time.
const AJV_OPTIONS = {
  strict: false,
  allErrors: false,
  validateFormats: true,
  logger: false,
  unicodeRegExp: true,
  code: { optimize: false, regExp: boundedRegExp },
} as const;
let validators = new WeakMap<object, Check | null>();

/**
 * Drop the compiled validators. A caller that witnesses many schemas one after another (a
 * large diff) calls this between schemas: compiled code is the bulk of the memory here.
 */
export function releaseValidators(): void {
  validators = new WeakMap();
}
const shared: Partial<Record<Dialect, Compiler>> = {};

/** Loaded on first use: evaluating ajv and its formats costs milliseconds that most runs never need. */
function newCompiler(dialect: Dialect): Compiler {
  type AjvModule = { default: typeof AjvClass };
  const Class =
    dialect === "2020"
      ? (require("ajv/dist/2020") as AjvModule).default
      : dialect === "2019"
        ? (require("ajv/dist/2019") as AjvModule).default
        : (require("ajv") as AjvModule).default;
  const addFormats = (require("ajv-formats") as { default: (ajv: AjvClass) => unknown }).default;
  const ajv = new Class(AJV_OPTIONS);
  addFormats(ajv);
  return ajv as unknown as Compiler;
}

interface SchemaTraits {
  draft07Forms: boolean;
  ids: boolean;
  /** draft-04 boolean exclusiveMinimum/exclusiveMaximum somewhere. */
  booleanBounds: boolean;
}

function traitsOf(root: Json): SchemaTraits {
  const traits: SchemaTraits = { draft07Forms: false, ids: false, booleanBounds: false };
  const seen = new Set<object>();
  let count = 0;
  const visit = (node: Json, depth: number): void => {
    if (!isJsonObject(node) || seen.has(node) || depth > 200 || ++count > 100_000) return;
    seen.add(node);
    if (Array.isArray(node.items) || node.definitions !== undefined || node.additionalItems !== undefined) {
      traits.draft07Forms = true;
    }
    if (depth > 0 && (typeof node.$id === "string" || typeof node.$anchor === "string")) traits.ids = true;
    if (typeof node.$dynamicAnchor === "string" || typeof node.$recursiveAnchor === "boolean") traits.ids = true;
    if (typeof node.exclusiveMinimum === "boolean" || typeof node.exclusiveMaximum === "boolean") {
      traits.booleanBounds = true;
    }
    forEachSubschema(node, (child) => visit(child, depth + 1));
  };
  visit(root, 0);
  return traits;
}

function dialectOf(root: JsonObject, traits: SchemaTraits): Dialect {
  const declared = typeof root.$schema === "string" ? root.$schema : "";
  if (declared.includes("2020-12")) return "2020";
  if (declared.includes("2019-09")) return "2019";
  if (/draft-0[3-7]/.test(declared)) return "07";
  return traits.draft07Forms ? "07" : "2020";
}

/**
 * draft-04 wrote an exclusive bound as a boolean beside minimum/maximum; later drafts (and
 * ajv) take the bound itself. The rewrite is exact: {minimum: 5, exclusiveMinimum: true}
 * means {exclusiveMinimum: 5}.
 */
function upgradeBooleanBounds(node: Json, depth = 0): Json {
  if (!isJsonObject(node) || depth > 200) return node;
  const out: JsonObject = { ...numericBounds(node) };
  forEachSubschema(node, (child, segments) => {
    const [key, name] = segments as [string, string | undefined];
    const holder = out[key];
    if (name === undefined) out[key] = upgradeBooleanBounds(child, depth + 1);
    else if (Array.isArray(holder)) {
      const copy = [...holder];
      copy[Number(name)] = upgradeBooleanBounds(child, depth + 1);
      out[key] = copy;
    } else if (isJsonObject(holder)) out[key] = { ...holder, [name]: upgradeBooleanBounds(child, depth + 1) };
  });
  return out;
}

/** A cached validator for a root schema; undefined when the schema does not compile. */
export function validatorFor(root: Json): Check | undefined {
  if (root === true) return () => true;
  if (root === false) return () => false;
  if (!isJsonObject(root)) return undefined;
  const cached = validators.get(root);
  if (cached !== undefined) return cached ?? undefined;
  const check = buildValidator(root, "auto");
  validators.set(root, check);
  return check ?? undefined;
}

/**
 * A validator for a root schema, not cached; null when the schema does not compile. `ajv`
 * forces the compiled one (the tests compare the two engines with it).
 */
export function buildValidator(root: JsonObject, engine: "auto" | "ajv"): Check | null {
  let check: Check | null = null;
  const traits = traitsOf(root);
  const dialect = dialectOf(root, traits);
  // $schema is dropped: the class already fixes the dialect, and unknown meta-schema URIs
  // (draft-04, vendor URLs) would otherwise fail to compile.
  const copy: JsonObject = traits.booleanBounds ? (upgradeBooleanBounds(root) as JsonObject) : { ...root };
  delete copy.$schema;
  if (engine === "auto" && dialect !== "2019" && !traits.ids && interpretable(copy, dialect)) {
    let compiled: Check | null | undefined;
    return interpretedCheck(copy, dialect, () => {
      if (compiled === undefined) compiled = buildValidator(root, "ajv");
      return compiled ?? undefined;
    });
  }
  // Schemas with embedded ids would collide with each other in a shared instance.
  let compiler = traits.ids ? undefined : shared[dialect];
  if (!compiler) {
    compiler = newCompiler(dialect);
    if (!traits.ids) shared[dialect] = compiler;
  }
  try {
    const fn = compiler.compile(copy);
    check = (value) => {
      try {
        return fn(value) === true;
      } catch (error) {
        if (error instanceof RegexUndecidable) return undefined;
        throw error;
      }
    };
  } catch {
    check = null;
  } finally {
    try {
      compiler.removeSchema(copy);
    } catch {
      // nothing to clean up
    }
  }
  return check;
}
