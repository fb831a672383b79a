// examples/web-embed.ts as a host author runs it: the example serves its page, a person (Chromium here) answers
// the form, and the example prints the validated answer and stops by itself.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { launchChromium } from "../helpers/chromium.js";
import { needs } from "../helpers/needs.js";
import { killOnExit } from "../helpers/cleanup.js";
import { ensureBundles } from "../helpers/webui.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
let browser: Browser;
// Without Chromium the whole file is skipped, and its hooks set nothing up (test/helpers/needs.ts).
const skip = needs("chromium");
before(async () => {
  if (skip) return;
  // The example imports the bundle from the package (dist/web/elements.js): built here as `npm run build` does, if stale.
  await ensureBundles();
  browser = await launchChromium();
});
after(() => browser?.close());

test("examples/web-embed.ts serves the form, prints the answer and exits", { skip }, async () => {
  const child = killOnExit(
    spawn(process.execPath, ["--import", "tsx", "examples/web-embed.ts"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] }),
  );
  const exited = once(child, "exit");
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = (await lines.next()).value as string;
  const url = /^Open (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(first)?.[1];
  assert.ok(url, first);

  const page = await browser.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  // Every console error but the browser's own favicon request, which the example does not serve.
  page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && errors.push(m.text()));
  page.on("response", (r) => r.status() >= 400 && !r.url().endsWith("/favicon.ico") && errors.push(`${r.status()} ${r.url()}`));
  await page.goto(url);
  await page.getByRole("radiogroup", { name: "Confirm booking" }).getByText("Yes", { exact: true }).click();
  await page.getByLabel("Seat", { exact: true }).selectOption("window");
  await page.getByRole("button", { name: "Submit" }).click();
  await page.getByRole("button", { name: "Send" }).click();
  assert.equal((await lines.next()).value, 'accept {"confirmBooking":true,"seatPreference":"window"}');
  assert.deepEqual(await exited, [0, null]);
  assert.deepEqual(errors, []);
  await page.close();
});
