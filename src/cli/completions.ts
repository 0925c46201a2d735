/**
 * Shell completion, generated from the command tree, so it never drifts from the flags.
 *
 *   mcp-contract completions bash|zsh|fish|powershell   print the script to load
 *   mcp-contract __complete [--shell S] -- WORDS...      (hidden) what the scripts call on TAB
 *
 * The scripts are small shims: on TAB they pass the words typed so far (the last one being
 * the word under the cursor, possibly empty) to the hidden `__complete` command, which
 * answers one candidate per line ("value<TAB>description") and a last line that says what
 * else the shell should offer: `:plain` (only these), `:files`, `:dirs` or `:commands` (the
 * stdio server's command after `--`). The knowledge sits here, once: subcommands, flags,
 * the values commander declares as choices (--fail-on, --transport, --era, ...), report
 * formats, rule ids (`rules ID`, `--disable`), client capabilities, and the --server names
 * of the MCP client configs that the command would read (--config, else the lookup's files).
 *
 * (@bomb.sh/tab does the same job, but its bash script needs the bash-completion package,
 * fails when sourced twice, `eval`s the typed words, and always turns file completion off,
 * so `diff <TAB>` could not complete the lockfiles.)
 */
import { Argument, Command, type Option } from "@commander-js/extra-typings";
import { isSecretParameter, redactUrls } from "../connect/target.ts";
import { CLIENT_CAPABILITIES } from "../contract/model.ts";
import { FORMATS } from "../report/context.ts";
import { LINT_RULES, RULES } from "../rules/registry.ts";
import { writeStdout } from "./globals.ts";
import { configuredEntries } from "./mcp-config.ts";

export const SHELLS = ["bash", "zsh", "fish", "powershell"] as const;
export type Shell = (typeof SHELLS)[number];

export const COMPLETE_COMMAND = "__complete";

export type CompletionMode = "plain" | "files" | "dirs" | "commands";

export interface Candidate {
  value: string;
  description?: string;
}

export interface Completion {
  candidates: Candidate[];
  mode: CompletionMode;
}

/** Where the values of a flag come from, when commander declares no choices. */
const LISTS: Record<string, () => Candidate[]> = {
  "--format": () => FORMATS.map((value) => ({ value })),
  "--disable": () => LINT_RULES.map((rule) => ({ value: rule.id, description: rule.summary })),
  "--client-capabilities": () => CLIENT_CAPABILITIES.map((value) => ({ value })),
};
/** Flags whose value is a comma-separated list: each item completes on its own. */
const COMMA_LISTS = new Set(["--disable", "--client-capabilities", "--used"]);

interface Flag {
  long?: string;
  short?: string;
  takesValue: boolean;
  option?: Option;
  description: string;
}

function flagsOf(command: Command, program: Command): Flag[] {
  const own = command.createHelp().visibleOptions(command as never) as unknown as Option[];
  const global = command === program ? [] : (program.options as unknown as Option[]).filter((o) => !o.hidden);
  const seen = new Set<string>();
  const flags: Flag[] = [];
  for (const option of [...own, ...global]) {
    const key = option.long ?? option.short ?? option.flags;
    if (seen.has(key)) continue;
    seen.add(key);
    flags.push({
      long: option.long,
      short: option.short,
      takesValue: option.required || option.optional,
      option,
      description: firstLine(option.description),
    });
  }
  return flags;
}

function findFlag(flags: Flag[], word: string): Flag | undefined {
  return flags.find((f) => f.long === word || f.short === word);
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? "";
}

function describeCommand(command: Command): string {
  return firstLine(command.summary() || command.description());
}

function visibleCommands(program: Command): Command[] {
  return (program.createHelp().visibleCommands(program as never) as unknown as Command[]).filter(
    (c) => c.name() !== "help" && c.name() !== COMPLETE_COMMAND,
  );
}

