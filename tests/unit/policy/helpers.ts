/** Changes for the policy unit tests, without running the diff engine. */
import type { TargetKind } from "../../../src/contract/surface.ts";
import type { Change, Direction } from "../../../src/diff/model.ts";
import type { Severity } from "../../../src/rules/model.ts";
import type { DiffRuleId } from "../../../src/rules/registry.ts";

let counter = 0;

export function change(
  rule: DiffRuleId,
  severity: Severity,
  kind: TargetKind,
  name: string,
  extra: Partial<Change> & { direction?: Direction } = {},
): Change {
  counter++;
  return {
    rule,
    severity,
    target: { kind, name },
    path: "",
    message: `${kind} ${name}: ${rule}`,
    fingerprint: counter.toString(16).padStart(16, "0"),
    ...extra,
  };
}
