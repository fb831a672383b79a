// A fetch entry served by Deno, Bun (their binaries from the devDependencies `deno` and `bun`) or Node: the
// entry file is run as a server author runs it, on 127.0.0.1 and a port the runtime picks, and the test
// waits for the line it prints when it listens (no sleeps; a deadline names what it read instead).
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { killOnExit } from "./cleanup.js";
import { packagedPath } from "./needs.js";
import { stopChild } from "./processes.js";
import { watchText } from "./stream-text.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

export type FetchRuntime = "deno" | "bun" | "node";

/** The runtime's binary: Node is this one (with tsx), Deno and Bun come from node_modules/.bin. */
const binary = (runtime: FetchRuntime) => (runtime === "node" ? process.execPath : packagedPath(runtime));

/** How each runtime runs a TypeScript entry of this repository (Deno maps its `.js` imports to the `.ts` files). */
const COMMANDS: Record<FetchRuntime, (entry: string) => string[]> = {
  node: (entry) => ["--import", "tsx", entry],
  deno: (entry) => [
    "run",
    "--sloppy-imports",
    "--allow-net",
    "--allow-env",
    "--allow-read",
    "--allow-write",
    "--allow-sys",
    "--allow-ffi",
    entry,
  ],
  bun: (entry) => ["run", entry],
};

export interface RuntimeServer {
  runtime: FetchRuntime;
  /** Where it listens: http://127.0.0.1:PORT/. */
  url: URL;
  child: ChildProcess;
  /** What it printed on stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Runs `entry` (relative to the repository) under `runtime` with HOST=127.0.0.1 and PORT=0, plus `env`;
 * resolves once it printed "Listening on http://127.0.0.1:PORT/".
 */
export async function startRuntime(
  runtime: FetchRuntime,
  entry: string,
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<RuntimeServer> {
  const child = killOnExit(
    spawn(binary(runtime), COMMANDS[runtime](resolve(root, entry)), {
      cwd: root,
      env: { ...process.env, HOST: "127.0.0.1", PORT: "0", NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  // Deno.serve says where it listens on stderr, the other entries on stdout: both are watched as one text.
  const both = new PassThrough();
  child.stdout.pipe(both, { end: false });
  child.stderr.pipe(both, { end: false });
  const said = watchText(both, options.timeoutMs ?? 60_000);
  const output = () => said.text();
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code, signal) =>
      reject(new Error(`${runtime} ${entry} exited (${code ?? signal}) before listening:\n${output()}`)),
    ),
  );
  exited.catch(() => {});
  const listening = said.waitFor(/Listening on (http:\/\/127\.0\.0\.1:\d+\/)/);
  listening.catch(() => {});
  try {
    const [, address] = await Promise.race([listening, exited]);
    return { runtime, url: new URL(address!), child, output, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}