/** A word as typed, minus the simplest quoting ('a b', "a b", a\ b): enough to read a path. */
export function unquote(word: string): string {
  if (word.length >= 1 && (word[0] === "'" || word[0] === '"')) {
    const quote = word[0];
    const body = word.endsWith(quote) && word.length > 1 ? word.slice(1, -1) : word.slice(1);
    return quote === '"' ? body.replace(/\\(["\\$`])/g, "$1") : body;
  }
  return word.replace(/\\(.)/g, "$1");
}

/**
 * A server's command line for the completion menu, without what looks like a credential
 * (`--api-key X`, `--token=X`, `?access_token=` in a URL): menus are shown on screen.
 */
function masked(words: readonly string[]): string {
  const flagName = (w: string) => w.replace(/^-+/, "").split("=")[0] ?? "";
  return redactUrls(
    words
      .map((word, i) => {
        if (word.startsWith("-") && word.includes("=") && isSecretParameter(flagName(word))) {
          return `${word.slice(0, word.indexOf("=") + 1)}***`;
        }
        const previous = words[i - 1];
        return previous?.startsWith("-") && !previous.includes("=") && isSecretParameter(flagName(previous))
          ? "***"
          : word;
      })
      .join(" "),
  );
}

/**
 * The --server names the MCP client configs define (mcpServers, or VS Code's servers): those of
 * --config FILE, else of the files the lookup finds (.mcp.json, .vscode/mcp.json, .cursor/mcp.json).
 */
export function configuredServerNames(path: string | undefined): Candidate[] {
  try {
    return configuredEntries(path).map(([value, e]) => {
      const args = Array.isArray(e.args) ? e.args.filter((a): a is string => typeof a === "string") : [];
      const how =
        typeof e.url === "string" ? masked([e.url]) : typeof e.command === "string" ? masked([e.command, ...args]) : "";
      return { value, description: how.length > 60 ? `${how.slice(0, 59)}…` : how };
    });
  } catch {
    return [];
  }
}

function matching(candidates: Candidate[], prefix: string, valuePrefix = ""): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const c of candidates) {
    if (!c.value.startsWith(prefix) || seen.has(c.value)) continue;
    seen.add(c.value);
    out.push({ ...c, value: valuePrefix + c.value });
  }
  return out;
}

interface LineState {
  command: Command;
  flags: Flag[];
  /** Values given so far, by long flag name (--config, for --server). */
  values: Map<string, string>;
  positionals: string[];
  /** Words seen after `--` that started the server's command line. */
  afterDashDash: number | undefined;
  /** `--` ended the options of a command without a server command line. */
  optionsEnded: boolean;
  pending: Flag | undefined;
}

function takesServerCommand(command: Command): boolean {
  return command.registeredArguments.some((a) => a.variadic && a.name() === "command");
}

function readLine(program: Command, before: readonly string[]): LineState {
  const state: LineState = {
    command: program,
    flags: flagsOf(program, program),
    values: new Map(),
    positionals: [],
    afterDashDash: undefined,
    optionsEnded: false,
    pending: undefined,
  };
  for (const word of before) {
    if (state.afterDashDash !== undefined) {
      state.afterDashDash++;
      continue;
    }
    if (state.pending) {
      if (state.pending.long) state.values.set(state.pending.long, unquote(word));
      state.pending = undefined;
      continue;
    }
    if (state.optionsEnded) {
      state.positionals.push(word);
      continue;
    }
    if (word === "--") {
      // After `--` comes the stdio server's command line (snapshot, check, lint), or else operands only.
      if (takesServerCommand(state.command)) state.afterDashDash = 0;
      else state.optionsEnded = true;
      continue;
    }
    if (word.startsWith("--") && word.includes("=")) {
      const eq = word.indexOf("=");
      state.values.set(word.slice(0, eq), unquote(word.slice(eq + 1)));
      continue;
    }
    if (word.startsWith("-") && word !== "-") {
      const flag = findFlag(state.flags, word);
      // An optional value ([x]) is taken only with =, so the next word is not swallowed.
      if (flag?.takesValue && flag.option?.required) state.pending = flag;
      continue;
    }
    const sub = state.command === program ? findCommand(program, word) : undefined;
    if (sub) {
      state.command = sub;
      state.flags = flagsOf(sub, program);
    } else {
      state.positionals.push(word);
    }
  }
  return state;
}

function findCommand(program: Command, name: string): Command | undefined {
  return visibleCommands(program).find((c) => c.name() === name || c.aliases().includes(name));
}

function valuesOf(flag: Flag, state: LineState): Completion {
  const option = flag.option;
  const long = flag.long ?? "";
  const choices = option?.argChoices;
  if (choices?.length) return { candidates: choices.map((value) => ({ value })), mode: "plain" };
  if (long === "--server") {
    return { candidates: configuredServerNames(state.values.get("--config")), mode: "plain" };
  }
  const list = LISTS[long];
  if (list) return { candidates: list(), mode: "plain" };
  const placeholder = /<([^>]+)>|\[([^\]]+)\]/.exec(option?.flags ?? "");
  const what = (placeholder?.[1] ?? placeholder?.[2] ?? "").toLowerCase();
  if (/dir/.test(what)) return { candidates: [], mode: "dirs" };
  if (/file|path/.test(what)) return { candidates: [], mode: "files" };
  return { candidates: [], mode: "plain" };
}

