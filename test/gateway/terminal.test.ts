// `elicit gateway --http 0 --ui terminal` in a real pseudo-terminal: a host connects over Streamable
// HTTP and calls book_trip; the server's form is asked in the terminal the gateway runs in, and the
// host gets the result of the answer given there.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { BIN } from "../helpers/cli.js";
import { KEY, NO_MODEL_ENV, SLOW_MS, startProgram } from "../helpers/pty.js";
import { textOf, TRIP } from "../helpers/travel-page.js";

describe("elicit gateway --ui terminal", () => {
  test("a host with no elicitation calls book_trip over HTTP; the form is declined in the gateway's terminal", async () => {
    const s = startProgram(
      process.execPath,
      [BIN, "gateway", "--http", "0", "--ui", "terminal", "--", process.execPath, BIN, "serve", "travel"],
      {
        env: NO_MODEL_ENV,
        name: "gateway",
      },
    );
    const client = new Client({ name: "http-host", version: "1.0.0" });
    try {
      const served = await s.waitFor(/served to hosts at (http:\/\/127\.0\.0\.1:\d+\/mcp) \(Streamable HTTP\)/, { timeoutMs: SLOW_MS });
      assert.doesNotMatch(served, /asked at http/, "no page: the terminal answers");
      const url = /served to hosts at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(served)![1]!;
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const booking = client.callTool({ name: "book_trip", arguments: { ...TRIP, flightId: "BCN-11" } }, { timeout: 120_000 });
      const form = await s.waitFor("? Answer this form?", { timeoutMs: SLOW_MS });
      assert.match(form, /Form from mcp-elicit-travel 1\.0\.0\n {2}Please confirm your Barcelona vacation booking details:/);
      s.press(KEY.down, KEY.enter); // Decline
      assert.match(textOf(await booking), /^Nothing was booked: you declined the booking confirmation\./);
    } finally {
      await client.close().catch(() => {});
      s.signal("SIGTERM");
      await s.exitCode(SLOW_MS).catch(() => s.close());
    }
  });
});
