// Task members (test/fixtures/task-member.ts) in processes of their own, so a test can SIGKILL one
// mid-task and start another on the same store, and a 2026-07-28 client of the tasks extension to poll them.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { killOnExit } from "./cleanup.js";
export { untilStatus as until, type Raw } from "./poll-task.js";

const MEMBER = fileURLToPath(new URL("../fixtures/task-member.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Starts a task member with `env`; resolves with its URL once it listens (rejects with its stderr if it exits first). */
export function startMember(env: Record<string, string>): Promise<{ child: ChildProcess; url: URL }> {
  const child = killOnExit(
    spawn(process.execPath, ["--import", "tsx", MEMBER], { cwd: ROOT, env: { ...process.env, ...env }, stdio: "pipe" }),
  );
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr!.on("data", (c: Buffer) => (err = (err + c).slice(-4000)));
    child.stdout!.on("data", (c: Buffer) => {
      out += c;
      const url = /^listening (\S+)$/m.exec(out)?.[1];
      if (url) resolve({ child, url: new URL(url) });
    });
    child.once("exit", (code) => reject(new Error(`task member exited (${code}) before listening: ${err}`)));
  });
}

/** A 2026-07-28 client that declares the tasks extension and form elicitation, connected to `url`. */
export async function clientOf(url: URL): Promise<Client> {
  const client = new Client({ name: "tasks-test", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} }, extensions: { "io.modelcontextprotocol/tasks": {} } },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  } as never);
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}
