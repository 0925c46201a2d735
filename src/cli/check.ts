/** `mcp-contract check`: compare a live server (or a second lockfile) with the baseline lockfile. */
import { join } from "node:path";
import { Command, Option } from "@commander-js/extra-typings";
import { describeTarget } from "../connect/target.ts";
import type { Contract } from "../contract/model.ts";
import { UsageError } from "../errors.ts";
import { type ConsumerCalls, parseCalls } from "../policy/calls.ts";
import { FAIL_ON, type FailOn } from "../report/model.ts";
import { readBaselineAtRef } from "./git-baseline.ts";
import { type GlobalOptions, makeUi } from "./globals.ts";
import { hostsOption, resolveHosts } from "./hosts-option.ts";
import { LockfileReads, readLockfile } from "./lockfile.ts";
import { DEFAULT_CONTRACTS_DIR } from "./mcp-config.ts";
import { assertWritable } from "./output-file.ts";
import { addPeerAliases } from "./peer-aliases.ts";
import { type PolicyOptionValues, policyOptions, preparePolicy, resolveFailOn } from "./policy-options.ts";
import { CALLS_MAX_BYTES, readUserFile } from "./read-user-file.ts";
import { formatOptions, planOutputs, type ReportFile, readBaselineOrNone, reportComparison } from "./report-output.ts";
import { DEFAULT_LOCKFILE } from "./snapshot.ts";
import {
  addTargetOptions,
  jobsOption,
  rejectLiveBesideAgainst,
  resolveTarget,
  type TargetOptionValues,
} from "./target-options.ts";

