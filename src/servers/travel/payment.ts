// pay_for_booking: the card is asked for on the URL kit's hosted form (ctx.collect), never through
// form-mode elicitation, so the MCP client and its model never see it. The card is checked on the
// server (Luhn, expiry, CVC, test cards only), "charged" (nothing real: this is a demo), and
// forgotten: only the brand and last four digits stay with the booking.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { form, text } from "../../schema/builders.js";
import type { ElicitContext } from "../../server/kit/elicitation.js";
import { LOCAL_PRINCIPAL } from "../../server/url/identity.js";
import type { Vault, VaultPrincipal } from "../../server/url/vault.js";
import { mayView, REFERENCE_PATTERN, type BookingStore } from "./bookings.js";
import { usd } from "./flights.js";
import { fail, say } from "./trip.js";

/** Card numbers the demo accepts: the networks' published test numbers. Anything else is refused, so nobody types a real card. */
export const TEST_CARDS: Readonly<Record<string, string>> = {
  "4242424242424242": "Visa",
  "4000056655665556": "Visa (debit)",
  "5555555555554444": "Mastercard",
  "2223003122003222": "Mastercard",
  "378282246310005": "American Express",
  "6011111111111117": "Discover",
};

/** What a payment leaves on the booking: never the number, the expiry or the CVC. */
export interface PaymentRecord {
  paidAt: string;
  amountUsd: number;
  brand: string;
  last4: string;
}

/** Payments by booking reference (a booking is paid at most once). */
export interface PaymentStore {
  get(reference: string): PaymentRecord | undefined | Promise<PaymentRecord | undefined>;
  set(reference: string, payment: PaymentRecord): unknown;
}

export const defaultPaymentStore: PaymentStore = new Map<string, PaymentRecord>();

/** The hosted payment form. Lengths only: the schema language has no patterns, so the server checks the rest. */
export function paymentForm() {
  return form({
    cardNumber: text({ title: "Card number", description: "Test cards only, e.g. 4242 4242 4242 4242", minLength: 12, maxLength: 23 }),
    expiry: text({ title: "Expiry (MM/YY)", description: "e.g. 12/30", minLength: 4, maxLength: 7 }),
    cvc: text({ title: "CVC", description: "3 or 4 digits on the card", minLength: 3, maxLength: 4 }),
    nameOnCard: text({ title: "Name on card", minLength: 2, maxLength: 100 }),
  });
}

export type CardAnswer = { cardNumber: string; expiry: string; cvc: string; nameOnCard: string };

/** The Luhn checksum every card number carries: catches a mistyped digit. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** What is wrong with the card, as a sentence for the person, or the accepted card's brand and last digits. */
export function checkCard(card: CardAnswer, now = new Date()): { problem: string } | { brand: string; last4: string } {
  const digits = card.cardNumber.replace(/[\s-]/g, "");
  if (!/^\d+$/.test(digits)) return { problem: "The card number may only hold digits, spaces and dashes." };
  if (!luhnValid(digits)) return { problem: "The card number is not valid (its check digit does not match): check it for a typo." };
  const brand = TEST_CARDS[digits];
  if (!brand) return { problem: "This demo takes test cards only (e.g. 4242 4242 4242 4242); nothing real is charged." };
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(card.expiry);
  const month = expiry ? Number(expiry[1]) : NaN;
  if (!expiry || month < 1 || month > 12) return { problem: "The expiry must read MM/YY, e.g. 12/30." };
  const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
  // A card is good through the last day of its expiry month.
  if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) return { problem: "The card has expired." };
  if (!/^\d{3,4}$/.test(card.cvc.trim())) return { problem: "The CVC is the 3 or 4 digits printed on the card." };
  if (!card.nameOnCard.trim()) return { problem: "The name on the card is missing." };
  return { brand, last4: digits.slice(-4) };
}

/** Whose vault entries the kit's pages wrote for this caller: the signed-in principal, or the local person (loopback mode). */
export function vaultOwnerOf(ctx: Pick<ElicitContext, "principal">): VaultPrincipal {
  const p = ctx.principal;
  return p?.sub ? { issuer: p.issuer ?? "", sub: p.sub } : LOCAL_PRINCIPAL;
}

export interface PaymentDeps {
  bookings: BookingStore;
  payments: PaymentStore;
  /** The URL kit's vault, where the hosted form leaves the card. */
  vault: Vault;
}

/** Two tries: a card refused by the checks above is asked for once more, with the reason. */
const ATTEMPTS = 2;

const notPaid = (why: string, reason: string): CallToolResult => say(`Nothing was charged: ${why}`, { paid: false, reason });

export async function payForBooking(bookingReference: string, ctx: ElicitContext, deps: PaymentDeps): Promise<CallToolResult> {
  const reference = bookingReference.trim().toUpperCase();
  if (!REFERENCE_PATTERN.test(reference))
    return fail(`"${bookingReference}" is not a booking reference; they look like ELC-7QK2MX (book_trip returns one).`);
  const found = await deps.bookings.get(reference);
  const booking = found && mayView(found, ctx.principal) ? found : undefined;
  if (!booking) return fail(`No booking ${reference} was found; book_trip returns the reference of each booking it makes.`);
  const paid = await deps.payments.get(reference);
  if (paid)
    return say(`Booking ${reference} is already paid (${usd(paid.amountUsd)}, ${paid.brand} ending ${paid.last4}).`, {
      paid: true,
      reference,
      ...paid,
    });

  const amount = usd(booking.price.totalUsd);
  let problem: string | undefined;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const message =
      `${problem ? `${problem} ` : ""}Pay ${amount} for booking ${reference} (${booking.city}) on the secure payment page. ` +
      `Test cards only: nothing real is charged.`;
    const asked = await ctx.collect(message, paymentForm());
    if (asked.outcome === "declined") return notPaid("you declined to pay; the booking stays unpaid.", "declined");
    if (asked.outcome === "cancelled") return notPaid("the payment was cancelled; the booking stays unpaid.", "cancelled");
    if (asked.outcome === "timed out") return notPaid("the payment page was not finished in time; the booking stays unpaid.", "timed out");
    // Once per flow (ctx.step): on 2026-07-28 a replay of this call must not charge again or find the card gone.
    const verdict = await ctx.step(`charge-${attempt}`, async () => {
      const owner = vaultOwnerOf(ctx);
      const card = await deps.vault.get<CardAnswer>(owner, asked.flowId);
      // The card is forgotten whatever the verdict: only the brand and last four digits are kept.
      await deps.vault.revoke(owner, asked.flowId);
      if (!card) return { problem: "The payment page's answer was not found." };
      const checked = checkCard(card);
      if ("problem" in checked) return checked;
      const record: PaymentRecord = { paidAt: new Date().toISOString(), amountUsd: booking.price.totalUsd, ...checked };
      await deps.payments.set(reference, record);
      return record;
    });
    if (!("problem" in verdict))
      return say(
        `Paid ${amount} for booking ${reference} with the ${verdict.brand} card ending ${verdict.last4} (a test card: nothing real was charged).`,
        {
          paid: true,
          reference,
          ...verdict,
        },
      );
    problem = verdict.problem;
  }
  return fail(`Nothing was charged: ${problem} The booking stays unpaid; call pay_for_booking again to retry.`);
}
