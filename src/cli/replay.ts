/** `mcp-contract replay`: re-send consumers' recorded calls to a live server and judge every answer. */
import { Command, Option } from "@commander-js/extra-typings";
import { describeTarget } from "../connect/target.ts";
import type { Contract } from "../contract/model.ts";
import { UsageError } from "../errors.ts";
import { buildReplayReport, buildSection, type CallOutcome } from "../report/replay-model.ts";
import { type GlobalOptions, makeUi } from "./globals.ts";
import { readLockfile } from "./lockfile.ts";
import {
  assertReplayFormats,
  type ConsumerCalls,
  consumerNameOf,
  dryRun,
  exitCodeOf,
  planAll,
  type ReplayFlagValues,
  readRecording,
  readSetup,
  recordingFiles,
  replayOnSession,
  replayOptions,
  writeReplayReports,
} from "./replay-common.ts";
import { formatOptions, planOutputs } from "./report-output.ts";
import { addTargetOptions, rejectLiveBesideAgainst, resolveTarget, type TargetOptionValues } from "./target-options.ts";
import { maskHeldSecrets } from "./ui.ts";

export function replayCommand() {
  const [, format, output] = formatOptions();
  const command = addTargetOptions(
    new Command("replay")
      .summary("re-send consumers' recorded calls to a live server and check each answer keeps the shape they saw")
      .description(
        "Provider verification: capture the live server's surface, then re-send the recorded tools/call, resources/read and prompts/get requests (only tools the current surface marks readOnlyHint: true, plus those named with --allow) and judge each answer: still accepted, structuredContent valid against the current outputSchema, and every field the consumer received still there with a compatible JSON type. Exit 1 when a consumer would break.",
      )
      .argument("[command...]", "the stdio server to start, after `--`")
      .addOption(
        new Option(
          "--calls <path>",
          "a recording (JSON lines from `mock --record` or `record`), or a directory of them; one consumer per path (repeatable)",
        ).argParser((value: string, previous: string[] = []) => [...previous, value]),
      )
      .addOption(
        new Option("--against <file>", "with --dry-run: take the surface from this lockfile and contact no server"),
      )
      .addOption(format)
      .addOption(output),
  );
  for (const option of replayOptions()) command.addOption(option);
  command.addHelpText(
    "after",
    `
Examples:
  $ mcp-contract replay --calls contracts/consumers/weather-app -- node dist/server.js
  $ mcp-contract replay --calls calls.jsonl --url http://127.0.0.1:3000/mcp --format junit=replay.xml
  $ mcp-contract replay --calls calls.jsonl --allow set_alert --dry-run -- node dist/server.js
  $ mcp-contract replay --calls calls.jsonl --against mcp.contract.json --dry-run

Exit codes: 0 every replayed call kept what its consumer saw, 1 a consumer would break, 2 bad flags or
recording (the file and line are named), 3 the server could not be reached.`,
  );
  return command.action(async (commandArgs, rawOptions, cmd) => {
    const options = rawOptions as unknown as TargetOptionValues &
      ReplayFlagValues & { calls?: string[]; against?: string; format?: string[]; output?: string[] };
    const globals = cmd.optsWithGlobals() as GlobalOptions;
    const ui = makeUi(globals);
    const plans = planOutputs(options.format, options.output, globals);
    assertReplayFormats(plans, "replay");
    if (!options.calls?.length) {
      throw new UsageError(
        "give the recorded calls with --calls FILE|DIR (record them with `mcp-contract mock --record FILE` or `mcp-contract record -o FILE`).",
      );
    }
    const consumers: ConsumerCalls[] = options.calls.map((path) => {
      const files = recordingFiles(path);
      const consumer = consumerNameOf(path);
      return { consumer, files, calls: files.flatMap((file) => readRecording(file, consumer)) };
    });
    const setup = readSetup(options.setup);
    const source = (name: string) => cmd.getOptionValueSource(name as never);

    let outcomes: CallOutcome[][];
    let target: string;
    const notices: string[] = [];
    let closed: Promise<void> | undefined;
    if (options.against !== undefined) {
      if (!options.dryRun) {
        throw new UsageError(
          "--against FILE gives only a surface, and replay sends calls to a live server: add --dry-run to see what would be sent, or give the server (after `--`, --url or --server).",
        );
      }
      rejectLiveBesideAgainst(commandArgs, options, source);
      const surface = readLockfile(options.against, "--against").contract;
      outcomes = planAll(consumers, setup, surface, options).map(dryRun);
      target = options.against;
    } else {
      const resolved = resolveTarget(
        commandArgs,
        {
          ...options,
          alternatives: "; or, with --dry-run, take the surface from a lockfile with `--against FILE`",
          lockfileGoes: (file) =>
            `with --dry-run, a lockfile's surface is named with --against: \`--dry-run --against ${file}\``,
        },
        source,
      );
      let result: CallOutcome[][] = [];
      const { captureTarget } = await import("./capture-target.ts");
      const captured = await captureTarget(resolved, ui, {}, async (session, surface: Contract) => {
        result = await replayOnSession(session, surface, consumers, setup, options, ui, notices);
      });
      closed = captured.closed;
      outcomes = result;
      target = `live ${describeTarget(resolved.target)}`;
    }
    try {
      const sections = consumers.map((c, i) => buildSection(c.consumer, c.files, outcomes[i] ?? []));
      const report = buildReplayReport("replay", target, sections, {
        offline: Boolean(options.dryRun),
        exact: Boolean(options.exact),
        notices,
      });
      // Answers can echo what the capture was given (a token, a header value): masked as everywhere.
      await writeReplayReports(maskHeldSecrets(report).value, plans, globals.color ?? "auto");
      // A tool gone from the surface breaks its consumer even when nothing is sent.
      const code = exitCodeOf(report);
      if (code !== 0) process.exitCode = code;
    } finally {
      await closed;
    }
  });
}
