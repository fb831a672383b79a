// A server restarted in the middle of a URL flow completes it: `elicit serve travel --http PORT --store
// FILE` (the built bin, a child process) is killed after the person consented to the payment link and
// opened the page, and before the page is submitted; a new process on the same port, SQLite file and
// key takes the submitted card, and the client's retry (2026-07-28: the sealed requestState) finds the
// flow completed and the booking paid. Neither process prints the card.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import type { Browser } from "playwright-core";
import { attachElicitation } from "../../src/client/attach.js";
import type { ElicitationUI, FormAnswer, FormRequest, UrlAnswer, UrlRequest } from "../../src/client/ui.js";
import { DEMO_TRIP } from "../../src/servers/travel/flights.js";
import { BIN } from "../helpers/cli.js";
import { freePort } from "../helpers/processes.js";
import { assertWireValid, tap, type WireMessage } from "../helpers/mcp.js";
import { launchChromium } from "../helpers/chromium.js";
import { needs } from "../helpers/needs.js";
import { killOnExit, removeOnExit } from "../helpers/cleanup.js";
import { ensurePageBundles } from "../helpers/url-pages.js";

const CARD = "4242 4242 4242 4242";
const VAULT_KEY = randomBytes(32).toString("base64url");

let scratch: string;
let browser: Browser;
const outputs: string[] = [];
// Without Chromium the whole file is skipped, and its hooks set nothing up (test/helpers/needs.ts).
const skip = needs("chromium");

before(async () => {
  if (skip) return;
  await ensurePageBundles();
  scratch = mkdtempSync(join(tmpdir(), "mcp-elicit-restart-"));
  removeOnExit(scratch); // also when the file is cut before its after hooks
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** `elicit serve travel` on `port` with the store; resolves once it listens. */
async function serveTravel(port: number, store: string, vaultKey = VAULT_KEY): Promise<{ child: ChildProcess; exited: Promise<void> }> {
  const child = killOnExit(
    spawn(process.execPath, [BIN, "serve", "travel", "--http", `127.0.0.1:${port}`, "--store", store], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, MCP_ELICIT_VAULT_KEY: vaultKey },
    }),
  );
  let output = "";
  const index = outputs.push("") - 1;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk;
      outputs[index] = output;
      if (output.includes("listening on")) resolve();
    };
    child.stdout!.on("data", seen);
    child.stderr!.on("data", seen);
    child.once("exit", (code) => reject(new Error(`elicit serve exited (${code}) before listening:\n${output}`)));
  });
  return { child, exited };
}

class Person implements ElicitationUI {
  constructor(private onUrl: (request: UrlRequest) => Promise<UrlAnswer>) {}
  async form(request: FormRequest): Promise<FormAnswer> {
    const names = request.fields.map((f) => f.name);
    if (names.includes("confirmBooking")) return { action: "accept", content: { confirmBooking: true } };
    return { action: "accept", content: { fullName: "Ana Garcia", email: "ana@example.com", phone: "+34 600 123 456" } };
  }
  url(request: UrlRequest): Promise<UrlAnswer> {
    return this.onUrl(request);
  }
  notice(): void {}
}

test("killed after consent, restarted on the same SQLite file: the page submitted to the new process completes the flow and the retried call charges", async (t) => {
  // Skipped from inside: as an option, the skip would make prettier re-wrap this long-named test whole.
  if (skip) return t.skip(skip);
  const port = await freePort();
  const store = join(scratch, "travel.db");
  let server = await serveTravel(port, store);
  const asked: string[] = [];
  const person = new Person(async (request) => {
    asked.push(request.analysis.url);
    if (asked.length > 1) return "accept";
    // The person said yes and the page is open in the browser...
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(request.analysis.url);
    await page.getByLabel("Card number", { exact: true }).fill(CARD);
    await page.getByLabel("Expiry (MM/YY)", { exact: true }).fill("12/34");
    await page.getByLabel("CVC", { exact: true }).fill("123");
    await page.getByLabel("Name on card", { exact: true }).fill("Ana Garcia");
    // ...when the server dies, and a new one starts on the same port and file.
    server.child.kill("SIGKILL");
    await server.exited;
    // Restarted with the key rotated (a ring, newest first): what the old key sealed still opens.
    server = await serveTravel(port, store, `${randomBytes(32).toString("base64url")},${VAULT_KEY}`);
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("heading", { name: "Done" }).waitFor();
    await context.close();
    return "accept";
  });
  const wire: WireMessage[] = [];
  const client = new Client({ name: "Trip planner", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
  const handle = attachElicitation(client, { ui: person });
  try {
    await client.connect(tap(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)), wire));
    const call = async (name: string, args: Record<string, unknown>) =>
      (await handle.callTool({ name, arguments: args })) as CallToolResult;
    const booked = await call("book_trip", {
      destination: "Barcelona",
      departDate: DEMO_TRIP.departDate,
      returnDate: DEMO_TRIP.returnDate,
    });
    const reference = (booked.structuredContent as { reference?: string }).reference!;
    assert.ok(reference);

    const paid = await call("pay_for_booking", { bookingReference: reference });
    assert.match(
      (paid.content[0] as { text: string }).text,
      new RegExp(`^Paid \\$3,\\d{3} for booking ${reference} with the Visa card ending 4242`),
    );
    assert.equal(new Set(asked).size, 1, "one flow, started before the restart and finished after it");
    // The new process knows the payment too: paying again is refused.
    const again = await call("pay_for_booking", { bookingReference: reference });
    assert.match((again.content[0] as { text: string }).text, /is already paid/);
    assertWireValid(wire, "2026-07-28");
    const seen = JSON.stringify(wire) + outputs.join("\n");
    assert.ok(!seen.includes(CARD) && !seen.includes(CARD.replace(/\s/g, "")), "the card is on no wire and in no output");
  } finally {
    await client.close();
    server.child.kill("SIGTERM");
    await server.exited;
  }
});