export function checkCommand() {
  const [witness, format, output] = formatOptions();
  const command = addTargetOptions(
    new Command("check")
      .alias("verify")
      .summary("fail when a live server (or a second lockfile) breaks the committed contract")
      .description(
        "Compare a live server's surface, or a second lockfile given with --against, with the baseline lockfile, judge every change by direction (what callers send must not narrow; what they receive must not widen), and exit 1 when a change reaches --fail-on.",
      )
      .argument("[command...]", "the stdio server to start, after `--`")
      .addOption(new Option("--baseline <file>", "the committed contract lockfile").default(DEFAULT_LOCKFILE))
      .addOption(
        new Option(
          "--baseline-ref <rev>",
          "read the baseline as committed at this git revision (e.g. origin/main) instead of from the working tree",
        ),
      )
      .addOption(new Option("--against <file>", "compare with this lockfile instead of a live server"))
      .addOption(
        new Option("--all", "check every server of the MCP client config against its lockfile in --dir, in one report"),
      )
      .addOption(
        new Option("--dir <dir>", `with --all: the directory of the lockfiles (default ${DEFAULT_CONTRACTS_DIR})`),
      )
      .addOption(jobsOption())
      .addOption(
        new Option("--fail-on <level>", "fail at this severity or above")
          .choices(FAIL_ON)
          .default("breaking" as FailOn),
      )
      .addOption(witness)
      .addOption(hostsOption())
      .addOption(format)
      .addOption(output)
      .addOption(
        new Option(
          "--update",
          "accept the changes: write the current surface to the baseline (created when missing, not rewritten when unchanged) and exit 0",
        ),
      ),
  );
  for (const option of policyOptions()) command.addOption(option);
  command.addOption(
    new Option(
      "--calls <file>",
      "only changes that invalidate these recorded calls fail the run (mcp-contract mock --record JSON lines, or a JSON array of {method, params}; repeatable)",
    )
      .argParser((value: string, previous: string[] = []) => [...previous, value])
      .helpGroup("Policy:"),
  );
  addPeerAliases(command, { target: true, baseline: { defaultFile: DEFAULT_LOCKFILE } });
  command.addHelpText(
    "after",
    `
Examples:
  $ mcp-contract check -- node dist/server.js
  $ mcp-contract check --baseline contracts/weather.json --url http://127.0.0.1:3000/mcp
  $ mcp-contract check --baseline old.json --against new.json --format json=report.json
  $ mcp-contract check --baseline-ref origin/main --format sarif=contract.sarif --format github -- node dist/server.js
  $ mcp-contract check --fail-on minor -- python server.py
  $ mcp-contract check --update -- node dist/server.js     # accept the changes into the baseline
  $ mcp-contract check --baseline-ref origin/main -- node dist/server.js
  $ mcp-contract check --used-by ../my-client/src --enforce-semver -- node dist/server.js
  $ mcp-contract check --all --dir mcp-contracts     # every configured server, one section each
  $ mcp-contract check --hosts gemini-parameters,openai -- node dist/server.js   # a new host rejection breaks

Exit codes: 0 nothing at or over --fail-on (or --allow-breaking), 1 it was reached or --enforce-semver failed,
2 bad flags, lockfile or policy file, 3 server failure.`,
  );

  return command.action(async (commandArgs, rawOptions, cmd) => {
    const options = rawOptions as unknown as TargetOptionValues &
      PolicyOptionValues & {
        baseline: string;
        baselineRef?: string;
        against?: string;
        failOn: FailOn;
        format?: string[];
        output?: string[];
        update?: boolean;
        witness: boolean;
        calls?: string[];
        hosts?: string[];
        all?: boolean;
        dir?: string;
        jobs?: number;
      };
    const globals = cmd.optsWithGlobals() as GlobalOptions;
    const ui = makeUi(globals);
    const plans = planOutputs(options.format, options.output, globals);
    // Checked before any server starts: a typo in a profile name is exit 2 at once.
    const hosts = options.hosts === undefined ? undefined : resolveHosts(options.hosts, undefined);
    if (options.all || options.dir !== undefined) {
      if (!options.all) throw new UsageError("--dir applies with --all only; for one server, use --baseline FILE.");
      const source = (name: string) => cmd.getOptionValueSource(name as never);
      const { checkAll } = await import("./all-servers.ts");
      const { assertAllFormats } = await import("./config-all-report.ts");
      assertAllFormats(plans);
      const dir = options.dir ?? DEFAULT_CONTRACTS_DIR;
      // The policy file sits beside the lockfiles (DIR/mcp-contract.config.json), else in the current directory.
      const policy = preparePolicy(options, { beside: join(dir, DEFAULT_LOCKFILE), lockfiles: [] }, ui);
      const failOn = resolveFailOn(options.failOn, source("failOn") === "cli", policy.policy, "check");
      const code = await checkAll(commandArgs, options, source, ui, {
        dir,
        failOn,
        witness: options.witness,
        policy,
        plans,
        color: globals.color ?? "auto",
        jobs: options.jobs,
        ...(hosts && { hosts }),
      });
      if (code !== 0) process.exitCode = code;
      return;
    }
    if (options.update && options.baselineRef !== undefined) {
      throw new UsageError(
        `--update rewrites the baseline file, and --baseline-ref ${options.baselineRef} reads it from git history, which cannot be rewritten. Drop --baseline-ref to update ${options.baseline}.`,
      );
    }
    let baseline: Contract;
    let baselineSource = options.baseline;
    let baselineFile: ReportFile | undefined;
    // The baseline and --against are read in one session: the second shares the first's tools.
    const reads = new LockfileReads();
    if (options.baselineRef !== undefined) {
      const fromGit = readBaselineAtRef(options.baselineRef, options.baseline, reads);
      baseline = fromGit.contract;
      baselineSource = fromGit.source;
      baselineFile = { path: options.baseline, text: fromGit.text, revision: options.baselineRef };
    } else {
      // --update with no lockfile yet: compare with an empty surface, then create the file.
      const read = options.update
        ? readBaselineOrNone(options.baseline, reads)
        : readLockfile(options.baseline, "baseline", { elsewhere: "--baseline FILE", reads });
      baseline = read.contract;
      baselineFile = read.file;
    }
    if (options.update) assertWritable(options.baseline, "--baseline");
    const prepared = preparePolicy(
      options,
      { beside: options.baseline, lockfiles: [options.baseline, ...(options.against ? [options.against] : [])] },
      ui,
    );
    if (options.calls) prepared.calls = readCalls(options.calls);
    const failOn = resolveFailOn(
      options.failOn,
      cmd.getOptionValueSource("failOn" as never) === "cli",
      prepared.policy,
      "check",
    );

    let current: Contract;
    let currentSource: string;
    let againstFile: ReportFile | undefined;
    // A live server shuts down while the verdict and reports are made; the run ends once it is gone.
    let closed: Promise<void> | undefined;
    if (options.against) {
      rejectLiveBesideAgainst(commandArgs, options, (name) => cmd.getOptionValueSource(name as never));
      const read = readLockfile(options.against, "--against", { reads });
      current = read.contract;
      againstFile = read.file;
      currentSource = options.against;
    } else {
      // Capture the way the baseline was captured, unless told otherwise.
      const resolved = resolveTarget(
        commandArgs,
        {
          ...options,
          clientCapabilities: options.clientCapabilities ?? baseline.capture.clientCapabilities.join(","),
          era: options.era ?? baseline.capture.era,
          lockfileGoes: (file) =>
            `to compare the baseline with a second lockfile, name it with --against: \`mcp-contract check --against ${file}\` (or compare any two with \`mcp-contract diff OLD NEW\`)`,
          alternatives:
            "; or compare with a second lockfile with `--against FILE`, or check every configured server with `--all`",
        },
        (name) => cmd.getOptionValueSource(name as never),
      );
      const { captureTarget } = await import("./capture-target.ts");
      const captured = await captureTarget(resolved, ui);
      current = captured.contract;
      closed = captured.closed;
      currentSource = `live ${describeTarget(resolved.target)}`;
    }

    // Findings are located in the committed baseline (SARIF, GitHub annotations, JUnit).
    let exitCode: number;
    try {
      exitCode = await reportComparison(
        {
          command: "check",
          baseline: { contract: baseline, source: baselineSource },
          current: { contract: current, source: currentSource },
          policy: prepared,
          failOn,
          witness: options.witness,
          ...(hosts && { hosts }),
        },
        plans,
        globals.color ?? "auto",
        { baseline: baselineFile, current: againstFile },
        ui,
        // --update: the changes are accepted into the baseline (no rewrite when its bytes would not change).
        options.update ? { update: options.baseline } : {},
      );
    } finally {
      await closed;
    }
    if (exitCode !== 0) process.exitCode = exitCode;
  });
}

/** --calls FILE...: the consumer's recorded calls, read and parsed (exit 2 when unreadable). */
function readCalls(paths: string[]): ConsumerCalls {
  const calls = paths.flatMap((path) =>
    parseCalls(
      readUserFile(path, {
        missing: `no calls file at ${path}. Record one with \`mcp-contract mock --contract mcp.contract.json --record ${path}\` while the consumer's tests run.`,
        aKind: "a calls file",
        theKind: "the --calls file",
        maxBytes: CALLS_MAX_BYTES,
      }),
      path,
    ),
  );
  return { calls, description: paths.map((path) => `--calls ${path}`).join(" ") };
}
