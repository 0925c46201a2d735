/** Changes for the policy unit tests, without running the diff engine. */
import type { Change, Direction, Severity, TargetKind } from "../../../src/diff/model.ts";

let counter = 0;

export function change(
  rule: string,
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
