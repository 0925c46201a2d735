/**
 * String keywords for the variance engine: length bounds (via bounds.ts), `pattern` and
 * `format`. Whether one regular expression accepts every string another does cannot be decided
 * statically, so a changed pattern is reported with that said, never judged silently. Pure.
 */
import type { JsonObject } from "../../contract/model.ts";
import { testRegex } from "../regex.ts";
import { compareCount } from "./bounds.ts";
import { type Context, emit } from "./context.ts";

/**
 * Formats no empty string satisfies. (uri-reference, json-pointer and regex accept "", so they
 * are not here.) The engine treats format as an assertion, as it does when one is added.
 */
const NONEMPTY_FORMATS = new Set([
  "email",
  "idn-email",
  "uri",
  "iri",
  "date",
  "date-time",
  "time",
  "duration",
  "uuid",
  "ipv4",
  "ipv6",
  "hostname",
  "idn-hostname",
]);

/**
 * `minLength: 1` added where the old schema already refused the empty string (its pattern cannot
 * match "", or its format never accepts it): the new bound rejects nothing that was accepted
 * (zod's .min(1) beside an email or URL check that a release dropped).
 */
function emptyAlreadyRefused(a: JsonObject, b: JsonObject): boolean {
  const before = typeof a.minLength === "number" ? a.minLength : 0;
  if (b.minLength !== 1 || before >= 1) return false;
  if (typeof a.format === "string" && NONEMPTY_FORMATS.has(a.format)) return true;
  return typeof a.pattern === "string" && testRegex(a.pattern, "") === false;
}

export function compareStrings(a: JsonObject, b: JsonObject, path: string, ctx: Context): void {
  if (!emptyAlreadyRefused(a, b)) compareCount(a, b, "minLength", path, ctx);
  compareCount(a, b, "maxLength", path, ctx);
  const pa = typeof a.pattern === "string" ? a.pattern : undefined;
  const pb = typeof b.pattern === "string" ? b.pattern : undefined;
  if (pa !== pb) {
    if (pa === undefined) emit(ctx, "pattern-added", `${path}/pattern`, `pattern /${pb}/ added`, { after: pb });
    else if (pb === undefined)
      emit(ctx, "pattern-removed", `${path}/pattern`, `pattern /${pa}/ removed`, { before: pa });
    else {
      emit(ctx, "pattern-changed", `${path}/pattern`, `pattern changed from /${pa}/ to /${pb}/`, {
        before: pa,
        after: pb,
        note: "whether the new pattern accepts every string the old one did cannot be decided statically; review it",
      });
    }
  }
  const fa = typeof a.format === "string" ? a.format : undefined;
  const fb = typeof b.format === "string" ? b.format : undefined;
  if (fa !== fb) {
    if (fa === undefined) emit(ctx, "format-added", `${path}/format`, `format "${fb}" added`, { after: fb });
    else if (fb === undefined) emit(ctx, "format-removed", `${path}/format`, `format "${fa}" removed`, { before: fa });
    else
      emit(ctx, "format-changed", `${path}/format`, `format changed from "${fa}" to "${fb}"`, {
        before: fa,
        after: fb,
      });
  }
}
