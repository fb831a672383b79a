// `elicit demo --answers`: nobody is at a browser, so the demo's URL-mode pages (the travel server's
// passport upload page and payment form, and the SkyMiles sign-in) are completed by a headless Chromium through
// playwright-core, when both are installed. playwright-core is a development dependency: it is loaded
// only here, and when it (or Chromium) is missing the demo says so and declines those steps.
import type { Browser, Page } from "playwright-core";
import { findProgram } from "./find-program.js";
import { SAMPLE_PASSPORT_NAME, samplePassportPng } from "./sample-passport.js";

/** What the headless browser types: a published test card (nothing real is charged) and SkyMiles' demo account. */
export const DEMO_CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12/34", cvc: "123", nameOnCard: "Demo Traveler" };
/** Fills the hosted payment form with the demo's test card, sends it after its review, and waits for the kit's done page. */
export async function payWithTestCard(page: Page): Promise<void> {
  await page.getByLabel("Card number", { exact: true }).fill(DEMO_CARD.cardNumber);
  await page.getByLabel("Expiry (MM/YY)", { exact: true }).fill(DEMO_CARD.expiry);
  await page.getByLabel("CVC", { exact: true }).fill(DEMO_CARD.cvc);
  await page.getByLabel("Name on card", { exact: true }).fill(DEMO_CARD.nameOnCard);
  await page.getByRole("button", { name: "Submit" }).click();
  await page.getByRole("button", { name: "Send" }).click();
  await page.waitForURL(/\/done\//);
}
export const DEMO_SKYMILES_ACCOUNT = { id: "demo", password: "demo" };

/** Headless flags for a machine without a network beyond loopback (the tests start Chromium with them too). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export interface HeadlessPages {
  /** Opens `url` (a page of the server's URL kit) and completes it; resolves with what was done, in words. */
  complete(url: string): Promise<string>;
  close(): Promise<void>;
}

/** Step limit per page: each step is one page of the flow (connect, sign-in, consent, form, review). */
const MAX_STEPS = 8;
const STEP_TIMEOUT_MS = 20_000;

/** A headless browser for the demo's pages, or the reason there is none (said to the person, and the steps are declined). */
export async function headlessPages(): Promise<HeadlessPages | { unavailable: string }> {
  let chromium: typeof import("playwright-core").chromium;
  try {
    ({ chromium } = await import("playwright-core"));
  } catch {
    return { unavailable: "playwright-core is not installed (npm install playwright-core)" };
  }
  // $ELICIT_CHROMIUM, the PATH, then the usual places: the same finder as the tests and .ci/run.
  const found = findProgram("chromium");
  if ("missing" in found) return { unavailable: found.missing };
  const executablePath = found.path;
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  } catch (error) {
    return { unavailable: `Chromium at ${executablePath} did not start (${(error as Error).message.split("\n")[0]})` };
  }
  return {
    async complete(url) {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.setDefaultTimeout(STEP_TIMEOUT_MS);
      try {
        await page.goto(url);
        return await finish(page);
      } finally {
        await context.close();
      }
    },
    close: () => browser.close().catch(() => {}),
  };
}

/** Walks the flow's pages until the kit's done page: the passport upload, the payment form, or the SkyMiles connect, sign-in and consent. */
async function finish(page: Page): Promise<string> {
  const done: string[] = [];
  for (let step = 0; step < MAX_STEPS; step++) {
    await page.waitForLoadState();
    if (await page.locator("mcp-elicit-form").count()) {
      await payWithTestCard(page);
      done.push("paid with the test card 4242 4242 4242 4242");
      continue;
    }
    const picker = page.getByLabel(/^Choose (a file|files)$/);
    if (await picker.count()) {
      // The demo's sample passport page (drawn in code), chosen in the picker and sent as a person does.
      await picker.setInputFiles({ name: SAMPLE_PASSPORT_NAME, mimeType: "image/png", buffer: samplePassportPng() });
      await page.getByRole("button", { name: "Send" }).click();
      await page.getByRole("heading", { name: "Done" }).waitFor();
      return [`uploaded the sample passport page ${SAMPLE_PASSPORT_NAME}`, `the page says "Done"`].join("; ");
    }
    if (/\/done\//.test(page.url())) {
      const title = (await page.locator("h1").first().textContent())?.trim() ?? "done";
      return [...done, `the page says "${title}"`].join("; ");
    }
    const connect = page.getByRole("button", { name: /^Connect / });
    if (await connect.count()) {
      await Promise.all([page.waitForEvent("load"), connect.first().click()]);
      continue;
    }
    const username = page.getByLabel("Username");
    if (await username.count()) {
      await username.fill(DEMO_SKYMILES_ACCOUNT.id);
      await page.getByLabel("Password").fill(DEMO_SKYMILES_ACCOUNT.password);
      await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Sign in" }).click()]);
      done.push(`signed in at SkyMiles as ${DEMO_SKYMILES_ACCOUNT.id}`);
      continue;
    }
    const allow = page.getByRole("button", { name: "Allow" });
    if (await allow.count()) {
      await Promise.all([page.waitForEvent("load"), allow.click()]);
      continue;
    }
    const heading = (
      await page
        .locator("h1")
        .first()
        .textContent()
        .catch(() => null)
    )?.trim();
    throw new Error(`the page "${heading ?? page.url()}" is not one the demo knows how to complete`);
  }
  throw new Error(`the pages did not reach their end in ${MAX_STEPS} steps`);
}
