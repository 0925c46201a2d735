/**
 * The text-level pieces of MCP client config files: comments (VS Code and Cursor read their
 * mcp.json as JSONC), variables in values, and VS Code's `envFile`.
 *
 * Variables, in every config file (each client documents its own subset; accepting all of
 * them everywhere costs nothing and a config copied between clients keeps working):
 * - `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}`, `${/}`;
 * - `${env:NAME}` (VS Code, Cursor) and `${NAME}`, `${NAME:-default}` (Claude Code's .mcp.json);
 * - `${input:ID}` is refused: VS Code fills it in with a prompt, and a check in CI has nobody
 *   to ask. Other `${kind:...}` forms (`${config:…}`, `${command:…}`) are refused likewise.
 */
import { homedir } from "node:os";
import { basename, resolve, sep } from "node:path";
import { UsageError } from "../errors.ts";
import { ENV_FILE_MAX_BYTES, readUserFile } from "./read-user-file.ts";

export interface ExpandContext {
  /** The config file, as shown in messages. */
  file: string;
  /** The folder `${workspaceFolder}` names and relative paths resolve against. */
  workspace: string;
  env: Record<string, string | undefined>;
}

/** JSONC → JSON: drop `//` and `/* *\/` comments, then trailing commas, leaving strings alone. */
export function stripJsonComments(text: string): string {
  return scan(scan(text, "comments"), "commas");
}

function scan(text: string, drop: "comments" | "commas"): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (drop === "comments" && c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (drop === "comments" && c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (drop === "commas" && c === "," && closesNext(text, i + 1)) {
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Only blanks between `from` and a closing bracket. */
function closesNext(text: string, from: number): boolean {
  const blanks = /\s*/y;
  blanks.lastIndex = from;
  blanks.exec(text);
  const next = text[blanks.lastIndex];
  return next === "}" || next === "]";
}

const PLAIN = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/** Expand the variables of one config value; every failure is a usage error naming the file. */
export function expandVariables(value: string, ctx: ExpandContext): string {
  return value.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    switch (inner) {
      case "workspaceFolder":
        return ctx.workspace;
      case "workspaceFolderBasename":
        return basename(ctx.workspace);
      case "userHome":
        return homedir();
      case "pathSeparator":
      case "/":
        return sep;
    }
    const colon = inner.indexOf(":");
    const kind = colon > 0 ? inner.slice(0, colon) : "";
    if (kind === "env") return envValue(inner.slice(colon + 1), whole, ctx);
    if (kind === "input") {
      throw new UsageError(
        `${ctx.file} uses ${whole}, which VS Code fills in by prompting for it; mcp-contract cannot prompt (and a CI job has nobody to ask). Replace it with \${env:NAME} and set the environment variable NAME (in CI, from a secret).`,
      );
    }
    const plain = PLAIN.exec(inner);
    if (plain) {
      const [, name = "", fallback] = plain;
      const v = ctx.env[name];
      if (v !== undefined) return v;
      if (fallback !== undefined) return fallback;
      return envValue(name, whole, ctx);
    }
    if (/^[A-Za-z]+:/.test(inner)) {
      throw new UsageError(
        `${ctx.file} uses ${whole}, a variable mcp-contract cannot resolve outside the editor. Write the value itself, or use \${env:NAME} and set NAME in the environment.`,
      );
    }
    return whole;
  });
}

function envValue(name: string, whole: string, ctx: ExpandContext): string {
  const v = ctx.env[name];
  if (v !== undefined) return v;
  throw new UsageError(
    `${ctx.file} uses ${whole}, but the environment variable ${name} is not set. Set it (export ${name}=…), or give the value in the config file.`,
  );
}

/**
 * VS Code's `envFile`: KEY=VALUE lines, `#` comments, an optional `export `, values optionally
 * in single quotes (literal) or double quotes (with \n, \t, \" and \\ escapes).
 */
export function readEnvFile(path: string, ctx: ExpandContext): [string, string][] {
  const file = resolve(ctx.workspace, path);
  // Bounded and regular files only: an envFile that is a device or a FIFO is refused, not read forever.
  const text = readUserFile(file, {
    missing: `${ctx.file} names the envFile ${path}, which cannot be read (looked at ${file}). Create it, or remove "envFile".`,
    aKind: `an envFile (named by ${ctx.file})`,
    theKind: `the envFile named by ${ctx.file}`,
    maxBytes: ENV_FILE_MAX_BYTES,
  });
  const pairs: [string, string][] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!match) {
      throw new UsageError(
        `${file}:${index + 1}: expected KEY=VALUE in the envFile of ${ctx.file}; fix or remove the line.`,
      );
    }
    pairs.push([match[1] as string, envFileValue(match[2] as string)]);
  });
  return pairs;
}

function envFileValue(raw: string): string {
  if (raw.startsWith("'")) {
    const end = raw.indexOf("'", 1);
    return end < 0 ? raw.slice(1) : raw.slice(1, end);
  }
  if (raw.startsWith('"')) {
    let out = "";
    for (let i = 1; i < raw.length; i++) {
      const c = raw[i] as string;
      if (c === '"') break;
      if (c === "\\" && i + 1 < raw.length) {
        const n = raw[++i] as string;
        out += n === "n" ? "\n" : n === "t" ? "\t" : n === "r" ? "\r" : n;
      } else out += c;
    }
    return out;
  }
  // Unquoted: a ` #` starts a comment.
  return raw.replace(/\s+#.*$/, "").trim();
}
