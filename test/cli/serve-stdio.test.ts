// `elicit serve travel` on stdio lives as long as its client: it exits when the client closes its stdin,
// and also when the client is gone before it read an answer (the write to stdout fails and the SDK stops
// reading stdin, so its end never comes). The travel server's pages listeners used to keep such a server
// running with no client: a host killed mid-start left one behind for good.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { BIN } from "../helpers/cli.js";
import { killOnExit } from "../helpers/cleanup.js";
import { within } from "../helpers/deferred.js";
import { exited, stopChild } from "../helpers/processes.js";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "1.0.0" } },
};

/** `serve travel` on stdio, once it answered initialize (so its pages listen). */
async function servedTravel() {
  const child = killOnExit(spawn(process.execPath, [BIN, "serve", "travel"], { stdio: ["pipe", "pipe", "pipe"] }));
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const answered = new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`serve exited (${code}) before answering:\n${stderr}`)));
  });
  child.stdin!.write(`${JSON.stringify(INITIALIZE)}\n`);
  await within(answered, 60_000, "serve travel's answer to initialize");
  return { child, stderr: () => stderr };
}

describe("elicit serve travel on stdio ends with its client", { timeout: 120_000 }, () => {
  test("the client closes stdin: the server exits 0", async () => {
    const { child } = await servedTravel();
    try {
      child.stdin!.end();
      await within(exited(child), 15_000, "serve travel to exit after its stdin closed");
      assert.equal(child.exitCode, 0);
    } finally {
      await stopChild(child, "SIGKILL"); // a server still running would also keep this file from ending
    }
  });

  test("the client is gone but stdin stays open (stdout broken): the next answer fails and the server exits", async () => {
    const { child, stderr } = await servedTravel();
    try {
      child.stdout!.destroy();
      child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" })}\n`);
      await within(exited(child), 15_000, "serve travel to exit after its stdout broke");
      assert.equal(child.exitCode, 0, stderr());
    } finally {
      await stopChild(child, "SIGKILL");
    }
  });
});
