/**
 * `mcp-contract auth`: sign in to an OAuth-protected MCP server once, so that snapshot, check
 * and lint against its --url use (and refresh) the stored token; list and remove sign-ins; and
 * walk discovery without signing in (--check). The OAuth client (src/auth) loads only here.
 */
import { Command, InvalidArgumentError, Option } from "@commander-js/extra-typings";
import type { ActionOptions } from "../auth/actions.ts";
import { UsageError } from "../errors.ts";
import { type GlobalOptions, makeUi, writeStdout } from "./globals.ts";

/** The sign-in's own options (src/auth/actions.ts), and what picks the action. */
interface AuthOptions extends ActionOptions {
  url?: string;
  clientCredentials?: boolean;
  status?: boolean;
  logout?: boolean;
  check?: boolean;
}

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > 65535) {
    throw new InvalidArgumentError("expected a port number from 1 to 65535.");
  }
  return n;
}

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 86_400) throw new InvalidArgumentError("expected 1 to 86400 seconds.");
  return n;
}

export function authCommand() {
  return (
    new Command("auth")
      .summary("sign in to an OAuth-protected MCP server; list or remove sign-ins")
      .description(
        "Sign in to a hosted MCP server that asks for OAuth, as the MCP authorization spec describes: discovery from the server's 401 and its protected resource metadata (RFC 9728), the authorization server's metadata (RFC 8414, OpenID Connect), a pre-registered client, a client ID metadata document or dynamic registration (RFC 7591), then the authorization code with PKCE, the resource parameter (RFC 8707) and the iss check (RFC 9207), answered on a loopback address. Where the authorization server offers DPoP (RFC 9449) with ES256, the tokens are bound to a key made for the sign-in and stored with them, and every request carries a fresh proof. snapshot, check and lint against the same --url then use the stored token, refreshed when it expires.",
      )
      .addOption(new Option("--url <url>", "the MCP server to sign in to (its Streamable HTTP URL)"))
      .addOption(
        new Option("--scope <scopes>", "scopes to ask for, space-separated (default: what the server asks for)"),
      )
      .addOption(new Option("--client-id <id>", "a client registered in advance").env("MCP_CONTRACT_CLIENT_ID"))
      .addOption(new Option("--client-secret <secret>", "its secret, if it has one").env("MCP_CONTRACT_CLIENT_SECRET"))
      .addOption(
        new Option(
          "--client-metadata-url <url>",
          "an https:// client ID metadata document to identify with, where the server supports them",
        ).env("MCP_CONTRACT_CLIENT_METADATA_URL"),
      )
      .addOption(
        new Option("--port <n>", "the loopback callback port (fix it to forward it with ssh -L)").argParser(port),
      )
      .addOption(new Option("--no-open", "print the sign-in address instead of opening a browser"))
      // mcp-query's spelling: --open false / --open true (a value, where ours is a switch).
      .addOption(
        new Option("--open <bool>", "mcp-query's spelling: --open false is --no-open, --open true opens the browser")
          .argParser(openValue)
          .helpGroup("Compatibility (mcp-covenant, mcp-query):"),
      )
      .addOption(new Option("--client-credentials", "sign in without a browser (CI): the client credentials grant"))
      .addOption(new Option("--wait <seconds>", "how long to wait for the browser").argParser(seconds).default(300))
      .addOption(new Option("--status", "list the stored sign-ins (issuer, resource, scopes, expiry; never a token)"))
      .addOption(
        new Option(
          "--logout",
          "remove the stored sign-ins (with --url, only that server's) and revoke their tokens where the server allows",
        ),
      )
      .addOption(new Option("--check", "walk discovery and registration without signing in; say what would happen"))
      .addHelpText(
        "after",
        `
Examples:
  $ mcp-contract auth --url https://mcp.example.com/mcp
  $ mcp-contract snapshot --url https://mcp.example.com/mcp          # uses the stored token
  $ mcp-contract auth --url https://mcp.example.com/mcp --port 8765 --no-open   # over SSH: ssh -L 8765:127.0.0.1:8765
  $ MCP_CONTRACT_CLIENT_ID=ci MCP_CONTRACT_CLIENT_SECRET=… mcp-contract auth --url URL --client-credentials
  $ mcp-contract auth --check --url https://mcp.example.com/mcp
  $ mcp-contract auth --status
  $ mcp-contract auth --logout --url https://mcp.example.com/mcp

Tokens are stored under $XDG_CONFIG_HOME/mcp-contract/credentials (else the OS's config directory), directory 0700, files 0600.`,
      )
      .action(async (rawOptions, cmd) => {
        const options = rawOptions as AuthOptions;
        const ui = makeUi(cmd.optsWithGlobals() as GlobalOptions);
        if (options.clientSecret) ui.addSecrets([options.clientSecret]);
        const modes = (["status", "logout", "check", "clientCredentials"] as const).filter((m) => options[m]);
        if (modes.length > 1) {
          throw new UsageError(
            `give one of --status, --logout, --check and --client-credentials, not ${modes.length}.`,
          );
        }
        const url = options.url ? parseUrl(options.url) : undefined;
        const actions = await import("../auth/actions.ts");
        if (options.status) {
          if (url) throw new UsageError("--status lists every sign-in; leave out --url.");
          return writeStdout(actions.statusText());
        }
        if (options.logout) return actions.logout(url, ui);
        if (!url) {
          throw new UsageError(
            "auth needs --url URL, the MCP server to sign in to (or --status, or --logout). Example: mcp-contract auth --url https://mcp.example.com/mcp",
          );
        }
        if (options.check) return writeStdout(await actions.checkText(url, options));
        if (options.clientCredentials) {
          for (const flag of ["port", "wait"] as const) {
            if (cmd.getOptionValueSource(flag) === "cli") {
              throw new UsageError(`--${flag} is for a browser sign-in; --client-credentials needs no browser.`);
            }
          }
          return actions.clientCredentials(url, options, ui);
        }
        return actions.signIn(url, options, ui);
      })
  );
}

/** --open's value, as mcp-query took it: true or false (yes/no and 1/0 too). */
function openValue(text: string): boolean {
  const value = text.trim().toLowerCase();
  if (["true", "yes", "1", "on"].includes(value)) return true;
  if (["false", "no", "0", "off"].includes(value)) return false;
  throw new UsageError(`--open takes true or false, got ${JSON.stringify(text)}; or use --no-open.`);
}

function parseUrl(text: string): URL {
  try {
    const url = new URL(text);
    if (url.protocol === "http:" || url.protocol === "https:") return url;
  } catch {
    // reported below
  }
  throw new UsageError(
    `--url ${JSON.stringify(text)} is not an http:// or https:// URL; expected e.g. https://mcp.example.com/mcp.`,
  );
}

export type { AuthOptions };
