#!/usr/bin/env node
// `npx mcp-contract …`: run this platform's mcp-contract binary with the same arguments,
// streams and exit code; a binary ended by a signal ends this process by the same signal.
import { spawn } from "node:child_process";
import { binaryPath } from "../lib/binary.js";

let bin;
try {
  bin = binaryPath();
} catch (error) {
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(2);
}

const child = spawn(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: false });
// Ctrl-C and Ctrl-\ reach the binary from the terminal by themselves (the whole foreground
// process group gets them): this process only waits for it. A SIGTERM or SIGHUP sent to this
// process alone is passed on.
const ignored = process.platform === "win32" ? ["SIGINT"] : ["SIGINT", "SIGQUIT"];
const forwarded = process.platform === "win32" ? [] : ["SIGTERM", "SIGHUP"];
const signals = [...ignored, ...forwarded];
for (const signal of ignored) process.on(signal, () => {});
for (const signal of forwarded) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}

child.on("error", (error) => {
  process.stderr.write(`error: cannot run ${bin}: ${error.message}\n`);
  process.exit(2);
});
child.on("exit", (code, signal) => {
  if (signal) {
    for (const s of signals) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
