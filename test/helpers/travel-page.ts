// The travel booking's questions, answered in the gateway's page as a person would (headless Chromium),
// and what a host sees of the booking: the calls a host makes, in order.
import type { Page } from "playwright-core";
import { DEFAULT_PREFERENCES } from "../../src/servers/travel/ranking.js";

/** Starting processes and a tool call can be slow on a busy machine. */
export const SLOW = { timeout: 60_000 };

export const TRIP = { destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" };
export const BEST_ARGS = { ...TRIP, preferences: DEFAULT_PREFERENCES };

/** The line the gateway prints on stderr with its page's address. */
export const GATEWAY_PAGE =
  /^elicit gateway: questions the host cannot answer are asked at (http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\/)$/m;

/** find_best_flight's model request: approved, and the answer typed (no model is configured). */
export async function answerSampling(page: Page): Promise<void> {
  await page.getByRole("heading", { name: "Model request from mcp-elicit-travel" }).waitFor(SLOW);
  await page.getByRole("button", { name: "Approve" }).click();
  await page.getByRole("heading", { name: "Write the answer for mcp-elicit-travel" }).waitFor(SLOW);
  await page.getByLabel("Answer").fill("BCN-11, BCN-14, BCN-12");
  await page.getByRole("button", { name: "Send" }).click();
}

/** book_trip's two forms: the confirmation, then who travels. */
export async function answerBooking(page: Page): Promise<void> {
  await page.getByText(/Please confirm your Barcelona vacation booking details/).waitFor(SLOW);
  await page.getByRole("radiogroup", { name: "Confirm booking" }).getByLabel("Yes").check();
  await page.getByLabel("Seat preference").selectOption({ label: "aisle" });
  await page.getByLabel("Room type").selectOption({ label: "city view" });
  await page.getByRole("radiogroup", { name: "Travel insurance" }).getByLabel("Yes").check();
  await page.getByRole("button", { name: "Submit" }).click();
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByText(/Who is traveling\?/).waitFor(SLOW);
  await page.getByLabel("Full name").fill("Ana Garcia");
  await page.getByLabel("Email").fill("ana@example.com");
  await page.getByLabel("Phone").fill("+34 600 123 456");
  await page.getByRole("button", { name: "Submit" }).click();
  await page.getByRole("button", { name: "Send" }).click();
}

/** The host's own answers to book_trip's forms, for a host that answers forms itself. */
export function bookingAnswer(message: string): Record<string, unknown> {
  if (/Please confirm your Barcelona vacation booking details/.test(message))
    return { action: "accept", content: { confirmBooking: true, seatPreference: "aisle", roomType: "city view", travelInsurance: true } };
  if (/Who is traveling\?/.test(message))
    return { action: "accept", content: { fullName: "Ana Garcia", email: "ana@example.com", phone: "+34 600 123 456" } };
  return { action: "decline" };
}

/** pay_for_booking (URL mode): consent in the page, then the card on the server's own payment page. */
export async function answerPayment(page: Page): Promise<void> {
  await page.getByText(/Pay \$3,150 for booking ELC-[0-9A-Z]{6} \(Barcelona\) on the secure payment page/).waitFor(SLOW);
  await page.getByLabel("I checked the address and want to open it").check();
  const [tab] = await Promise.all([page.context().waitForEvent("page"), page.getByRole("button", { name: "Open link" }).click()]);
  await tab.getByLabel("Card number", { exact: true }).fill("4242 4242 4242 4242");
  await tab.getByLabel("Expiry (MM/YY)", { exact: true }).fill("12/34");
  await tab.getByLabel("CVC", { exact: true }).fill("123");
  await tab.getByLabel("Name on card", { exact: true }).fill("Ana Garcia");
  await tab.getByRole("button", { name: "Submit" }).click();
  await tab.getByRole("button", { name: "Send" }).click();
  await tab.getByRole("heading", { name: "Done" }).waitFor(SLOW);
  await tab.close();
}

/** watch_fare (a task): the question it asks when the fare drops, answered yes. */
export async function answerFareDrop(page: Page): Promise<void> {
  await page.getByText("Barcelona dropped to $885 (under your $900). Book this fare?").waitFor(SLOW);
  await page.getByRole("radiogroup", { name: "Book the Barcelona fare at $885" }).getByLabel("Yes").check();
  await page.getByRole("button", { name: "Submit" }).click();
  await page.getByRole("button", { name: "Send" }).click();
}

/** What a tool call's result says, as text. */
export const textOf = (result: { content?: unknown }): string =>
  ((result.content ?? []) as Array<{ type: string; text?: string }>)
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n");
