// The travel server's calls as a host makes them against a deployed fetch entry (workerd, Deno, Bun,
// a serverless route): a real SDK client with attachElicitation, a scripted traveler who answers
// book_trip's two forms and fills pay_for_booking's hosted payment page over HTTP, and every message
// on the client's wire recorded (to resend a 2026-07-28 round as a retry would).
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { attachElicitation } from "../../src/client/attach.js";
import type { ElicitationUI, FormAnswer, FormRequest, UrlAnswer, UrlRequest } from "../../src/client/ui.js";
import { DEMO_CARD } from "../../src/cli/demo-browser.js";
import { DEMO_TRIP } from "../../src/servers/travel/flights.js";
import type { ProtocolRevision } from "../../src/schema/types.js";
import { answerHostedForm, type HostedFormResult } from "./hosted-form.js";
import { callWith, manualClient } from "./manual-client.js";
import { assertWireValid, tap, type WireMessage } from "./mcp.js";

export const TRIP = { destination: "Barcelona", departDate: DEMO_TRIP.departDate, returnDate: DEMO_TRIP.returnDate };
export const CARD_DIGITS = DEMO_CARD.cardNumber.replace(/\s/g, "");

/** The person: confirms the booking with a window seat, gives contact details, pays with the test card on the hosted page. */
export class Traveler implements ElicitationUI {
  forms: string[] = [];
  pages: HostedFormResult[] = [];
  notices: string[] = [];
  /**
   * `beforePage` runs after the person consented to the payment page and before they fill it (a restart
   * of the runtime, say); `fill` fills the page (default: over HTTP, answerHostedForm).
   */
  constructor(
    private beforePage: () => Promise<void> = async () => {},
    private fill: (link: string) => Promise<HostedFormResult> = (link) => answerHostedForm(link, DEMO_CARD),
  ) {}
  async form(request: FormRequest): Promise<FormAnswer> {
    const names = request.fields.map((f) => f.name);
    this.forms.push(names.join(","));
    if (names.includes("confirmBooking")) return { action: "accept", content: { confirmBooking: true, seatPreference: "window" } };
    if (names.includes("phone"))
      return { action: "accept", content: { fullName: "Ana Garcia", email: "ana@example.com", phone: "+34 600 123 456" } };
    return { action: "cancel" };
  }
  async url(request: UrlRequest): Promise<UrlAnswer> {
    await this.beforePage();
    this.pages.push(await this.fill(request.analysis.url));
    return "accept";
  }
  urlAskedAgain(): "accept" {
    return "accept";
  }
  notice(message: string): void {
    this.notices.push(message);
  }
}

export function clientOptions(revision: ProtocolRevision) {
  if (revision === "2026-07-28") return { versionNegotiation: { mode: { pin: "2026-07-28" } } };
  return { supportedProtocolVersions: ["2025-11-25", "2025-06-18"] };
}

export interface TravelClient {
  wire: WireMessage[];
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** A host connected to `endpoint` at `revision`, with `person` answering; `accessToken` is sent as its bearer token. */
export async function travelClient(
  endpoint: URL,
  revision: ProtocolRevision,
  person: ElicitationUI,
  accessToken?: string,
): Promise<TravelClient> {
  const wire: WireMessage[] = [];
  const client = new Client({ name: "Trip planner", version: "1.0.0" }, clientOptions(revision) as never);
  const handle = attachElicitation(client, { ui: person });
  const requestInit = accessToken ? { requestInit: { headers: { authorization: `Bearer ${accessToken}` } } } : {};
  await client.connect(tap(new StreamableHTTPClientTransport(endpoint, requestInit), wire));
  return {
    wire,
    call: async (name, args) => (await handle.callTool({ name, arguments: args })) as CallToolResult,
    async close() {
      await client.close();
      assertWireValid(wire, revision);
    },
  };
}

export const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;
export const referenceOf = (result: CallToolResult) => (result.structuredContent as { reference?: string } | undefined)?.reference;

/** book_trip answered in two rounds; returns the booking's reference. */
export async function bookTrip(c: TravelClient, person: Traveler): Promise<string> {
  const booked = await c.call("book_trip", TRIP);
  assert.equal(booked.isError, undefined, textOf(booked));
  assert.match(textOf(booked), /^Booked! Reference ELC-[0-9A-Z]{6}: Barcelona flights/);
  assert.deepEqual(person.forms.slice(-2), ["confirmBooking,seatPreference,roomType,travelInsurance", "fullName,email,phone"]);
  return referenceOf(booked)!;
}

/** pay_for_booking through the hosted page; checks the card never crossed the MCP wire. */
export async function payForBooking(c: TravelClient, person: Traveler, reference: string): Promise<CallToolResult> {
  const paid = await c.call("pay_for_booking", { bookingReference: reference });
  assert.equal(paid.isError, undefined, textOf(paid));
  assert.match(textOf(paid), new RegExp(`^Paid \\$3,\\d{3} for booking ${reference} with the Visa card ending 4242 \\(a test card`));
  assert.deepEqual(person.pages.at(-1)?.fields, ["cardNumber", "expiry", "cvc", "nameOnCard"]);
  assert.ok(!JSON.stringify(c.wire).includes(CARD_DIGITS), "the card never crossed the MCP wire");
  return paid;
}

/** The last tools/call the client sent for `tool` on 2026-07-28: its final round, with requestState and the answers. */
export function lastRound(wire: WireMessage[], tool: string): Record<string, unknown> {
  const calls = wire.filter((w) => w.dir === "out" && w.message.method === "tools/call" && w.message.params?.name === tool);
  const last = calls.at(-1)?.message.params as Record<string, unknown> | undefined;
  assert.ok(last?.requestState, `a ${tool} round with requestState was sent`);
  return last;
}

/** Sends `params` (a round already answered) once more from another client, as a retry after a lost response. */
export async function resend(endpoint: URL, params: Record<string, unknown>): Promise<CallToolResult> {
  const client = manualClient();
  await client.connect(new StreamableHTTPClientTransport(endpoint));
  try {
    return (await callWith(client)(params as never)) as CallToolResult;
  } finally {
    await client.close();
  }
}
