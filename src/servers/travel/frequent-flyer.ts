// connect_frequent_flyer: the traveler connects their SkyMiles account (a third-party OAuth provider)
// through the URL kit's pages (ctx.connect). The tokens stay in the kit's vault; the tool uses one to
// read who the member is from the provider, and the MCP client only ever hears the member's name.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { MAX_LABEL_LENGTH, sanitizeText } from "../../common/sanitize.js";
import type { ElicitContext } from "../../server/kit/elicitation.js";
import type { Vault } from "../../server/url/vault.js";
import { mayView, REFERENCE_PATTERN, type BookingStore } from "./bookings.js";
import { vaultOwnerOf } from "./payment.js";
import { fail, say } from "./trip.js";

/** The provider's name in the kit's `providers` (and its vault entry). */
export const FREQUENT_FLYER_PROVIDER = "skymiles";

export interface FrequentFlyerDeps {
  bookings: BookingStore;
  vault: Vault;
  /** The provider's issuer, where its userinfo endpoint is discovered. */
  issuer: string;
}

/** Who the token belongs to, from the provider's OpenID userinfo endpoint. */
async function memberOf(issuer: string, token: string, signal: AbortSignal): Promise<{ sub: string; name?: string }> {
  const discovery = await fetch(new URL(".well-known/openid-configuration", issuer.endsWith("/") ? issuer : `${issuer}/`), { signal });
  if (!discovery.ok) throw new Error(`the provider's metadata answered HTTP ${discovery.status}`);
  const endpoint = ((await discovery.json()) as { userinfo_endpoint?: unknown }).userinfo_endpoint;
  if (typeof endpoint !== "string") throw new Error("the provider has no userinfo endpoint");
  const answer = await fetch(endpoint, { headers: { Authorization: `Bearer ${token}` }, signal });
  if (!answer.ok) throw new Error(`the provider's userinfo answered HTTP ${answer.status}`);
  const info = (await answer.json()) as { sub?: unknown; name?: unknown };
  if (typeof info.sub !== "string") throw new Error("the provider's userinfo has no subject");
  return { sub: info.sub, ...(typeof info.name === "string" ? { name: info.name } : {}) };
}

export async function connectFrequentFlyer(bookingReference: string, ctx: ElicitContext, deps: FrequentFlyerDeps): Promise<CallToolResult> {
  const reference = bookingReference.trim().toUpperCase();
  if (!REFERENCE_PATTERN.test(reference))
    return fail(`"${bookingReference}" is not a booking reference; they look like ELC-7QK2MX (book_trip returns one).`);
  const found = await deps.bookings.get(reference);
  if (!found || !mayView(found, ctx.principal))
    return fail(`No booking ${reference} was found; book_trip returns the reference of each booking it makes.`);

  const owner = vaultOwnerOf(ctx);
  // An account connected before is used again (its refresh token renews it); else the person connects it now.
  // Decided once per call (ctx.step), so a 2026-07-28 replay takes the same path as the first round.
  const hadAccount = await ctx.step("had-account", async () => (await deps.vault.token(owner, FREQUENT_FLYER_PROVIDER)) !== undefined);
  if (!hadAccount) {
    const connected = await ctx.connect(FREQUENT_FLYER_PROVIDER, {
      message: `Connect your SkyMiles frequent-flyer account, so the miles for booking ${reference} are credited to it.`,
    });
    if (connected.outcome !== "connected")
      return say(`No SkyMiles account was connected (${connected.outcome}); booking ${reference} earns no miles.`, {
        connected: false,
        reason: connected.outcome,
      });
  }
  const token = await deps.vault.token(owner, FREQUENT_FLYER_PROVIDER);
  if (!token)
    return fail("The SkyMiles account's credential is gone (revoked or expired); call connect_frequent_flyer again to connect it.");
  let member: { sub: string; name?: string };
  try {
    member = await memberOf(deps.issuer, token, ctx.mcpReq.signal);
  } catch (error) {
    return fail(`SkyMiles could not be reached: ${(error as Error).message}.`);
  }
  // The provider's words reach the client: made inert and short like any peer's text.
  const inert = (text: string) => sanitizeText(text, { maxLength: MAX_LABEL_LENGTH, multiline: false });
  const who = member.name ? `${inert(member.name)} (member ${inert(member.sub)})` : `member ${inert(member.sub)}`;
  return say(`SkyMiles account connected: ${who}. The miles for booking ${reference} will be credited to it.`, {
    connected: true,
    reference,
    member: inert(member.sub),
  });
}
