// Runs the built `elicit` bin (npm test builds first), as a user would.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { killOnExit } from "./cleanup.js";

export const BIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** How long the bin ran. */
  ms: number;
}

/** Runs the bin with `input` on stdin; `env` is added to the parent's environment. */
export function runCli(
  args: string[],
  options: { input?: string; timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = killOnExit(spawn(process.execPath, [BIN, ...args], { stdio: "pipe", env: { ...process.env, ...options.env } }));
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.end(options.input ?? "");
  });
}
