// The hosted form in Chromium: the person checked, <mcp-elicit-form> with the flow's schema, the answer
// POSTed with its CSRF token, validated on the server and kept in the person's vault; a new kit on the
// same SQLite file (a restarted server) takes the answer of a page opened before the restart; Decline.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { form, text } from "../../../../src/schema/index.js";
import { paymentForm } from "../../../../src/servers/travel/payment.js";
import { pagesBench, principalOf, signInOnProvider } from "../../../helpers/url-pages.js";
import { needs } from "../../../helpers/needs.js";

const bench = pagesBench();
const alice = () => principalOf(bench, "alice");
const CARD = "4242 4242 4242 4242";

const payment = () =>
  bench.flow({
    kind: "form",
    name: "payment",
    message: "Pay $3,000 for booking BCN-1042 (test cards only: nothing is charged).",
    form: form({
      cardNumber: text({ title: "Card number", minLength: 12, maxLength: 23 }),
      expiry: text({ title: "Expiry (MM/YY)", minLength: 4, maxLength: 7 }),
      nameOnCard: text({ title: "Name on card", minLength: 2 }),
    }),
  });

async function fill(page: Page): Promise<void> {
  await page.getByLabel("Card number").fill(CARD);
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("Name on card").fill("Alice Example");
}

async function send(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Submit" }).click();
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByRole("heading", { name: "Done" }).waitFor();
}

describe("the hosted form", { skip: needs("chromium") }, () => {
  let ana: { context: BrowserContext; page: Page };
  const violations: string[] = [];
  before(async () => {
    ana = await bench.person();
    // Every console error but a favicon the provider's sign-in page does not serve (the kit's pages link their own icon).
    ana.page.on(
      "console",
      (m) => m.type() === "error" && !m.location().url.endsWith("/favicon.ico") && violations.push(`${m.location().url}: ${m.text()}`),
    );
    ana.page.on("pageerror", (e) => violations.push(e.message));
  });

  test("alice pays on the hosted form: the values reach her vault, not the page's client", async () => {
    const flow = await payment();
    await ana.page.goto(bench.kit.connectUrl(flow.id));
    await signInOnProvider(ana.page, bench.auth.issuer, "alice");
    await ana.page.waitForURL((u) => u.pathname.endsWith(`/form/${flow.id}`));
    const shown = await ana.page.locator("main").innerText();
    assert.match(shown, /Asked by Travel \(test\) through Test host/);
    assert.match(shown, /goes to Travel \(test\) only: Test host does not see it/);
    await fill(ana.page);
    await ana.page.screenshot({ path: join(bench.shots, "url-payment.png"), fullPage: true });
    await send(ana.page);
    assert.equal(await bench.kit.flows.outcome(flow.id), "completed");
    assert.deepEqual(await bench.kit.vault.get(alice(), "payment"), { cardNumber: CARD, expiry: "12/30", nameOnCard: "Alice Example" });
    assert.deepEqual(violations, [], "no CSP violation or script error on the page");
  });

  test("a page opened before a restart is answered after it: the new kit reads the flow, the session and the CSRF key from the file", async () => {
    await bench.kit.vault.revoke(alice(), "payment");
    const flow = await payment();
    await ana.page.goto(bench.kit.connectUrl(flow.id));
    await ana.page.waitForURL((u) => u.pathname.endsWith(`/form/${flow.id}`));
    await fill(ana.page);
    await bench.restart();
    await send(ana.page);
    assert.equal(await bench.kit.flows.outcome(flow.id), "completed");
    assert.equal(((await bench.kit.vault.get(alice(), "payment")) as { cardNumber: string }).cardNumber, CARD);
  });

  test("Decline ends the flow as declined and keeps nothing", async () => {
    await bench.kit.vault.revoke(alice(), "payment");
    const flow = await payment();
    await ana.page.goto(bench.kit.connectUrl(flow.id));
    await ana.page.waitForURL((u) => u.pathname.endsWith(`/form/${flow.id}`));
    await ana.page.getByRole("button", { name: "Decline" }).click();
    await ana.page.getByRole("heading", { name: "You declined" }).waitFor();
    assert.equal(await bench.kit.flows.outcome(flow.id), "declined");
    assert.deepEqual(await bench.kit.vault.list(alice()), []);
    assert.deepEqual(bench.errors, []);
  });

  test("the travel demo's payment form shows the card number as typed and hides only the CVC, in the field and in the review", async () => {
    const flow = await bench.flow({
      kind: "form",
      name: "travel-payment",
      message: "Pay $3,000 for booking ELC-7QK2MX.",
      form: paymentForm(),
    });
    await ana.page.goto(bench.kit.connectUrl(flow.id));
    // Run alone (--test-name-pattern), alice has not signed in yet.
    if (new URL(ana.page.url()).origin === new URL(bench.auth.issuer).origin) await signInOnProvider(ana.page, bench.auth.issuer, "alice");
    await ana.page.waitForURL((u) => u.pathname.endsWith(`/form/${flow.id}`));
    const number = ana.page.getByLabel("Card number", { exact: true });
    const cvc = ana.page.getByLabel("CVC", { exact: true });
    assert.equal(await number.getAttribute("type"), "text", "a card number is read back digit by digit");
    assert.equal(await cvc.getAttribute("type"), "password", "the CVC is hidden as it is typed");
    await number.fill(CARD);
    await ana.page.getByLabel("Expiry (MM/YY)").fill("12/30");
    await cvc.fill("123");
    await ana.page.getByLabel("Name on card").fill("Alice Example");
    await ana.page.getByRole("button", { name: "Submit" }).click();
    await ana.page.getByRole("button", { name: "Send" }).waitFor();
    // The review is in the form's shadow root: getByText reaches it, innerText does not.
    await ana.page.getByText(CARD, { exact: true }).waitFor();
    assert.equal(await ana.page.getByText("•••", { exact: true }).count(), 1, "the review shows the CVC as dots");
    assert.equal(await ana.page.getByText("123", { exact: true }).count(), 0, "the review hides the CVC");
    await ana.page.getByRole("button", { name: "Send" }).click();
    await ana.page.getByRole("heading", { name: "Done" }).waitFor();
    assert.equal(await bench.kit.flows.outcome(flow.id), "completed");
  });
});
