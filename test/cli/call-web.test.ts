// `elicit call TOOL --web --no-browser`: one tool call whose questions are answered in the page; the
// result is still the JSON on stdout, and the exit code says how it ended.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BIN } from "../helpers/cli.js";
import { removeOnExit } from "../helpers/cleanup.js";
import { NO_MODEL_ENV } from "../helpers/pty.js";
import { ADDRESS_LINE, browserForTests, startElicit } from "../helpers/webui.js";
import { needs } from "../helpers/needs.js";

const { browser } = browserForTests();
const SLOW = { timeout: 60_000 };
const GATED = fileURLToPath(new URL("../fixtures/gated-server.mjs", import.meta.url));
const TRIP = { destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22", flightId: "BCN-11" };

describe("elicit call --web", { skip: needs("chromium") }, () => {
  test("book_trip: the booking form is declined in the page, the result is printed as JSON", async () => {
    assert.ok(existsSync(BIN), `${BIN} is missing: run npm run build first`);
    const args = [
      "call",
      "book_trip",
      "--args",
      JSON.stringify(TRIP),
      "--web",
      "--no-browser",
      "--",
      process.execPath,
      BIN,
      "serve",
      "travel",
    ];
    const elicit = startElicit(BIN, args, NO_MODEL_ENV);
    const page = await browser().newPage();
    try {
      await page.goto((await elicit.waitFor(ADDRESS_LINE, "stderr"))[1]!);
      await page.getByText(/Please confirm your Barcelona vacation booking details/).waitFor(SLOW);
      await page.getByRole("button", { name: "Decline" }).click();
      const code = await elicit.exit;
      const result = JSON.parse(elicit.stdout()) as { content: { text: string }[]; isError?: boolean };
      assert.match(result.content[0]!.text, /^Nothing was booked: you declined the booking confirmation\./);
      assert.equal(code, result.isError ? 1 : 0);
      assert.match(elicit.stderr(), /^elicit: in the browser: a form from mcp-elicit-travel$/m);
    } finally {
      elicit.kill();
      await page.close();
    }
  });

  test("while the server starts the page says it is connecting, not that nothing is asked", async () => {
    const dir = mkdtempSync(join(tmpdir(), "elicit-gate-"));
    const unregister = removeOnExit(dir);
    const gate = join(dir, "open");
    const server = [GATED, gate, process.execPath, BIN, "serve", "travel"];
    const args = ["call", "book_trip", "--args", JSON.stringify(TRIP), "--web", "--no-browser", "--", process.execPath, ...server];
    const elicit = startElicit(BIN, args, NO_MODEL_ENV);
    const page = await browser().newPage();
    try {
      await page.goto((await elicit.waitFor(ADDRESS_LINE, "stderr"))[1]!);
      // The server is held back by the gate: the page says what it waits for.
      await page.getByText(/^Connecting to .*gated-server\.mjs .*…$/).waitFor(SLOW);
      assert.doesNotMatch(await page.locator("#current").innerText(), /Nothing to answer/);
      writeFileSync(gate, "");
      await page.getByText(/Please confirm your Barcelona vacation booking details/).waitFor(SLOW);
      await page.getByRole("button", { name: "Decline" }).click();
      assert.equal(await elicit.exit, 0, elicit.stderr());
    } finally {
      elicit.kill();
      await page.close();
      rmSync(dir, { recursive: true, force: true });
      unregister();
    }
  });

  test("--web with --answers is a usage error, and nothing starts", async () => {
    const elicit = startElicit(BIN, [
      "call",
      "book_trip",
      "--web",
      "--answers",
      "examples/answers.yaml",
      "--",
      process.execPath,
      BIN,
      "serve",
      "travel",
    ]);
    assert.equal(await elicit.exit, 2);
    assert.match(elicit.stderr(), /give --web or --answers, not both/);
    assert.doesNotMatch(elicit.stderr(), ADDRESS_LINE);
  });
});
