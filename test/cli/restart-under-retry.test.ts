// A server killed while a 2026-07-28 client's retry round is open loses nothing: the travel server (as
// `elicit serve travel --http PORT --store …` starts it, in a child process) takes `pay_for_booking`'s
// round and holds it while the person is on the payment page; it is SIGKILLed then, and started again on
// the same port and store (SQLite, then Redis); only then is the page submitted. The CLI's host (the one
// `elicit call`, `connect` and `demo` use) resends the same round until the new process answers: the call
// completes, the card is charged once, and the person was told the server went away.
// Before the fix the page said "Done" and the call rejected with "fetch failed", nothing charged.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { Browser } from "playwright-core";
import type { FormAnswer, FormRequest, UrlAnswer, UrlRequest } from "../../src/client/ui.js";
import { openHost, type Host } from "../../src/cli/host.js";
import { DEMO_TRIP } from "../../src/servers/travel/flights.js";
import { killOnExit, removeOnExit } from "../helpers/cleanup.js";
import { within } from "../helpers/deferred.js";
import { needs } from "../helpers/needs.js";
import { exited, freePort, stopChild } from "../helpers/processes.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { launchChromium } from "../helpers/chromium.js";
import { ensurePageBundles } from "../helpers/url-pages.js";

const SERVER = fileURLToPath(new URL("../fixtures/travel-durable.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CARD = "4242 4242 4242 4242";
const VAULT_KEY = randomBytes(32).toString("base64url");
const STEP_MS = 30_000;

/** One server process: its output lines so far, and a wait for a line. */
interface Served {
  child: ChildProcess;
  lines: string[];
  line(pattern: RegExp, what: string): Promise<string>;
}

function serve(port: number, store: string): Promise<Served> {
  const child = killOnExit(
    spawn(process.execPath, ["--import", "tsx", SERVER], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, PORT: String(port), STORE: store, MCP_ELICIT_VAULT_KEY: VAULT_KEY },
    }),
  );
  const lines: string[] = [];
  const listeners = new Set<() => void>();
  let stderr = "";
  let rest = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    rest += chunk;
    const parts = rest.split("\n");
    rest = parts.pop()!;
    lines.push(...parts);
    for (const listener of listeners) listener();
  });
  child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk).slice(-4000)));
  const line = (pattern: RegExp, what: string) =>
    within(
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const found = lines.find((l) => pattern.test(l));
          if (found) {
            listeners.delete(check);
            resolve(found);
          } else if (child.exitCode !== null || child.signalCode !== null)
            reject(new Error(`the server exited before ${what}:\n${stderr}`));
        };
        listeners.add(check);
        child.once("exit", check);
        check();
      }),
      STEP_MS,
      what,
    );
  return line(/^listening /, "it listened").then(() => ({ child, lines, line }));
}

/** The person: answers the booking's forms, says yes to the payment page (the test then fills it). */
class Person {
  notices: string[] = [];
  private consented!: (url: string) => void;
  readonly paymentPage = new Promise<string>((resolve) => (this.consented = resolve));
  async form(request: FormRequest): Promise<FormAnswer> {
    const names = request.fields.map((f) => f.name);
    if (names.includes("confirmBooking")) return { action: "accept", content: { confirmBooking: true } };
    return { action: "accept", content: { fullName: "Ana Garcia", email: "ana@example.com", phone: "+34 600 123 456" } };
  }
  async url(request: UrlRequest): Promise<UrlAnswer> {
    this.consented(request.analysis.url);
    return "accept";
  }
  notice(message: string): void {
    this.notices.push(message);
  }
  async reviewRequest() {
    return { action: "deny" as const };
  }
  async reviewAnswer() {
    return { action: "reject" as const };
  }
}

let browser: Browser;
const skip = needs("chromium");
before(async () => {
  if (skip) return;
  await ensurePageBundles();
  browser = await launchChromium();
});
after(() => browser?.close());

async function killedUnderTheRetry(store: string, report: (line: string) => void): Promise<void> {
  const port = await freePort();
  const servers = [await serve(port, store)];
  const person = new Person();
  let host: Host | undefined;
  const context = await browser.newContext();
  try {
    host = await openHost({
      target: { url: `http://127.0.0.1:${port}/mcp` },
      ui: person,
      modes: ["form", "url"],
      protocol: "2026-07-28",
      roots: [],
    });
    const call = async (name: string, args: Record<string, unknown>) =>
      (await host!.elicitation.callTool({ name, arguments: args })) as CallToolResult;
    const booked = await call("book_trip", {
      destination: "Barcelona",
      departDate: DEMO_TRIP.departDate,
      returnDate: DEMO_TRIP.returnDate,
    });
    const reference = (booked.structuredContent as { reference?: string }).reference!;
    assert.ok(reference, JSON.stringify(booked));

    const paying = call("pay_for_booking", { bookingReference: reference });
    paying.catch(() => {}); // awaited below; a rejection before then must not end the process
    // The person said yes and types the card on the page, while the client's retry round is held open...
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_MS);
    await page.goto(await within(person.paymentPage, STEP_MS, "the consent to the payment page"));
    await page.getByLabel("Card number", { exact: true }).fill(CARD);
    await page.getByLabel("Expiry (MM/YY)", { exact: true }).fill("12/34");
    await page.getByLabel("CVC", { exact: true }).fill("123");
    await page.getByLabel("Name on card", { exact: true }).fill("Ana Garcia");
    await servers[0]!.line(/^holding /, "the retry round held open");
    // ...when the server dies, and a new one starts on the same port and store.
    const killedAt = Date.now();
    servers[0]!.child.kill("SIGKILL");
    await exited(servers[0]!.child);
    servers.push(await serve(port, store));
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("heading", { name: "Done" }).waitFor();

    const submittedAt = Date.now();
    const paid = await within(paying, STEP_MS, "pay_for_booking's result");
    report(
      `page done ${submittedAt - killedAt} ms after the kill (restart included); the call answered ${Date.now() - submittedAt} ms later; ${person.notices.join(" / ")}`,
    );
    assert.match(
      (paid.content[0] as { text: string }).text,
      new RegExp(`^Paid \\$3,\\d{3} for booking ${reference} with the Visa card ending 4242`),
    );
    const charges = servers.flatMap((s) => s.lines).filter((l) => l === `charged travel:payment:${reference}`);
    assert.equal(charges.length, 1, "the card is charged exactly once");
    assert.ok(
      person.notices.some((n) => /went away.*trying again/i.test(n)),
      `the person is told the server went away: ${JSON.stringify(person.notices)}`,
    );
    const again = await call("pay_for_booking", { bookingReference: reference });
    assert.match((again.content[0] as { text: string }).text, /is already paid/);
  } finally {
    await context.close();
    await host?.close();
    for (const s of servers) await stopChild(s.child);
  }
}

describe("2026-07-28: the server killed and restarted while the retry round is open", { skip }, () => {
  test("on the SQLite store: the call completes and charges once", { timeout: 180_000 }, async (t) => {
    const scratch = mkdtempSync(join(tmpdir(), "mcp-elicit-restart-retry-"));
    const unregister = removeOnExit(scratch);
    try {
      await killedUnderTheRetry(join(scratch, "travel.db"), (line) => t.diagnostic(line));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
      unregister();
    }
  });

  test("on Redis: the call completes and charges once", { timeout: 180_000, skip: needs("redis-server") }, async (t) => {
    let redis: RedisServer | undefined;
    try {
      redis = await startRedis();
      await killedUnderTheRetry(redis.url, (line) => t.diagnostic(line));
    } finally {
      await redis?.stop();
    }
  });
});
