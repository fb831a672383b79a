// `elicit serve travel --http --auth` with URL mode: the caller is alice (a real token from the local
// provider); her payment link, opened in a browser signed in as bob, is refused and stays pending;
// opened by alice (signing in at the same provider, on the kit's pages), it takes the card, and the tool
// charges it. The built bin in a child process, the pages in headless Chromium.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import type { Browser, Page } from "playwright-core";
import { attachElicitation } from "../../src/client/attach.js";
import type { ElicitationUI, FormAnswer, FormRequest, UrlAnswer, UrlRequest } from "../../src/client/ui.js";
import { DEMO_TRIP } from "../../src/servers/travel/flights.js";
import { BIN } from "../helpers/cli.js";
import { assertWireValid, tap, type WireMessage } from "../helpers/mcp.js";
import { signIn } from "../helpers/oidc.js";
import { launchChromium } from "../helpers/chromium.js";
import { needs } from "../helpers/needs.js";
import { killOnExit } from "../helpers/cleanup.js";
import { ensurePageBundles } from "../helpers/url-pages.js";

const CARD = "4242 4242 4242 4242";

let child: ChildProcess;
let issuer: string;
let mcpUrl: string;
let output = "";
let browser: Browser;
// Without Chromium the whole file is skipped, and its hooks set nothing up (test/helpers/needs.ts).
const skip = needs("chromium");

before(async () => {
  if (skip) return;
  await ensurePageBundles();
  child = killOnExit(spawn(process.execPath, [BIN, "serve", "travel", "--http", "--auth"], { stdio: ["ignore", "pipe", "pipe"] }));
  await new Promise<void>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk;
      const found = /OpenID provider .* at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (found && url) {
        [issuer, mcpUrl] = [found, url];
        resolve();
      }
    };
    child.stdout!.on("data", seen);
    child.stderr!.on("data", seen);
    child.once("exit", (code) => reject(new Error(`elicit serve exited (${code}): ${output}`)));
  });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  child?.kill("SIGTERM");
});

/** Signs in on the provider's page as `user` (the password is the name), allowing what is asked. */
async function signInAs(page: Page, user: string): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(issuer));
  await page.getByLabel("Username").fill(user);
  await page.getByLabel("Password").fill(user);
  await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Sign in" }).click()]);
  if (page.url().startsWith(issuer)) {
    const allow = page.getByRole("button", { name: "Allow" });
    if (await allow.count()) await Promise.all([page.waitForEvent("load"), allow.click()]);
  }
}

class Alice implements ElicitationUI {
  refusal = "";
  paying: Promise<void> = Promise.resolve();
  async form(request: FormRequest): Promise<FormAnswer> {
    const names = request.fields.map((f) => f.name);
    if (names.includes("confirmBooking")) return { action: "accept", content: { confirmBooking: true } };
    return { action: "accept", content: { fullName: "Alice", email: "alice@example.com", phone: "+1 212 555 0100" } };
  }
  async url(request: UrlRequest): Promise<UrlAnswer> {
    const link = request.analysis.url;
    // Bob gets hold of the link first: refused, and the flow stays pending.
    const bob = await browser.newContext();
    const bobPage = await bob.newPage();
    bobPage.setDefaultTimeout(15_000);
    await bobPage.goto(link);
    await signInAs(bobPage, "bob");
    await bobPage.getByRole("heading", { name: "This link was made for someone else" }).waitFor();
    this.refusal = (await bobPage.locator("body").innerText()).replace(/\s+/g, " ");
    await bob.close();
    // Then alice opens it, signs in as herself and pays (in the background: the tool waits for the page).
    this.paying = (async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(link);
      await signInAs(page, "alice");
      await page.getByLabel("Card number", { exact: true }).fill(CARD);
      await page.getByLabel("Expiry (MM/YY)", { exact: true }).fill("12/34");
      await page.getByLabel("CVC", { exact: true }).fill("123");
      await page.getByLabel("Name on card", { exact: true }).fill("Alice");
      await page.getByRole("button", { name: "Submit" }).click();
      await page.getByRole("button", { name: "Send" }).click();
      await page.waitForURL(/\/elicit\/done\//);
      await context.close();
    })();
    return "accept";
  }
  notice(): void {}
}

test("alice's payment link: bob signed in is refused and it stays pending; alice signs in at the same provider and pays", async (t) => {
  // Skipped from inside: as an option, the skip would make prettier re-wrap this long-named test whole.
  if (skip) return t.skip(skip);
  const { accessToken } = await signIn({ issuer, user: "alice", resource: mcpUrl, scopes: ["mcp:tools"] });
  const wire: WireMessage[] = [];
  const alice = new Alice();
  const client = new Client({ name: "Trip planner", version: "1.0.0" }, { supportedProtocolVersions: ["2025-11-25"] } as never);
  const handle = attachElicitation(client, { ui: alice });
  await client.connect(
    tap(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${accessToken}` } } }), wire),
  );
  try {
    const call = async (name: string, args: Record<string, unknown>) =>
      (await handle.callTool({ name, arguments: args })) as CallToolResult;
    const booked = await call("book_trip", {
      destination: "Barcelona",
      departDate: DEMO_TRIP.departDate,
      returnDate: DEMO_TRIP.returnDate,
    });
    const reference = (booked.structuredContent as { reference?: string }).reference!;
    const paid = await call("pay_for_booking", { bookingReference: reference });
    assert.match(
      (paid.content[0] as { text: string }).text,
      new RegExp(`^Paid \\$3,\\d{3} for booking ${reference} with the Visa card ending 4242`),
    );
    await alice.paying;
    assert.match(alice.refusal, /This link was made for someone else/);
    assert.match(alice.refusal, /bob/);
    assertWireValid(wire, "2025-11-25");
    const seen = JSON.stringify(wire) + output;
    assert.ok(!seen.includes(CARD) && !seen.includes(CARD.replace(/\s/g, "")), "the card is on no wire and in no output");
    assert.ok(!output.includes(accessToken), "the server prints no token");
  } finally {
    await client.close();
  }
});
