// A fleet for a test: `size` member processes (test/fixtures/fleet-member.ts) on one Redis, behind a
// real HAProxy. Members get fixed ports chosen up front, so a restarted member answers where HAProxy's
// configuration expects it. Everything is stopped by stop(); a member that cannot start fails
// startFleet with its stderr.
import { spawn, type ChildProcess } from "node:child_process";
import { after, before } from "node:test";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { killOnExit } from "./cleanup.js";
import { startHaproxy } from "./haproxy.js";
import { callWith } from "./manual-client.js";
import { needs } from "./needs.js";
import { exited, freePort, stopChild } from "./processes.js";
import { startRedis, type RedisServer } from "./redis.js";

const MEMBER = fileURLToPath(new URL("../fixtures/fleet-member.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface FleetMember {
  name: string;
  url: URL;
  /** The member's author page, which ends a URL flow: `new URL(`/done/${flowId}`, pageUrl)`. */
  pageUrl: URL;
  pid: number;
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** The member's heap in use after a full gc, in bytes. */
  heap(): Promise<number>;
  /** Starts the member again on its port; `env` replaces variables for this start (a value of "" removes one). */
  restart(env?: Record<string, string>): Promise<void>;
}

export interface Fleet {
  /** The MCP endpoint through HAProxy. */
  url: URL;
  members: FleetMember[];
  stateKey: string;
  vaultKey: string;
  /** The Redis key prefix the members share. */
  prefix: string;
  stop(): Promise<void>;
}

export interface FleetOptions {
  size?: number;
  redisUrl: string;
  sticky?: boolean;
  /** Each member tags the requestState it seals with its name (MCP_ELICIT_ROUTE_TAG), and HAProxy sends a retry back to it. */
  routeTags?: boolean;
  env?: Record<string, string>;
}

export interface MemberStart {
  child: ChildProcess;
  url: URL;
  pageUrl: URL;
}

/** Spawns one member and waits for its `listening` line; rejects with its stderr when it exits first. */
export function spawnMember(env: Record<string, string>): Promise<MemberStart> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(env)) {
    if (value === "") delete childEnv[name];
    else childEnv[name] = value;
  }
  // A test process that ends without stop() (failed, or cut by the runner) still takes its members along.
  const child = killOnExit(
    spawn(process.execPath, ["--expose-gc", "--import", "tsx", MEMBER], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "pipe"],
      env: childEnv,
    }),
  );
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    let pageUrl: URL | undefined;
    child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk).slice(-8000)));
    const onData = (chunk: Buffer) => {
      stdout += chunk;
      pageUrl ??= /^author (\S+)$/m.exec(stdout)?.[1] ? new URL(/^author (\S+)$/m.exec(stdout)![1]!) : undefined;
      const listening = /^listening (\S+)$/m.exec(stdout)?.[1];
      if (listening && pageUrl) {
        child.stdout!.off("data", onData);
        child.stdout!.resume();
        child.off("exit", onExit);
        resolve({ child, url: new URL(listening), pageUrl });
      }
    };
    const onExit = (code: number | null, signal: string | null) =>
      reject(new Error(`fleet member ${env.MEMBER_NAME ?? ""} exited (${code ?? signal}) before listening:\n${stderr}`));
    child.stdout!.on("data", onData);
    child.once("exit", onExit);
    child.once("error", reject);
  });
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const size = options.size ?? 3;
  const stateKey = randomBytes(32).toString("base64url");
  const vaultKey = randomBytes(32).toString("base64url");
  const prefix = `fleet-${randomBytes(6).toString("hex")}:`;
  const ports = await Promise.all(Array.from({ length: size }, () => freePort()));
  const names = ports.map((_, i) => `member-${i + 1}`);
  const base = {
    REDIS_URL: options.redisUrl,
    FLEET_PREFIX: prefix,
    MCP_ELICIT_STATE_KEY: stateKey,
    MCP_ELICIT_VAULT_KEY: vaultKey,
    ...options.env,
  };
  const envOf = (i: number) => ({
    ...base,
    MEMBER_NAME: names[i]!,
    PORT: String(ports[i]),
    ...(options.routeTags ? { MCP_ELICIT_ROUTE_TAG: names[i]! } : {}),
  });
  const children: (ChildProcess | undefined)[] = [];
  const stopMembers = () => Promise.all(children.map((child) => child && stopChild(child)));

  let started: MemberStart[];
  try {
    started = await Promise.all(
      names.map(async (_, i) => {
        const member = await spawnMember(envOf(i));
        children[i] = member.child;
        return member;
      }),
    );
  } catch (error) {
    await stopMembers();
    throw error;
  }
  const proxy = await startHaproxy({
    backends: names.map((name, i) => ({ name, port: ports[i]! })),
    sticky: options.sticky ?? false,
    routeTags: options.routeTags ?? false,
  }).catch(async (error: unknown) => {
    await stopMembers();
    throw error;
  });

  const members: FleetMember[] = started.map((start, i) => {
    const member: FleetMember = {
      name: names[i]!,
      url: start.url,
      pageUrl: start.pageUrl,
      pid: start.child.pid!,
      async kill(signal = "SIGKILL") {
        const child = children[i];
        if (!child) return;
        const gone = exited(child);
        child.kill(signal);
        await gone;
      },
      heap() {
        const child = children[i];
        if (!child) return Promise.reject(new Error(`${names[i]} is not running`));
        return new Promise<number>((resolve, reject) => {
          let out = "";
          const onData = (chunk: Buffer) => {
            out += chunk;
            const bytes = /^heap (\d+)$/m.exec(out)?.[1];
            if (bytes === undefined) return;
            child.stdout!.off("data", onData);
            child.off("exit", onExit);
            resolve(Number(bytes));
          };
          const onExit = () => reject(new Error(`${names[i]} exited before it told its heap`));
          child.stdout!.on("data", onData);
          child.once("exit", onExit);
          child.stdin!.write("heap\n");
        });
      },
      async restart(env = {}) {
        const child = children[i];
        if (child) await stopChild(child);
        children[i] = undefined;
        const again = await spawnMember({ ...envOf(i), ...env });
        children[i] = again.child;
        member.url = again.url;
        member.pageUrl = again.pageUrl;
        member.pid = again.child.pid!;
      },
    };
    return member;
  });

  let stopped: Promise<void> | undefined;
  return {
    url: new URL("/mcp", proxy.url),
    members,
    stateKey,
    vaultKey,
    prefix,
    stop: () =>
      (stopped ??= (async () => {
        await proxy.stop();
        await stopMembers();
      })()),
  };
}