/** Complete a flag's value `current`, shown after `shownPrefix` (`--fail-on=` in the `=` form). */
function completeValue(flag: Flag, state: LineState, current: string, shownPrefix: string): Completion {
  const values = valuesOf(flag, state);
  if (values.mode !== "plain") return values;
  let prefix = shownPrefix;
  let typed = unquote(current);
  if (flag.long && COMMA_LISTS.has(flag.long)) {
    const comma = typed.lastIndexOf(",");
    prefix += typed.slice(0, comma + 1);
    typed = typed.slice(comma + 1);
  }
  return { candidates: matching(values.candidates, typed, prefix), mode: "plain" };
}

function positionalCandidates(state: LineState, current: string): Completion {
  const args = state.command.registeredArguments;
  const arg = args[state.positionals.length] ?? (args.at(-1)?.variadic ? args.at(-1) : undefined);
  if (!arg) return { candidates: [], mode: "plain" };
  if (arg.argChoices?.length) {
    return {
      candidates: matching(
        arg.argChoices.map((value) => ({ value })),
        current,
      ),
      mode: "plain",
    };
  }
  if (state.command.name() === "rules" && arg.name() === "id") {
    return {
      candidates: matching(
        RULES.map((rule) => ({ value: rule.id, description: rule.summary })),
        current,
      ),
      mode: "plain",
    };
  }
  // `[command...]`: the stdio server goes after `--`.
  if (takesServerCommand(state.command) && arg === args.at(-1)) {
    return {
      candidates: matching([{ value: "--", description: "the stdio server's command follows" }], current),
      mode: "plain",
    };
  }
  return { candidates: [], mode: "files" };
}

/**
 * The completion of a command line: `words` are the words after the program name, the last
 * one being the word under the cursor ("" at a fresh word).
 */
export function complete(program: Command, words: readonly string[]): Completion {
  const current = words.at(-1) ?? "";
  const state = readLine(program, words.slice(0, -1));
  if (state.afterDashDash !== undefined) {
    return { candidates: [], mode: state.afterDashDash === 0 ? "commands" : "files" };
  }
  if (state.pending) return completeValue(state.pending, state, current, "");
  if (state.optionsEnded) return positionalCandidates(state, unquote(current));
  if (current.startsWith("--") && current.includes("=")) {
    const eq = current.indexOf("=");
    const flag = findFlag(state.flags, current.slice(0, eq));
    if (!flag?.takesValue) return { candidates: [], mode: "plain" };
    return completeValue(flag, state, current.slice(eq + 1), current.slice(0, eq + 1));
  }
  if (current.startsWith("-")) {
    const long = state.flags.flatMap((f) => (f.long ? [{ value: f.long, description: f.description }] : []));
    const short =
      current.startsWith("--") || current.length > 2
        ? []
        : state.flags.flatMap((f) => (f.short ? [{ value: f.short, description: f.description }] : []));
    const dashDash =
      takesServerCommand(state.command) && "--".startsWith(current)
        ? [{ value: "--", description: "the stdio server's command follows" }]
        : [];
    return { candidates: matching([...dashDash, ...long, ...short], current), mode: "plain" };
  }
  if (state.command === program) {
    return {
      candidates: matching(
        visibleCommands(program).map((c) => ({ value: c.name(), description: describeCommand(c) })),
        current,
      ),
      mode: "plain",
    };
  }
  return positionalCandidates(state, unquote(current));
}

/**
 * Bash splits words at COMP_WORDBREAKS (`=` and `:` by default), so `--fail-on=mi` arrives as
 * `--fail-on`, `=`, `mi`, and a reply replaces only the text after the last break. Glue the
 * pieces back together, and return what to cut off the front of each candidate.
 */
