// browserOpener, the one way a consented URL is opened: BROWSER (a list, `%s`, no shell), --no-browser,
// no display, and the check that something opened. Real child processes (node itself as the browser);
// waits are on their exit, each bounded by the opener's own settle window.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browserOpener, BrowserNotOpenedError } from "../../src/common/open-url.js";
import { tempDirs } from "../helpers/pty.js";

const tempDir = tempDirs("elicit-open-url-");
const NODE = process.execPath;
/** Long enough that a failing opener exits within it even on a busy machine; an opener that succeeds ends the wait at once. */
const PATIENT = { settleMs: 60_000 };
const URL_WITH_SPACES = "http://127.0.0.1:9/pay?x=a b;c&d=$(touch /tmp/x)";

/** A "browser" (node and a script in a temp folder: no colon, no space) that writes its URL and pid to `file`, then exits with `code` or stays. */
function recorder(file: string, code: number | "stay"): string {
  const script = join(tempDir(), "browser.cjs");
  writeFileSync(
    script,
    `const [file, code, ...rest] = process.argv.slice(2);
require("fs").writeFileSync(file, JSON.stringify({ argv: rest, pid: process.pid }));
if (code === "stay") setInterval(() => {}, 1000); else process.exit(Number(code));`,
  );
  return `${NODE} ${script} ${file} ${code}`;
}

const rejectsWith = (promise: Promise<void>, message: RegExp) =>
  assert.rejects(promise, (error: unknown) => error instanceof BrowserNotOpenedError && message.test(error.message));

describe("browserOpener", { timeout: 120_000 }, () => {
  test("BROWSER that exits 0: opened, with the URL as one argument (no shell)", async () => {
    const file = join(tempDir(), "argv.json");
    await browserOpener({ env: { BROWSER: recorder(file, 0) }, ...PATIENT })(URL_WITH_SPACES);
    assert.deepEqual(JSON.parse(readFileSync(file, "utf8")).argv, [URL_WITH_SPACES]);
  });

  test("BROWSER that fails: not opened, saying how; a list is tried in turn", async () => {
    const file = join(tempDir(), "argv.json");
    await rejectsWith(
      browserOpener({ env: { BROWSER: recorder(file, 3) }, ...PATIENT })("http://127.0.0.1:9/"),
      /^could not start the browser BROWSER names: ".*" exited with code 3$/,
    );
    assert.ok(existsSync(file), "it ran");
    await rejectsWith(
      browserOpener({ env: { BROWSER: "/nonexistent/elicit-browser" }, ...PATIENT })("http://127.0.0.1:9/"),
      /^could not start the browser BROWSER names: "\/nonexistent\/elicit-browser" could not be started \(ENOENT\)$/,
    );
    const second = join(tempDir(), "argv.json");
    await browserOpener({ env: { BROWSER: `/nonexistent/elicit-browser:${recorder(second, 0)}` }, ...PATIENT })("http://127.0.0.1:9/");
    assert.ok(existsSync(second), "the second command of the list opened it");
  });

  test("a browser still running after the settle window counts as opened", async () => {
    const file = join(tempDir(), "argv.json");
    await browserOpener({ env: { BROWSER: recorder(file, "stay") }, settleMs: 300 })("http://127.0.0.1:9/");
    const deadline = Date.now() + 30_000;
    while (!existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    process.kill(JSON.parse(readFileSync(file, "utf8")).pid as number, "SIGKILL");
  });

  test("--no-browser starts nothing; neither does a Linux session without a display when BROWSER is unset", async () => {
    const file = join(tempDir(), "argv.json");
    await rejectsWith(
      browserOpener({ noBrowser: true, env: { BROWSER: recorder(file, 0) } })("http://127.0.0.1:9/"),
      /^not opening a browser \(--no-browser\)$/,
    );
    assert.ok(!existsSync(file), "BROWSER was not run");
    if (process.platform === "linux")
      await rejectsWith(browserOpener({ env: {} })("http://127.0.0.1:9/"), /^no display to open a browser on$/);
  });
});