/**
 * A 2026-07-28 client of `url` (a fleet's HAProxy) that hands rounds back to the test (`call`), and
 * `servedBy`: the member that answered each tools/call (HAProxy's x-served-by), in order.
 */
export async function fleetClient(url: URL, name = "fleet-test") {
  const servedBy: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (typeof init?.body === "string" && init.body.includes('"tools/call"')) servedBy.push(response.headers.get("x-served-by") ?? "?");
    return response;
  };
  const client = new Client({ name, version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
    inputRequired: { autoFulfill: false },
  } as never);
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: recording }));
  return { client, call: callWith(client), servedBy, close: () => client.close() };
}

/**
 * One fleet for a whole test file, on a redis-server of its own: started before the file's tests, stopped after.
 * Without redis-server or HAProxy `skip` names the install line and the hooks start nothing (needs.ts).
 */
export function fleetForFile(options: Omit<FleetOptions, "redisUrl"> = {}): {
  skip: string | false;
  readonly fleet: Fleet;
  readonly redis: RedisServer;
} {
  const skip = needs("redis-server", "haproxy");
  let redis: RedisServer | undefined;
  let fleet: Fleet | undefined;
  before(async () => {
    if (skip) return;
    redis = await startRedis();
    fleet = await startFleet({ ...options, redisUrl: redis.url });
  });
  after(async () => {
    await fleet?.stop();
    await redis?.stop();
  });
  return {
    skip,
    get fleet() {
      if (!fleet) throw new Error("the file's fleet is not started (read it inside a test)");
      return fleet;
    },
    get redis() {
      if (!redis) throw new Error("the file's redis-server is not started (read it inside a test)");
      return redis;
    },
  };
}
