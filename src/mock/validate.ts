/**
 * Validating call arguments and results against a contract's schemas, in each schema's
 * dialect, with the first failure named by instance path and keyword (as a real server's
 * validation error would). Validators are compiled once per schema object.
 */
import Ajv from "ajv";
import Ajv2019 from "ajv/dist/2019";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { isJsonObject, type Json } from "../contract/model.ts";
import { type BoundedRegExp, compileRegex, RegexUndecidable } from "../schema/regex.ts";

export interface SchemaProblem {
  /** JSON Pointer into the instance ("" for the root). */
  path: string;
  keyword: string;
  message: string;
}

/** A compiled check: undefined when the value is valid. */
export type Validate = (value: unknown) => SchemaProblem | undefined;

type Dialect = "2020" | "2019" | "07";
interface Compiler {
  compile(schema: object): ((data: unknown) => boolean) & { errors?: AjvError[] | null };
}
interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * `pattern` is the contract's text, and arguments are the client's: ajv runs patterns on the
 * bounded matcher (../schema/regex.ts), never on the host's backtracking engine, so that no
 * call can hang the mock. A test that runs out of budget counts as a match.
 *
 * ajv keeps one compiled pattern per `toString()` of what this returns (its scope is keyed
 * by that text, per ajv instance, and the instances are shared across schemas), so the text
 * must be the pattern's own: an object without one prints "[object Object]", and every
 * pattern after the first was checked with the first one's expression.
 */
function boundedRegExp(pattern: string, flags: string): { test(text: string): boolean; toString(): string } {
  const re = flags === "u" ? compileRegex(pattern) : undefined;
  if (!re) throw new SyntaxError(`invalid regular expression /${pattern}/`);
  return { test: (text: string) => accepts(re, text), toString: () => `/${pattern}/${flags}` };
}
/** How ajv's generated code refers to the function (it reaches it through its scope). */
boundedRegExp.code = "boundedRegExp";

function accepts(re: BoundedRegExp, text: string): boolean {
  try {
    return re.test(text);
  } catch (error) {
    if (error instanceof RegexUndecidable) return true;
    throw error;
  }
}

/** Whether `text` matches `pattern` as the validator decides it (false for an invalid pattern). */
export function patternAccepts(pattern: string, text: string): boolean {
  const re = compileRegex(pattern);
  return re !== undefined && accepts(re, text);
}

const OPTIONS = {
  strict: false,
  allErrors: false,
  validateFormats: true,
  logger: false,
  unicodeRegExp: true,
  code: { regExp: boundedRegExp },
} as const;
const compilers: Partial<Record<Dialect, Compiler>> = {};
const cache = new WeakMap<object, Validate>();

/** The dialect a schema declares; MCP's default (no $schema) is 2020-12. */
export function dialectOf(schema: Json): Dialect {
  const uri = isJsonObject(schema) && typeof schema.$schema === "string" ? schema.$schema : "";
  if (/draft-0[4-7]/.test(uri)) return "07";
  if (/2019-09/.test(uri)) return "2019";
  return "2020";
}

function compilerFor(dialect: Dialect, fresh: boolean): Compiler {
  const existing = fresh ? undefined : compilers[dialect];
  if (existing) return existing;
  const ajv = dialect === "2020" ? new Ajv2020(OPTIONS) : dialect === "2019" ? new Ajv2019(OPTIONS) : new Ajv(OPTIONS);
  addFormats(ajv);
  const compiler = ajv as unknown as Compiler;
  if (!fresh) compilers[dialect] = compiler;
  return compiler;
}

/** Whether a schema holds an embedded `$id` (which would collide in a shared instance). */
function hasIds(schema: Json, depth = 0): boolean {
  if (depth > 64) return false;
  if (Array.isArray(schema)) return schema.some((s) => hasIds(s, depth + 1));
  if (!isJsonObject(schema)) return false;
  if (typeof schema.$id === "string" || typeof schema.id === "string") return true;
  return Object.values(schema).some((s) => hasIds(s, depth + 1));
}

/**
 * The validator of a schema; one that accepts everything when the schema does not compile.
 * Boolean schemas and non-objects are handled as JSON Schema says (true/anything: valid).
 */
export function validatorOf(schema: Json): Validate {
  if (schema === false) return () => ({ path: "", keyword: "false", message: "no value is allowed" });
  if (!isJsonObject(schema)) return () => undefined;
  const cached = cache.get(schema);
  if (cached) return cached;
  const copy = { ...schema };
  const dialect = dialectOf(schema);
  delete copy.$schema;
  let fn: ReturnType<Compiler["compile"]>;
  try {
    fn = compilerFor(dialect, hasIds(schema)).compile(copy);
  } catch {
    // A schema ajv cannot compile (an unresolvable $ref, an invalid pattern): nothing is checked.
    const accept: Validate = () => undefined;
    cache.set(schema, accept);
    return accept;
  }
  const validate: Validate = (value) => {
    if (fn(value)) return undefined;
    const error = fn.errors?.[0];
    if (!error) return { path: "", keyword: "unknown", message: "is invalid" };
    let path = error.instancePath;
    const missing = error.params?.missingProperty;
    if (error.keyword === "required" && typeof missing === "string") {
      path = `${path}/${missing.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      return { path, keyword: "required", message: "is required" };
    }
    const extra = error.params?.additionalProperty;
    if (error.keyword === "additionalProperties" && typeof extra === "string") path = `${path}/${extra}`;
    return { path, keyword: error.keyword, message: error.message ?? "is invalid" };
  };
  cache.set(schema, validate);
  return validate;
}

/** `/days must be <= 7 (maximum)`: one line for a problem. */
export function describeProblem(problem: SchemaProblem): string {
  return `${problem.path || "(root)"} ${problem.message} (${problem.keyword})`;
}
