// `elicit call` against a 2026-07-28 server whose tools run as tasks (`elicit serve conformance`), and
// `elicit tasks get|result|cancel|list` coming back to a task after elicit was stopped.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { BIN, CLI_TEST, runCli, serveBinHttp } from "../helpers/cli.js";
import { killOnExit } from "../helpers/cleanup.js";
import { within } from "../helpers/deferred.js";
import { scratchFiles } from "../helpers/files.js";

const { file } = scratchFiles("elicit-tasks-");
const DELETE = file("delete.yaml", "- match: Delete\n  action: accept\n  content: { confirm: true }\n");
const ID = /task ([0-9a-f-]{36})/;

const serveConformance = () => serveBinHttp("conformance");

/** Runs `elicit call` until its first task report, then stops it with SIGINT; resolves with its stderr. */
function callThenStop(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = killOnExit(spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "ignore", "pipe"] }));
  let stderr = "";
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on("close", (code) => resolve({ code, stderr })));
  child.stderr.on("data", (d) => {
    stderr += d;
    if (ID.test(stderr)) child.kill("SIGINT");
  });
  return within(done, 60_000, "elicit call to report its task and stop");
}

describe("elicit and tasks (2026-07-28)", { concurrency: 2 }, () => {
  let server: { url: string; child: ChildProcess };
  before(async () => (server = await serveConformance()));
  after(() => server.child.kill("SIGTERM"));

  test("elicit call follows the task: its status on stderr, its question answered, its result on stdout", CLI_TEST, async () => {
    const r = await runCli(["call", "confirm_delete", "--args", '{"filename":"old.log"}', "--answers", DELETE, "--url", server.url]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).content, [{ type: "text", text: "Deleted old.log" }]);
    assert.match(r.stderr, /^elicit: The task is running on the server \(task [0-9a-f-]{36}\)$/m);
    assert.match(r.stderr, /answers entry \[0\] \(match "Delete"\) answered "Delete old\.log\?": accept\./);
    assert.match(r.stderr, /^elicit: The task is finished \(task [0-9a-f-]{36}\)$/m);
  });

  test("a failed task is the call's JSON-RPC error: exit 1, the error as JSON on stdout", CLI_TEST, async () => {
    const r = await runCli(["call", "protocol_error_job", "--url", server.url]);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { error: { code: -32603, message: "The job's backend is unavailable." } });
  });

  test("stopped, elicit says how to come back; tasks get, cancel and get again see the task on the server", CLI_TEST, async () => {
    const stopped = await callThenStop(["call", "slow_compute", "--args", '{"seconds":120}', "--url", server.url]);
    const id = ID.exec(stopped.stderr)![1]!;
    assert.match(stopped.stderr, new RegExp(`task ${id} goes on on the server: \`elicit tasks result ${id}\``));
    const got = await runCli(["tasks", "get", id, "--url", server.url]);
    assert.equal(got.code, 0, got.stderr);
    assert.equal(got.stdout, `${id}  working\n`);
    const cancelled = await runCli(["tasks", "cancel", id, "--url", server.url]);
    assert.equal(cancelled.code, 0, cancelled.stderr);
    const deadline = Date.now() + 20_000;
    let status = "";
    while (status !== "cancelled" && Date.now() < deadline)
      status = JSON.parse((await runCli(["tasks", "get", id, "--json", "--url", server.url])).stdout).status;
    assert.equal(status, "cancelled");
  });

  test("tasks result comes back to a task and answers its question", CLI_TEST, async () => {
    // A task left waiting for its question: elicit call stopped at its first report.
    const stopped = await callThenStop(["call", "confirm_delete", "--args", '{"filename":"later.txt"}', "--url", server.url]);
    const id = ID.exec(stopped.stderr)![1]!;
    const r = await runCli(["tasks", "result", id, "--answers", DELETE, "--url", server.url]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).content, [{ type: "text", text: "Deleted later.txt" }]);
  });

  test("an unknown id, a missing id, list on 2026-07-28: exit 2 with the reason", CLI_TEST, async () => {
    const unknown = await runCli(["tasks", "get", "no-such-task", "--url", server.url]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no task no-such-task on this server \(unknown, expired, or another caller's\) \(-32602\)/);
    const missing = await runCli(["tasks", "get", "--url", server.url]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /elicit tasks get needs the task's id/);
    const list = await runCli(["tasks", "list", "--url", server.url]);
    assert.equal(list.code, 2);
    assert.match(list.stderr, /2026-07-28 servers list no tasks/);
  });
});
