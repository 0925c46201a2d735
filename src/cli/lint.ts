/** `mcp-contract lint`: protocol, quality and security findings on one surface (a live server or a lockfile). */
import { existsSync } from "node:fs";
import { Command, InvalidArgumentError, Option } from "@commander-js/extra-typings";
import { describeTarget } from "../connect/target.ts";
import type { Contract } from "../contract/model.ts";
import { UsageError } from "../errors.ts";
import { DEFAULT_LINT_OPTIONS } from "../lint/model.ts";
import { ShapeReader } from "../lint/shape-text.ts";
import { declareShapes } from "../lint/shapes.ts";
import { todayUtc } from "../policy/apply.ts";
import { judgeLint } from "../policy/judge.ts";
import { emptyPolicy } from "../policy/policy.ts";
import { LINT_FAIL_ON, type LintFailOn } from "../report/model.ts";
import { catalogOf, suggestRuleIds } from "../rules/registry.ts";
import { type GlobalOptions, makeUi } from "./globals.ts";
import { hostsOption, resolveHosts } from "./hosts-option.ts";
import { readLockfile } from "./lockfile.ts";
import { addPeerAliases } from "./peer-aliases.ts";
import { locatePolicy, policyFileOptions, readPolicyFile } from "./policy-options.ts";
import { formatOptions, planOutputs, type ReportFile, writeReports } from "./report-output.ts";
import { DEFAULT_LOCKFILE } from "./snapshot.ts";
import { addTargetOptions, rejectLiveOnlyFlags, resolveTarget, type TargetOptionValues } from "./target-options.ts";

const collect = (value: string, previous: string[] = []) => [...previous, value];

function tokens(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("expected a positive whole number of tokens.");
  return n;
}

/** --disable values: comma-separated, repeatable, each a lint rule id (exit 2 otherwise, with a suggestion). */
export function parseDisabled(values: readonly string[] | undefined): Set<string> {
  const ids = (values ?? [])
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  for (const id of ids) {
    const catalog = catalogOf(id);
    if (catalog === "lint") continue;
    if (catalog === "diff") {
      throw new UsageError(
        `--disable ${id}: that is a check/diff rule, not a lint rule. Lint rules are listed by \`mcp-contract rules --catalog lint\`; diff rules are tuned in the policy file.`,
      );
    }
    const close = suggestRuleIds(id, "lint");
    throw new UsageError(
      `--disable ${id}: no lint rule has that id.${close.length ? ` Did you mean ${close.join(" or ")}?` : ""} Run \`mcp-contract rules --catalog lint\` for the list.`,
    );
  }
  return new Set(ids);
}

