/**
 * The policy flags check and diff share (--used, --used-by, --policy, --allow-breaking,
 * --enforce-semver), and the I/O around them: finding and reading the policy file, and
 * scanning the consumer's code. The decisions themselves are pure, in src/policy/.
 */
import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Option } from "@commander-js/extra-typings";
import { UsageError } from "../errors.ts";
import { todayUtc } from "../policy/apply.ts";
import type { JudgePolicy } from "../policy/judge-comparison.ts";
import { emptyPolicy, POLICY_FILE, type Policy, parsePolicy } from "../policy/policy.ts";
import { type ConsumerUsage, describeUsage, parseUsedList } from "../policy/scope.ts";
import { breakGlassFrom } from "../policy/verdict.ts";
import type { FailOn } from "../report/model.ts";
import { POLICY_MAX_BYTES, readUserFile } from "./read-user-file.ts";
import type { Ui } from "./ui.ts";
import { scanUsedBy } from "./used-by-scan.ts";

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** --policy and --no-policy; `beside` names the file the default policy file sits next to. */
export function policyFileOptions(beside: string) {
  return [
    new Option(
      "--policy <file>",
      `the policy file (default: ${POLICY_FILE} beside ${beside}, else in the current directory)`,
    ).helpGroup("Policy:"),
    new Option("--no-policy", "ignore any policy file").helpGroup("Policy:"),
  ] as const;
}

/** The policy flags; `beside` names the lockfile the default policy file sits next to (check: the baseline, diff: OLD). */
export function policyOptions(beside = "the baseline") {
  return [
    new Option(
      "--used <names>",
      "only changes to these tools, prompts, resources or templates fail the run (comma-separated names and globs; repeatable)",
    )
      .argParser(collect)
      .helpGroup("Policy:"),
    new Option(
      "--used-by <path>",
      "only changes to what this consumer code mentions in string literals fail the run (file or directory; repeatable)",
    )
      .argParser(collect)
      .helpGroup("Policy:"),
    ...policyFileOptions(beside),
    new Option("--enforce-semver", "fail when the server's version bump is smaller than its changes require").helpGroup(
      "Policy:",
    ),
    new Option(
      "--allow-breaking",
      "break-glass: exit 0 even if the run fails, with a loud notice (also MCP_CONTRACT_ALLOW_BREAKING=1)",
    ).helpGroup("Policy:"),
  ] as const;
}

export interface PolicyOptionValues {
  used?: string[];
  usedBy?: string[];
  /** A path, false for --no-policy, undefined to look for the default file. */
  policy?: string | false;
  enforceSemver?: boolean;
  allowBreaking?: boolean;
}

export type PreparedPolicy = JudgePolicy;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The policy file to use: --policy, else the default file beside `beside`, else in the current directory. */
export function locatePolicy(option: string | false | undefined, beside: string): string | undefined {
  if (option === false) return undefined;
  if (typeof option === "string") return option;
  const candidates = [join(dirname(beside), POLICY_FILE), POLICY_FILE];
  return candidates.find(isFile);
}

export function readPolicyFile(path: string, explicit: boolean): Policy {
  const text = readUserFile(path, {
    missing: `no policy file at ${path}${explicit ? " (--policy)" : ""}. Check the path, or leave --policy out to use ${POLICY_FILE} beside the baseline.`,
    aKind: "a policy file (--policy)",
    theKind: "the policy file",
    maxBytes: POLICY_MAX_BYTES,
  });
  return parsePolicy(text, path);
}

export interface PolicyContext {
  /** The baseline lockfile's path (or OLD for diff): the default policy file sits beside it. */
  beside: string;
  /** The lockfiles being compared; --used-by never reads them. */
  lockfiles: readonly string[];
}

/** Everything that can be wrong with the policy flags fails here, before any capture (exit 2). */
export function preparePolicy(
  options: PolicyOptionValues,
  context: PolicyContext,
  ui: Ui,
  env: Record<string, string | undefined> = process.env,
): PreparedPolicy {
  const breakGlass = breakGlassFrom(options.allowBreaking, env);
  if (breakGlass && "error" in breakGlass) throw new UsageError(breakGlass.error);

  const policyPath = locatePolicy(options.policy, context.beside);
  const policy = policyPath ? readPolicyFile(policyPath, typeof options.policy === "string") : emptyPolicy();
  if (policyPath) ui.debug(`policy: ${policyPath}`);

  let usage: ConsumerUsage | undefined;
  if (options.used !== undefined || options.usedBy !== undefined) {
    const patterns = parseUsedList(options.used ?? []);
    if (options.used !== undefined && patterns.length === 0) {
      throw new UsageError('--used needs at least one name or glob, e.g. --used "get_forecast,list_*".');
    }
    const usedBy = options.usedBy ?? [];
    let literals: Set<string> | undefined;
    let files: number | undefined;
    if (usedBy.length) {
      const exclude = new Set([...context.lockfiles, ...(policyPath ? [policyPath] : [])].map((p) => resolve(p)));
      const scan = scanUsedBy(usedBy, exclude);
      for (const { path, why } of scan.skipped) ui.warn(`--used-by ${path} was not scanned: ${why}.`);
      // A scan that selects nothing (no files, or none naming an item) is warned about once both surfaces are known.
      ui.debug(`--used-by: ${scan.files} files scanned, ${scan.literals.size} distinct string literals`);
      literals = scan.literals;
      files = scan.files;
    }
    usage = {
      patterns,
      ...(literals ? { literals, usedBy, files } : {}),
      description: describeUsage(options.used ?? [], usedBy),
    };
  }

  return {
    policy,
    today: todayUtc(),
    enforceSemver: Boolean(options.enforceSemver),
    ...(usage ? { usage } : {}),
    ...(breakGlass ? { breakGlass } : {}),
  };
}

/** --fail-on from the command line wins; else check takes the policy file's "failOn"; else the default. */
export function resolveFailOn(
  value: FailOn,
  fromCommandLine: boolean,
  policy: Policy,
  command: "check" | "diff",
): FailOn {
  if (fromCommandLine || command === "diff") return value;
  return policy.failOn ?? value;
}
