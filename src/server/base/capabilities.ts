// What the client of one call can be asked. On 2025 eras the client declared its capabilities once,
// at initialize; on 2026-07-28 every request carries them in its _meta envelope
// (io.modelcontextprotocol/clientCapabilities), so they are read per call.
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type ClientCapabilities,
  type McpServer,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { ProtocolRevision } from "../../schema/types.js";

/** A feature a tool may need from the client; `ctx.supports(feature)` says whether it can be used. */
export type ClientFeature = "elicitation.form" | "elicitation.url" | "sampling" | "sampling.tools" | "roots";

export const CLIENT_FEATURES: readonly ClientFeature[] = ["elicitation.form", "elicitation.url", "sampling", "sampling.tools", "roots"];

/** The capabilities the client declared for this call (empty when it declared none). */
export function clientCapabilities(server: McpServer | Server, ctx: ServerContext, protocol: ProtocolRevision): ClientCapabilities {
  // A 2025-11-25 task's runs carry the capabilities its session declared in the same place (tasks/).
  const carried = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
  const low = "server" in server ? server.server : server;
  const declared = protocol === "2026-07-28" || carried !== undefined ? carried : low.getClientCapabilities();
  return declared && typeof declared === "object" ? (declared as ClientCapabilities) : {};
}

/**
 * Whether a 2025-era call came without a session: no initialize reached this server (a stateless
 * handler makes a fresh server per request), so it has no client capabilities at all, not even `{}`,
 * and none came with the call (a 2025-11-25 task's run carries its session's).
 */
export function withoutSession(server: McpServer | Server, ctx: ServerContext): boolean {
  if ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] !== undefined) return false;
  return ("server" in server ? server.server : server).getClientCapabilities() === undefined;
}

/** The revision a request is served on: the 2026 envelope, else what initialize negotiated. */
export function requestRevision(server: McpServer | Server, ctx: ServerContext): ProtocolRevision {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (envelope?.[PROTOCOL_VERSION_META_KEY] === "2026-07-28") return "2026-07-28";
  const negotiated = ("server" in server ? server.server : server).getNegotiatedProtocolVersion?.();
  return negotiated !== undefined && negotiated >= "2025-11-25" ? "2025-11-25" : "2025-06-18";
}

const declared = (value: unknown) => value !== undefined && value !== null;

export function supportsFeature(caps: ClientCapabilities, protocol: ProtocolRevision, feature: ClientFeature): boolean {
  const elicitation = caps.elicitation as { form?: unknown; url?: unknown } | undefined;
  const sampling = caps.sampling as { tools?: unknown } | undefined;
  switch (feature) {
    // A bare `elicitation: {}` means form mode (the 2025-11-25 back-compat rule); naming only url removes it.
    case "elicitation.form":
      return declared(elicitation) && (declared(elicitation!.form) || !declared(elicitation!.url));
    // URL mode and sampling tools arrived in 2025-11-25: a 2025-06-18 peer cannot be sent them, whatever it declares.
    case "elicitation.url":
      return protocol !== "2025-06-18" && declared(elicitation) && declared(elicitation!.url);
    case "sampling":
      return declared(sampling);
    case "sampling.tools":
      return protocol !== "2025-06-18" && declared(sampling) && declared(sampling!.tools);
    case "roots":
      return declared(caps.roots);
    default:
      throw new TypeError(`Unknown client feature "${String(feature)}"; expected one of ${CLIENT_FEATURES.join(", ")}.`);
  }
}