export function lintCommand() {
  const [, format, output] = formatOptions();
  const command = addTargetOptions(
    new Command("lint")
      .summary("report protocol, quality and security (tool poisoning) problems on a surface")
      .description(
        `Lint a live server (after \`--\`, --url or --server) or a lockfile (--from FILE; with neither, ${DEFAULT_LOCKFILE}): protocol correctness (tool names, schemas, $refs, URI templates), quality for the model that reads it (descriptions, naming, hints, size), and tool poisoning (invisible characters, lookalike letters, hidden instructions, requests for secrets, shadowing, URLs, encoded blobs). Exit 1 when a finding reaches --fail-on.`,
      )
      .argument("[command...]", "the stdio server to start, after `--`")
      .addOption(new Option("--from <file>", "lint this lockfile instead of a live server"))
      .addOption(
        new Option("--fail-on <level>", "fail at this level or above")
          .choices(LINT_FAIL_ON)
          .default("error" as LintFailOn),
      )
      .addOption(
        new Option("--disable <rules>", "turn these lint rules off (comma-separated ids; repeatable)").argParser(
          collect,
        ),
      )
      .addOption(
        new Option("--token-budget <tokens>", "warn when the tool list is estimated over this many tokens")
          .argParser(tokens)
          .default(DEFAULT_LINT_OPTIONS.tokenBudget),
      )
      .addOption(hostsOption())
      .addOption(format)
      .addOption(output),
  );
  for (const option of policyFileOptions("the linted lockfile")) command.addOption(option);
  addPeerAliases(command, { target: true });
  command.addHelpText(
    "after",
    `
Examples:
  $ mcp-contract lint -- node dist/server.js
  $ mcp-contract lint --from mcp.contract.json --format sarif=lint.sarif --format github
  $ mcp-contract lint --url http://127.0.0.1:3000/mcp --fail-on warning
  $ mcp-contract lint --disable embedded-url,parameter-description-missing
  $ mcp-contract lint --from mcp.contract.json --hosts gemini-parameters,openai   # will these hosts accept it?
  $ mcp-contract rules --catalog lint        # every lint rule, with its level

Exit codes: 0 nothing at or over --fail-on, 1 it was reached, 2 bad flags, lockfile or policy file,
3 server failure.`,
  );

  return command.action(async (commandArgs, rawOptions, cmd) => {
    const options = rawOptions as unknown as TargetOptionValues & {
      from?: string;
      failOn: LintFailOn;
      disable?: string[];
      tokenBudget: number;
      hosts?: string[];
      format?: string[];
      output?: string[];
      policy?: string | false;
    };
    const globals = cmd.optsWithGlobals() as GlobalOptions;
    const ui = makeUi(globals);
    const plans = planOutputs(options.format, options.output, globals);
    const disabled = parseDisabled(options.disable);
    // Checked before any server starts: a typo in a profile name is exit 2 at once.
    if (options.hosts !== undefined) resolveHosts(options.hosts, undefined);
    const live = commandArgs.length > 0 || options.url !== undefined || options.server !== undefined;
    if (live && options.from !== undefined) {
      throw new UsageError("give either --from FILE or a live server (after `--`, --url or --server), not both.");
    }
    if (!live) {
      rejectLiveOnlyFlags(
        (name) => cmd.getOptionValueSource(name as never),
        options.from !== undefined ? "--from FILE" : `no server given (${DEFAULT_LOCKFILE} is linted)`,
      );
    }
    let from = options.from;
    if (!live && from === undefined) {
      if (!existsSync(DEFAULT_LOCKFILE)) {
        throw new UsageError(
          `nothing to lint: give a server (\`mcp-contract lint -- node dist/server.js\`, --url or --server) or a lockfile (--from FILE); there is no ${DEFAULT_LOCKFILE} here to lint by default.`,
        );
      }
      from = DEFAULT_LOCKFILE;
      ui.debug(`linting ${DEFAULT_LOCKFILE} (no server and no --from given)`);
    }

    const policyPath = locatePolicy(options.policy, from ?? DEFAULT_LOCKFILE);
    const policy = policyPath ? readPolicyFile(policyPath, typeof options.policy === "string") : emptyPolicy();
    if (policyPath) ui.debug(`policy: ${policyPath}`);
    const hosts = resolveHosts(options.hosts, policy.hosts);

    let contract: Contract;
    let closed: Promise<void> | undefined;
    let source: string;
    let lockfile: ReportFile | undefined;
    if (from !== undefined) {
      // Repeated schemas are found by their text as the tools are parsed (src/lint/shape-text.ts).
      const shapes = new ShapeReader();
      const read = readLockfile(from, "linted", { reader: shapes });
      contract = read.contract;
      lockfile = read.file;
      const found = shapes.shapesOf(contract);
      if (found) declareShapes(contract, found);
      source = from;
    } else {
      const resolved = resolveTarget(
        commandArgs,
        {
          ...options,
          lockfileGoes: (file) => `to lint a lockfile, name it with --from: \`mcp-contract lint --from ${file}\``,
        },
        (name) => cmd.getOptionValueSource(name as never),
      );
      const { captureTarget } = await import("./capture-target.ts");
      // Wrong-typed fields are findings here (protocol rules), not a capture failure.
      const captured = await captureTarget(resolved, ui, { fieldTypes: false });
      contract = captured.contract;
      closed = captured.closed;
      source = `live ${describeTarget(resolved.target)}`;
    }

    // The server shuts down while lint runs; the run ends once it is gone, whatever happens.
    let exitCode: number;
    try {
      const judged = judgeLint({
        contract,
        source,
        policy,
        today: todayUtc(),
        tokenBudget: options.tokenBudget,
        disabled,
        failOn: options.failOn,
        hosts,
      });
      // The linted surface is the report's only, "current", side.
      await writeReports(judged.report, plans, globals.color ?? "auto", {
        current: lockfile,
        currentContract: contract,
      });
      exitCode = judged.exitCode;
    } finally {
      await closed;
    }
    if (exitCode !== 0) process.exitCode = exitCode;
  });
}
