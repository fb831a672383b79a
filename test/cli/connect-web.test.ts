// `elicit connect --web --no-browser -- elicit serve travel`: the interactive host with the browser as
// its whole UI. The tool menu and the tool's arguments are forms of the host's own in the page (no
// Decline, no "Form from", one click each), the result shows in the terminal and in the page, and Quit ends
// it. While the server starts the page says it is connecting (it said "Nothing to answer right now." for
// seconds); a server that never comes up is an alert in the page, kept once the session ends.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { BIN } from "../helpers/cli.js";
import { NO_MODEL_ENV } from "../helpers/pty.js";
import { ADDRESS_LINE, browserForTests, startElicit } from "../helpers/webui.js";
import { needs } from "../helpers/needs.js";
import { removeOnExit } from "../helpers/cleanup.js";

const { browser } = browserForTests();
const SLOW = { timeout: 60_000 };
const GATED = fileURLToPath(new URL("../fixtures/gated-server.mjs", import.meta.url));

/** A folder for a gate file, removed after the test (and if the file is cut short). */
function gateFolder(): { gate: string; open: () => void; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "elicit-gate-"));
  const unregister = removeOnExit(dir);
  const gate = join(dir, "open");
  return { gate, open: () => writeFileSync(gate, ""), remove: () => (rmSync(dir, { recursive: true, force: true }), unregister()) };
}

/** The page's idle line (what shows while nothing is asked). */
const idleLine = (page: Page) => page.locator("#current").innerText();

describe("elicit connect --web", { skip: needs("chromium") }, () => {
  test("against the travel server: pick a tool, fill its arguments, see the result, quit", async () => {
    assert.ok(existsSync(BIN), `${BIN} is missing: run npm run build first`);
    const elicit = startElicit(BIN, ["connect", "--web", "--no-browser", "--", process.execPath, BIN, "serve", "travel"], NO_MODEL_ENV);
    const page = await browser().newPage();
    try {
      const address = (await elicit.waitFor(ADDRESS_LINE, "stderr"))[1]!;
      await page.goto(address);
      await elicit.waitFor(/^Connected to mcp-elicit-travel 1\.0\.0 \(protocol [0-9-]+\)\.$/m, "stdout");

      await page.getByRole("heading", { name: "mcp-elicit-travel 1.0.0: what next?" }).waitFor(SLOW);
      await page.getByText(/search_flights: Round-trip fares from New York/).waitFor();
      await page.getByText("Request 1 of 1, from this host").waitFor();
      assert.equal(await page.getByRole("button", { name: "Decline" }).count(), 0, "a form of the host's own has no Decline");
      // One click per action: the menu's own button acts, with no review step in between.
      await page.getByLabel("What next?").selectOption({ label: "Call search_flights" });
      await page.getByRole("button", { name: "Go" }).click();

      await page.getByRole("heading", { name: "Arguments for search_flights (a tool of mcp-elicit-travel 1.0.0)" }).waitFor(SLOW);
      await page.getByLabel("Destination").fill("Barcelona");
      await page.getByLabel("Depart date").fill("2026-06-15");
      await page.getByLabel("Return date").fill("2026-06-22");
      await page.getByRole("button", { name: "Call search_flights" }).click();

      await elicit.waitFor(/^44 round-trip fares from New York to Barcelona \(BCN\)/m, "stdout");
      await page.getByText(/search_flights: 44 round-trip fares from New York to Barcelona/).waitFor(SLOW);

      await page.getByRole("heading", { name: "mcp-elicit-travel 1.0.0: what next?" }).waitFor(SLOW);
      await page.getByLabel("What next?").selectOption({ label: "Quit" });
      await page.getByRole("button", { name: "Go" }).click();
      assert.equal(await elicit.exit, 0, elicit.stderr());
      assert.match(elicit.stdout(), /^Calling search_flights…$/m);
      assert.match(elicit.stdout(), /^Done\.$/m);
      await page.getByText("The host ended this session.").waitFor();
    } finally {
      elicit.kill();
      await page.close();
    }
  });

  test("while the server starts the page says it is connecting, then shows the menu", async () => {
    const { gate, open, remove } = gateFolder();
    const server = [GATED, gate, process.execPath, BIN, "serve", "travel"];
    const elicit = startElicit(BIN, ["connect", "--web", "--no-browser", "--", process.execPath, ...server], NO_MODEL_ENV);
    const page = await browser().newPage();
    try {
      await page.goto((await elicit.waitFor(ADDRESS_LINE, "stderr"))[1]!);
      // The server is held back by the gate: the page waits for it, and says so.
      await page.getByText("Connected to the host.").waitFor();
      await page.getByText(/^Connecting to .*gated-server\.mjs .*…$/).waitFor();
      assert.doesNotMatch(await idleLine(page), /Nothing to answer/);
      open();
      await page.getByRole("heading", { name: "mcp-elicit-travel 1.0.0: what next?" }).waitFor(SLOW);
      assert.doesNotMatch(await idleLine(page), /Connecting to/);
      await page.getByLabel("What next?").selectOption({ label: "Quit" });
      await page.getByRole("button", { name: "Go" }).click();
      assert.equal(await elicit.exit, 0, elicit.stderr());
    } finally {
      elicit.kill();
      await page.close();
      remove();
    }
  });

  test("a server that dies before it answers: the reason is an alert in the page, kept after the session ends", async () => {
    const { gate, open, remove } = gateFolder();
    const server = [GATED, gate, process.execPath, "-e", "process.exit(3)"];
    const elicit = startElicit(BIN, ["connect", "--web", "--no-browser", "--", process.execPath, ...server], NO_MODEL_ENV);
    const page = await browser().newPage();
    try {
      await page.goto((await elicit.waitFor(ADDRESS_LINE, "stderr"))[1]!);
      await page.getByText(/^Connecting to /).waitFor();
      open();
      assert.equal(await elicit.exit, 2, elicit.stderr());
      // The last line on the terminal is why it failed (before it: the address, a "connecting…" notice).
      const printed = /^elicit: (.+)\n$/.exec(elicit.stderr().slice(elicit.stderr().lastIndexOf("elicit: ")));
      await page.getByText("The host ended this session.").waitFor();
      const alert = await page.getByRole("alert").innerText();
      assert.equal(alert, printed?.[1], "the page says what the terminal says");
      assert.match(alert, /gated-server\.mjs/);
      assert.match(await idleLine(page), /This session has ended/);
    } finally {
      elicit.kill();
      await page.close();
      remove();
    }
  });
});
