// A real HAProxy (Debian's haproxy) in front of test backends: round robin, SSE-friendly timeouts, health
// checks every 200 ms so a killed backend leaves rotation within about a second, and optionally sticky
// sessions on the Mcp-Session-Id header (learned from the response), and optionally a 2026-07-28 retry
// routed back to the member whose route tag its requestState carries. Every response carries
// `x-served-by: <backend name>`, so a test can see where each request went.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killOnExit, removeOnExit } from "./cleanup.js";
import { programPath } from "./needs.js";
import { freePort, stopChild } from "./processes.js";

export interface HaproxyOptions {
  backends: { name: string; port: number }[];
  /** Route a session's requests to the backend that created it (stick table on Mcp-Session-Id). */
  sticky?: boolean;
  /**
   * Send a POST whose `params.requestState` starts with `<tag>.` to the backend named `<tag>` (members
   * started with MCP_ELICIT_ROUTE_TAG = their backend name), else balance as usual; a backend that is
   * down is skipped (round robin), and one that refuses the connection is left for another (redispatch).
   */
  routeTags?: boolean;
  /** The path the health check asks for (default /mcp: any answer below 500 counts as up). */
  checkPath?: string;
}

export interface Haproxy {
  url: string;
  stop(): Promise<void>;
}

/** The configuration, as docs/server/put-a-balancer-in-front.md shows it (the frontend's port and the backends filled in). */
export function haproxyConfig(port: number, { backends, sticky = false, routeTags = false, checkPath = "/mcp" }: HaproxyOptions): string {
  const name = /^[A-Za-z0-9_.-]{1,64}$/;
  for (const backend of backends)
    if (!name.test(backend.name) || !Number.isInteger(backend.port)) throw new TypeError(`haproxy: bad backend ${JSON.stringify(backend)}`);
  // No maxconn: HAProxy derives it from the file descriptor limit (about half of \`ulimit -n\`).
  return `defaults
  mode http
  option redispatch
  retries 3
  timeout connect 2s
  timeout client 1h
  timeout server 1h
  timeout tunnel 1h
  timeout http-request 30s
  timeout http-keep-alive 60s
  timeout check 2s

frontend mcp
  bind 127.0.0.1:${port}
  default_backend members

backend members
  balance roundrobin
  option httpchk
  http-check send meth GET uri ${checkPath} ver HTTP/1.1 hdr host 127.0.0.1
  http-check expect rstatus ^[1234]
  http-response set-header x-served-by %[srv_name]
${
  routeTags
    ? `  option http-buffer-request
  http-request set-var(txn.route) req.body,json_query('$.params.requestState'),field(1,.) if METH_POST
  use-server %[var(txn.route)] if { var(txn.route) -m found }
`
    : ""
}${
    sticky
      ? `  stick-table type string len 64 size 100k expire 30m
  stick on req.hdr(mcp-session-id)
  stick store-response res.hdr(mcp-session-id)
`
      : ""
  }${backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check inter 200 fall 2 rise 1`).join("\n")}
`;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

export async function startHaproxy(options: HaproxyOptions): Promise<Haproxy> {
  const command = programPath("haproxy");
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "mcp-elicit-haproxy-"));
  const file = join(dir, "haproxy.cfg");
  writeFileSync(file, haproxyConfig(port, options));
  // A test process that ends without stop() (failed, or cut by the runner) still takes HAProxy and its folder along.
  const unregisterDir = removeOnExit(dir);
  const child = killOnExit(spawn(command, ["-f", file, "-db"], { stdio: ["ignore", "ignore", "pipe"] }));
  let output = "";
  child.stderr!.on("data", (chunk: Buffer) => (output = (output + chunk).slice(-4000)));
  const stop = async () => {
    await stopChild(child, "SIGTERM", 2000);
    rmSync(dir, { recursive: true, force: true });
    unregisterDir();
  };
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`haproxy exited (${child.exitCode}) before it accepted connections:\n${output}`);
    }
    if (await accepts(port)) break;
    if (attempt > 200) {
      await stop();
      throw new Error(`haproxy did not accept connections on 127.0.0.1:${port} within 10 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  let stopped: Promise<void> | undefined;
  return { url: `http://127.0.0.1:${port}`, stop: () => (stopped ??= stop()) };
}
