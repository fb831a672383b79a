// `elicit connect --web --no-browser -- elicit serve travel`: the interactive host with the browser as
// its whole UI. The tool menu and the tool's arguments are forms of the host's own in the page (no
// Decline, no "Form from"), the result shows in the terminal and in the page, and Quit ends it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { BIN } from "../helpers/cli.js";
import { NO_MODEL_ENV } from "../helpers/pty.js";
import { ADDRESS_LINE, browserForTests, startElicit } from "../web/webui-helpers.js";
import { needs } from "../helpers/needs.js";

const { browser } = browserForTests();
const SLOW = { timeout: 60_000 };

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
      await page.getByLabel("What next?").selectOption({ label: "Call search_flights" });
      await page.getByRole("button", { name: "Submit" }).click();
      await page.getByRole("button", { name: "Go" }).click();

      await page.getByRole("heading", { name: "Arguments for search_flights (a tool of mcp-elicit-travel 1.0.0)" }).waitFor(SLOW);
      await page.getByLabel("Destination").fill("Barcelona");
      await page.getByLabel("Depart date").fill("2026-06-15");
      await page.getByLabel("Return date").fill("2026-06-22");
      await page.getByRole("button", { name: "Submit" }).click();
      await page.getByRole("button", { name: "Call search_flights" }).click();

      await elicit.waitFor(/^44 round-trip fares from New York to Barcelona \(BCN\)/m, "stdout");
      await page.getByText(/search_flights: 44 round-trip fares from New York to Barcelona/).waitFor(SLOW);

      await page.getByRole("heading", { name: "mcp-elicit-travel 1.0.0: what next?" }).waitFor(SLOW);
      await page.getByLabel("What next?").selectOption({ label: "Quit" });
      await page.getByRole("button", { name: "Submit" }).click();
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
});
