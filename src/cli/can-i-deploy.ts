/**
 * `mcp-contract can-i-deploy --to ENV`: for every consumer deployed in ENV (a folder under
 * --consumers with a consumer.json and its recordings), the schema judgement of `check --calls`
 * (the committed baseline against the live server or --against) and, with a live server, the
 * replay of its recorded calls. One section per consumer; exit 1 when any would break.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Command, Option } from "@commander-js/extra-typings";
import { describeTarget } from "../connect/target.ts";
import type { Contract } from "../contract/model.ts";
import { UsageError } from "../errors.ts";
import { callsOf } from "../policy/calls.ts";
import { judgeComparison } from "../policy/judge-comparison.ts";
import { assertDistinct, type ConsumerManifest, MANIFEST_FILE, parseManifest } from "../replay/consumers.ts";
import { callTarget, type ReplayCall } from "../replay/judge.ts";
import { isCounted, type Report } from "../report/model.ts";
import { buildReplayReport, buildSection, type CallOutcome } from "../report/replay-model.ts";
import { type GlobalOptions, makeUi } from "./globals.ts";
import { LockfileReads, readLockfile } from "./lockfile.ts";
import { type PolicyOptionValues, preparePolicy } from "./policy-options.ts";
import { CONFIG_MAX_BYTES, readUserFile } from "./read-user-file.ts";
import {
  assertReplayFormats,
  type ConsumerCalls,
  exitCodeOf,
  type ReplayFlagValues,
  readRecording,
  readSetup,
  recordingFiles,
  replayOnSession,
  replayOptions,
  writeReplayReports,
} from "./replay-common.ts";
import { formatOptions, planOutputs } from "./report-output.ts";
import { DEFAULT_LOCKFILE } from "./snapshot.ts";
import { addTargetOptions, rejectLiveBesideAgainst, resolveTarget, type TargetOptionValues } from "./target-options.ts";
import { maskHeldSecrets } from "./ui.ts";

export const DEFAULT_CONSUMERS_DIR = "contracts/consumers";

export function canIDeployCommand() {
  const [, format, output] = formatOptions();
  const command = addTargetOptions(
    new Command("can-i-deploy")
      .summary("would any consumer deployed in an environment break? (schema judgement and replay, per consumer)")
      .description(
        "For every consumer under --consumers whose consumer.json lists the --to environment: judge the change from the committed baseline to the live server (or --against) against its recorded calls, as `check --calls` does, and, with a live server, replay those calls and check each answer keeps the shape the consumer saw. Exit 1 when any consumer would break.",
      )
      .argument("[command...]", "the stdio server to start, after `--`")
      .addOption(
        new Option("--to <env>", "the environment to deploy to; its consumers are judged").makeOptionMandatory(),
      )
      .addOption(
        new Option("--consumers <dir>", "one folder per consumer: consumer.json and its recordings (*.jsonl)").default(
          DEFAULT_CONSUMERS_DIR,
        ),
      )
      .addOption(new Option("--baseline <file>", "the committed contract lockfile").default(DEFAULT_LOCKFILE))
      .addOption(new Option("--against <file>", "judge this lockfile's surface instead of a live server (no replay)"))
      .addOption(format)
      .addOption(output),
  );
  for (const option of replayOptions()) command.addOption(option);
  command.addHelpText(
    "after",
    `
Examples:
  $ mcp-contract can-i-deploy --to production -- node dist/server.js
  $ mcp-contract can-i-deploy --to staging --against next.contract.json
  $ mcp-contract can-i-deploy --to production --consumers contracts/consumers --format junit=consumers.xml --url http://127.0.0.1:3000/mcp

Exit codes: 0 no consumer in the environment would break, 1 one would, 2 bad flags, manifest, recording or
lockfile (or no consumer is deployed in the environment), 3 the server could not be reached.`,
  );
  return command.action(async (commandArgs, rawOptions, cmd) => {
    const options = rawOptions as unknown as TargetOptionValues &
      ReplayFlagValues & {
        to: string;
        consumers: string;
        baseline: string;
        against?: string;
        format?: string[];
        output?: string[];
      };
    const globals = cmd.optsWithGlobals() as GlobalOptions;
    const ui = makeUi(globals);
    const plans = planOutputs(options.format, options.output, globals);
    assertReplayFormats(plans, "can-i-deploy");
    const consumers = readConsumers(options.consumers, options.to);
    const setup = readSetup(options.setup);
    // The baseline and --against in one read session, as check reads them.
    const reads = new LockfileReads();
    const baseline = readLockfile(options.baseline, "baseline", { elsewhere: "--baseline FILE", reads }).contract;
    const prepared = preparePolicy(
      {} as PolicyOptionValues,
      { beside: options.baseline, lockfiles: [options.baseline] },
      ui,
    );
    const source = (name: string) => cmd.getOptionValueSource(name as never);

    let current: Contract;
    let target: string;
    let outcomes: CallOutcome[][];
    const notices: string[] = [];
    let closed: Promise<void> | undefined;
    const offline = options.against !== undefined;
    if (options.against !== undefined) {
      rejectLiveBesideAgainst(commandArgs, options, source);
      current = readLockfile(options.against, "--against", { reads }).contract;
      target = options.against;
      // Nothing is sent: the calls are listed, judged by the schema only.
      outcomes = consumers.map((c) =>
        c.calls.map((call) => ({
          at: call.line === undefined ? call.file : `${call.file}:${call.line}`,
          method: call.method,
          target: callTarget(call),
          status: "planned" as const,
          reason: "not replayed: --against gives no live server",
          findings: [],
        })),
      );
    } else {
      const resolved = resolveTarget(
        commandArgs,
        {
          ...options,
          clientCapabilities: options.clientCapabilities ?? baseline.capture.clientCapabilities.join(","),
          era: options.era ?? baseline.capture.era,
          alternatives: "; or judge a lockfile's surface with `--against FILE`",
          lockfileGoes: (file) => `a lockfile's surface is named with --against: \`--against ${file}\``,
        },
        source,
      );
      let result: CallOutcome[][] = [];
      let surface: Contract | undefined;
      const { captureTarget } = await import("./capture-target.ts");
      const captured = await captureTarget(resolved, ui, {}, async (session, captured) => {
        surface = captured;
        result = await replayOnSession(session, captured, consumers, setup, options, ui, notices);
      });
      closed = captured.closed;
      current = surface ?? captured.contract;
      outcomes = result;
      target = `live ${describeTarget(resolved.target)}`;
    }

    try {
      const sections = [];
      for (const [i, consumer] of consumers.entries()) {
        const verdict = await judgeComparison({
          command: "check",
          baseline: { contract: baseline, source: options.baseline },
          current: { contract: current, source: target },
          policy: { ...prepared, calls: { calls: consumer.calls, description: `${consumer.consumer}'s recordings` } },
          failOn: "breaking",
          witness: false,
        });
        const calls = withSchemaHits(
          outcomes[i] ?? [],
          consumer.calls,
          verdict.report,
          !offline && i === 0 ? setup.length : 0,
        );
        sections.push(buildSection(consumer.consumer, consumer.files, calls, verdict.report, consumer.environments));
      }
      const report = buildReplayReport("can-i-deploy", target, sections, {
        offline: offline || Boolean(options.dryRun),
        exact: Boolean(options.exact),
        environment: options.to,
        notices,
      });
      await writeReplayReports(maskHeldSecrets(report).value, plans, globals.color ?? "auto");
      const code = exitCodeOf(report);
      if (code !== 0) process.exitCode = code;
    } finally {
      await closed;
    }
  });
}

/** Each call's outcome with the counted schema changes that reach it (the setup calls, first, reach none). */
function withSchemaHits(
  outcomes: CallOutcome[],
  calls: readonly ReplayCall[],
  report: Report,
  setupCount: number,
): CallOutcome[] {
  const counted = report.changes.filter((c) => isCounted(c, report.failOn));
  return outcomes.map((outcome, i) => {
    const call = i >= setupCount ? calls[i - setupCount] : undefined;
    if (!call) return outcome;
    const hits = counted
      .filter((change) => callsOf(change, [call]).length > 0)
      .map((change) => ({ rule: change.rule, severity: change.severity, path: change.path, message: change.message }));
    return hits.length > 0 ? { ...outcome, schema: hits } : outcome;
  });
}

