// The travel server's two URL-mode tools: paying on the kit's hosted payment form and connecting a
// frequent-flyer account through third-party OAuth. Both need a URL kit (createElicitation({ urlKit })).
import type { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import type { Elicitation } from "../../server/kit/elicitation.js";
import type { UrlKit } from "../../server/url/url-kit.js";
import type { BookingStore } from "./bookings.js";
import { connectFrequentFlyer } from "./frequent-flyer.js";
import { defaultPaymentStore, payForBooking, type PaymentStore } from "./payment.js";

export interface TravelUrlTools {
  /** The kit given to createElicitation: its vault holds the card until it is charged, and the SkyMiles tokens. */
  kit: UrlKit;
  /** SkyMiles' issuer (startTravelUrlMode); without it (a Worker cannot start SkyMiles) connect_frequent_flyer is left out. */
  skymilesIssuer?: string;
  /** Where payments are recorded (default: one Map per process). */
  payments?: PaymentStore;
}

const bookingReference = { bookingReference: z.string().describe("The reference book_trip returned, e.g. ELC-7QK2MX") };

export function registerUrlTools(elicitation: Elicitation, server: McpServer, bookings: BookingStore, url: TravelUrlTools): void {
  const payments = url.payments ?? defaultPaymentStore;
  elicitation.registerTool(
    server,
    "pay_for_booking",
    {
      title: "Pay for a booking",
      description:
        "Takes payment for a booking on the server's secure payment page (a URL the client opens): the card never passes through the client. Test cards only; nothing real is charged.",
      inputSchema: z.object(bookingReference),
    },
    ({ bookingReference }, ctx) => payForBooking(bookingReference, ctx, { bookings, payments, vault: url.kit.vault }),
  );
  const issuer = url.skymilesIssuer;
  if (issuer === undefined) return;
  elicitation.registerTool(
    server,
    "connect_frequent_flyer",
    {
      title: "Connect a frequent-flyer account",
      description:
        "Connects the traveler's SkyMiles account (sign-in at SkyMiles, in the browser) so a booking earns miles; the account's tokens stay on the server.",
      inputSchema: z.object(bookingReference),
    },
    ({ bookingReference }, ctx) => connectFrequentFlyer(bookingReference, ctx, { bookings, vault: url.kit.vault, issuer }),
  );
}