export function bashWords(words: readonly string[], breaks: string): { words: string[]; cut: number } {
  const glue: string[] = [...breaks].filter((c) => c === "=" || c === ":");
  const isBreak = (w: string) => w.length > 0 && [...w].every((c) => glue.includes(c));
  const merged: string[] = [];
  let joinNext = false;
  for (const word of words) {
    if (merged.length > 0 && (isBreak(word) || joinNext)) {
      merged[merged.length - 1] += word;
      joinNext = isBreak(word);
    } else {
      merged.push(word);
      joinNext = false;
    }
  }
  const current = merged.at(-1) ?? "";
  let cut = 0;
  for (let i = current.length - 1; i >= 0; i--) {
    if (glue.includes(current[i] as string)) {
      cut = i + 1;
      break;
    }
  }
  return { words: merged.length ? merged : [""], cut };
}

export function renderCompletion(completion: Completion, cut = 0): string {
  const lines = completion.candidates.map((c) => {
    const value = c.value.slice(cut);
    const description = (c.description ?? "").replace(/[\t\n\r]+/g, " ");
    return description ? `${value}\t${description}` : value;
  });
  return `${[...lines, `:${completion.mode}`].join("\n")}\n`;
}

export function completionScript(shell: Shell, name = "mcp-contract"): string {
  const fn = `_${name.replace(/[^A-Za-z0-9_]/g, "_")}`;
  switch (shell) {
    case "bash":
      return bashScript(name, fn);
    case "zsh":
      return zshScript(name, fn);
    case "fish":
      return fishScript(name, fn);
    case "powershell":
      return powershellScript(name);
  }
}

function bashScript(name: string, fn: string): string {
  return `# bash completion for ${name}
# Load it in this shell:    source <(${name} completions bash)
# or for every shell:       ${name} completions bash > ~/.local/share/bash-completion/completions/${name}
${fn}() {
    local cur=\${COMP_WORDS[COMP_CWORD]} out line mode value
    local -a reply=()
    out=$(MCP_CONTRACT_COMP_WORDBREAKS="$COMP_WORDBREAKS" command "\${COMP_WORDS[0]}" ${COMPLETE_COMMAND} --shell bash -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return 0
    mode=\${out##*:}
    out=\${out%:*}
    case $mode in
        files|dirs|commands)
            [[ $cur == [=:] ]] && cur=
            # bash 4+: quote and slash-terminate names as file names (bash 3.2 has no compopt).
            compopt -o filenames 2>/dev/null || true
            local what=-f
            [[ $mode == dirs ]] && what=-d
            [[ $mode == commands ]] && what=-c
            while IFS= read -r line; do reply+=("$line"); done < <(compgen "$what" -- "$cur" | sort -u)
            ;;
        *)
            while IFS= read -r line; do
                [[ -n $line ]] || continue
                value=\${line%%$'\\t'*}
                reply+=("$value")
            done <<<"$out"
            ;;
    esac
    COMPREPLY=("\${reply[@]}")
}
complete -F ${fn} ${name}
`;
}

function zshScript(name: string, fn: string): string {
  return `#compdef ${name}
# zsh completion for ${name}
# Load it in this shell (after compinit):  source <(${name} completions zsh)
# or for every shell: ${name} completions zsh > "\${fpath[1]}/_${name}"
${fn}() {
    local out mode line value description
    local -a lines described
    out=$(command \${words[1]} ${COMPLETE_COMMAND} --shell zsh -- "\${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
    lines=("\${(@f)out}")
    mode=\${lines[-1]}
    lines=("\${(@)lines[1,-2]}")
    case $mode in
        :files) _files; return ;;
        :dirs) _files -/; return ;;
        :commands) _command_names -e; return ;;
    esac
    for line in "\${lines[@]}"; do
        [[ -n $line ]] || continue
        value=\${line%%$'\\t'*}
        description=
        [[ $line == *$'\\t'* ]] && description=\${line#*$'\\t'}
        value=\${value//:/\\\\:}
        if [[ -n $description ]]; then described+=("$value:$description"); else described+=("$value"); fi
    done
    (( \${#described} )) && _describe -t values '${name}' described
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
    ${fn} "$@"
elif (( \${+functions[compdef]} )); then
    compdef ${fn} ${name}
else
    print -u2 "${name} completions: run 'autoload -U compinit && compinit' before loading them"
fi
`;
}