/** The consumers deployed in `env`, each with its recordings; exit 2 on a bad manifest or when none is. */
function readConsumers(dir: string, env: string): ConsumerCalls[] {
  let folders: string[];
  try {
    folders = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    throw new UsageError(
      `--consumers ${dir}: no such directory. Give each consumer a folder there with a ${MANIFEST_FILE} ({ "name": "weather-app", "environments": ["production"] }) and its recordings (*.jsonl).`,
    );
  }
  const manifests: { manifest: ConsumerManifest; path: string; folder: string }[] = [];
  for (const folder of folders) {
    const path = join(dir, folder, MANIFEST_FILE);
    const text = readUserFile(path, {
      missing: `${join(dir, folder)} has no ${MANIFEST_FILE}: every consumer folder needs one, e.g. { "name": "${folder}", "environments": ["production"] }.`,
      aKind: "a consumer manifest",
      theKind: "the consumer manifest",
      maxBytes: CONFIG_MAX_BYTES,
    });
    manifests.push({ manifest: parseManifest(text, path, folder), path, folder });
  }
  assertDistinct(manifests);
  if (manifests.length === 0) {
    throw new UsageError(
      `--consumers ${dir} holds no consumer folder (each with a ${MANIFEST_FILE} and its recordings).`,
    );
  }
  const deployed = manifests.filter((m) => m.manifest.environments.includes(env));
  if (deployed.length === 0) {
    const known = [...new Set(manifests.flatMap((m) => m.manifest.environments))].sort();
    throw new UsageError(
      `no consumer under ${dir} is deployed in ${JSON.stringify(env)}; the environments its manifests name are ${known.join(", ")}. Check --to, or add "${env}" to a consumer's ${MANIFEST_FILE}.`,
    );
  }
  return deployed.map(({ manifest, folder }) => {
    const files = recordingFiles(join(dir, folder), "--consumers");
    return {
      consumer: manifest.name,
      files,
      environments: manifest.environments,
      calls: files.flatMap((file) => readRecording(file, manifest.name)),
    };
  });
}
