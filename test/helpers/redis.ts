// A real redis-server for a test: a free 127.0.0.1 port, no persistence, its own temporary directory
// (removed on stop). Debian's redis-server package provides the binary (.ci/run installs it); it is found
// as test/helpers/needs.ts finds it ($ELICIT_REDIS_SERVER, the PATH, the usual places).
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { redisStore, type FleetStore } from "../../src/store/index.js";
import { killOnExit, removeOnExit } from "./cleanup.js";
import { needs, programPath } from "./needs.js";
import { freePort, stopChild } from "./processes.js";

export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const command = programPath("redis-server");
  // Another process may take the probed port before redis binds it: try a few.
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), "mcp-elicit-redis-"));
    // A test process that ends without stop() (failed, or cut by the runner) still takes its server and folder along.
    const unregisterDir = removeOnExit(dir);
    try {
      const child = await launch(command, port, dir);
      let stopped: Promise<void> | undefined;
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        stop: () =>
          (stopped ??= stopChild(child).finally(() => {
            rmSync(dir, { recursive: true, force: true });
            unregisterDir();
          })),
      };
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      unregisterDir();
      lastError = error;
    }
  }
  throw lastError;
}

function launch(command: string, port: number, dir: string): Promise<ChildProcess> {
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no"];
  const child = killOnExit(spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] }));
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) {
        child.stdout!.off("data", onData);
        child.stdout!.resume(); // keep draining, so a chatty server never blocks on a full pipe
        resolve(child);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output.slice(-2000)}`)));
  });
}

/**
 * Two stores on one real redis-server under a fresh key prefix, each on its own connection as each fleet
 * member has: started in a `before` hook of the calling file, closed in its `after`. `skip` is the reason
 * when redis-server is missing (then the hooks set nothing up).
 */
export function redisMembers(name: string): { skip: string | false; a: FleetStore; b: FleetStore } {
  const members = { skip: needs("redis-server") } as { skip: string | false; a: FleetStore; b: FleetStore };
  let redis: RedisServer | undefined;
  before(async () => {
    if (members.skip) return;
    redis = await startRedis();
    const prefix = `${name}-${randomBytes(4).toString("hex")}:`;
    [members.a, members.b] = await Promise.all([redisStore({ url: redis.url, prefix }), redisStore({ url: redis.url, prefix })]);
  });
  after(async () => {
    await Promise.all([members.a?.close(), members.b?.close()]);
    await redis?.stop();
  });
  return members;
}