function fishScript(name: string, fn: string): string {
  const f = `_${fn}`;
  return `# fish completion for ${name}
# Load it in this shell:  ${name} completions fish | source
# or for every shell:     ${name} completions fish > ~/.config/fish/completions/${name}.fish
function ${f}
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    set -l program $tokens[1]
    set -e tokens[1]
    set -l out (command $program ${COMPLETE_COMMAND} --shell fish -- $tokens $current 2>/dev/null)
    or return
    set -l mode $out[-1]
    set -e out[-1]
    switch $mode
        case :files
            __fish_complete_path $current
        case :dirs
            __fish_complete_directories $current
        case :commands
            complete -C "$current"
        case '*'
            printf '%s\\n' $out
    end
end
complete -c ${name} -f -a '(${f})'
`;
}

function powershellScript(name: string): string {
  return `# PowerShell completion for ${name}
# Load it in this session:  ${name} completions powershell | Out-String | Invoke-Expression
# or for every session, add that line to $PROFILE.
Register-ArgumentCompleter -Native -CommandName '${name}', '${name}.exe' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $elements = @($commandAst.CommandElements | Where-Object { $_.Extent.StartOffset -lt $cursorPosition })
    $program = $elements[0].ToString()
    $before = @()
    foreach ($element in $elements | Select-Object -Skip 1) {
        if ($element.Extent.EndOffset -lt $cursorPosition -or $element.ToString() -ne $wordToComplete) {
            $before += $element.ToString()
        }
    }
    # The word under the cursor goes in --current=, so that an empty one survives Windows PowerShell;
    # '--' is quoted, or PowerShell would take it for its own end of parameters.
    $out = @(& $program ${COMPLETE_COMMAND} --shell powershell "--current=$wordToComplete" '--' @before 2>$null)
    # Anything but a plain list (files, directories, commands) is left to PowerShell's own completion.
    if ($out.Count -lt 2 -or $out[-1] -ne ':plain') { return }
    foreach ($line in $out[0..($out.Count - 2)]) {
        if (-not $line) { continue }
        $parts = $line -split "\`t", 2
        $description = if ($parts.Count -gt 1 -and $parts[1]) { $parts[1] } else { $parts[0] }
        [System.Management.Automation.CompletionResult]::new($parts[0], $parts[0], 'ParameterValue', $description)
    }
}
`;
}

/** `mcp-contract completions SHELL`. */
export function completionsCommand() {
  return new Command("completions")
    .summary("print the shell completion script for bash, zsh, fish or powershell")
    .description(
      "Print a completion script for your shell. It completes commands, flags, the values of --format, --fail-on and the other flags with a fixed set of values, rule ids, and --server names from the MCP client config.",
    )
    .addArgument(new Argument("<shell>", "the shell to complete in").choices(SHELLS))
    .addHelpText(
      "after",
      `
Load them in the current shell:
  bash        source <(mcp-contract completions bash)
  zsh         source <(mcp-contract completions zsh)          # after compinit
  fish        mcp-contract completions fish | source
  powershell  mcp-contract completions powershell | Out-String | Invoke-Expression

Or install them for every new shell:
  bash        mcp-contract completions bash > ~/.local/share/bash-completion/completions/mcp-contract
  zsh         mcp-contract completions zsh > "\${fpath[1]}/_mcp-contract"
  fish        mcp-contract completions fish > ~/.config/fish/completions/mcp-contract.fish
  powershell  add the line above to $PROFILE`,
    )
    .action(async (shell) => {
      await writeStdout(completionScript(shell));
    });
}

/** The hidden `__complete` command the scripts call. It never fails: a broken line completes nothing. */
export function completeCommand(program: Command) {
  return new Command(COMPLETE_COMMAND)
    .description("answer a completion request from the shell scripts (internal)")
    .argument("[words...]")
    .option("--shell <shell>")
    .option("--current <word>")
    .helpOption(false)
    .allowUnknownOption()
    .action(async (words, options) => {
      let text: string;
      try {
        let line = [...words];
        let cut = 0;
        if (options.current !== undefined) line.push(options.current);
        if (options.shell === "bash") {
          ({ words: line, cut } = bashWords(line, process.env.MCP_CONTRACT_COMP_WORDBREAKS ?? "=:"));
        }
        if (line.length === 0) line = [""];
        text = renderCompletion(complete(program, line), cut);
      } catch {
        text = ":plain\n";
      }
      await writeStdout(text);
    });
}
