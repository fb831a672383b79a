// examples/oauth-host.ts as a reader runs it, without a terminal: it prints the sign-in address,
// headless Chromium signs in as demo/demo on the local OpenID provider's pages, and the host lists
// the protected server's tools.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { launchChromium } from "../helpers/chromium.js";
import { needs } from "../helpers/needs.js";
import { killOnExit } from "../helpers/cleanup.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
let browser: Browser;
// Without Chromium the whole file is skipped, and its hooks set nothing up (test/helpers/needs.ts).
const skip = needs("chromium");
before(async () => {
  if (skip) return;
  browser = await launchChromium();
});
after(() => browser?.close());

test("examples/oauth-host.ts: the address printed, the sign-in in the browser, then the tools", { skip, timeout: 60_000 }, async () => {
  const child = killOnExit(
    spawn(process.execPath, ["--import", "tsx", "examples/oauth-host.ts"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] }),
  );
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exit = new Promise<number | null>((resolve) => child.on("close", resolve));
  const address = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      stdout += d;
      const m = /^Sign in at 127\.0\.0\.1: (http:\/\/\S+)$/m.exec(stdout);
      if (m) resolve(m[1]!);
    });
    child.on("close", (code) => reject(new Error(`the example exited (${code}) before printing the address:\n${stdout}\n${stderr}`)));
  });
  const page = await browser.newPage();
  try {
    await page.goto(address);
    await page.getByLabel("Username").fill("demo");
    await page.getByLabel("Password").fill("demo");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await page.getByText("You are signed in").waitFor();
    assert.equal(await exit, 0, stderr);
    assert.equal(stdout.trimEnd().split("\n").at(-1), "Signed in; the server offers: book_trip");
  } finally {
    child.kill();
    await page.close();
  }
});
