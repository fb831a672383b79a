// Runs the built `elicit` bin (npm test builds first), as a user would.
import { spawn, type ChildProcess } from "node:child_process";
import { within } from "./deferred.js";
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

/** How long one run of the bin may take before runCli kills it: several times a slow run on a busy 2-core machine. */
export const RUN_TIMEOUT_MS = 60_000;
/** The deadline of a test that runs the bin, as its options: a hung test fails by name, long before the file (--test-timeout) is cut. */
export const CLI_TEST = { timeout: 150_000 };

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
    const timeoutMs = options.timeoutMs ?? RUN_TIMEOUT_MS;
    const timer = setTimeout(() => {
      // Said where the test's assertion shows it (a killed run's code is null).
      stderr += `\n[runCli: elicit ${args.join(" ")} did not exit within ${timeoutMs} ms and was killed]\n`;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** `elicit serve NAME --http 0` in the background; resolves with its URL once it listens (within 60 s). */
export function serveBinHttp(name: string): Promise<{ url: string; child: ChildProcess }> {
  const listening = new Promise<{ url: string; child: ChildProcess }>((resolve, reject) => {
    const child = killOnExit(spawn(process.execPath, [BIN, "serve", name, "--http", "0"], { stdio: ["ignore", "ignore", "pipe"] }));
    let stderr = "";
    child.stderr!.on("data", (d) => {
      stderr += d;
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m) resolve({ url: m[1]!, child });
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return within(listening, 60_000, `elicit serve ${name} --http to listen`);
}
