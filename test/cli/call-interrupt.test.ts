// Ctrl-C while `elicit call` waits with no question open (its server starting, here one that never
// answers): one sentence says what was stopped, the server it started goes with it, the exit code is 130,
// and no error follows the sentence. Node's default was to exit at once and silently.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN } from "../helpers/cli.js";
import { removeOnExit } from "../helpers/cleanup.js";
import { processGone } from "../helpers/deferred.js";
import { KEY, NO_MODEL_ENV, SLOW_MS, startProgram } from "../helpers/pty.js";

test("Ctrl-C while elicit call connects: a sentence, exit 130, the server stopped", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "elicit-gate-"));
  const unregister = removeOnExit(dir);
  const pidFile = join(dir, "server.pid");
  // A server that never answers, and writes its pid so the test can see it is gone afterwards.
  const server = [
    process.execPath,
    "-e",
    `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1e6)`,
  ];
  const s = startProgram(process.execPath, [BIN, "call", "book_trip", "--args", "{}", "--", ...server], {
    env: NO_MODEL_ENV,
  });
  try {
    await s.waitFor(/Connecting to /, { timeoutMs: SLOW_MS });
    await s.waitUntil(() => existsSync(pidFile), "the server started", SLOW_MS);
    const pid = Number(readFileSync(pidFile, "utf8"));
    s.press(KEY.ctrlC);
    await s.waitFor("elicit: stopped (Ctrl-C) before book_trip was called.", { timeoutMs: SLOW_MS });
    assert.equal(await s.exitCode(SLOW_MS), 130);
    assert.doesNotMatch(
      s.screen().slice(s.screen().lastIndexOf("stopped (Ctrl-C)")),
      /^elicit: (?!stopped)/m,
      "no error after the sentence",
    );
    assert.ok(s.cursorVisible(), "the cursor is shown again");
    await processGone(pid, SLOW_MS, "the server elicit started");
  } finally {
    s.close();
    rmSync(dir, { recursive: true, force: true });
    unregister();
  }
});
