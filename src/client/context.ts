// What every UI call is told about the connection: which server asks (its name and version made
// inert) and on which revision. Shared by attachElicitation and attachSampling.
import type { Client } from "@modelcontextprotocol/client";
import { isProtocolRevision, LATEST_REVISION, type ProtocolRevision } from "../schema/types.js";
import { MAX_LABEL_LENGTH, sanitizeText } from "../common/sanitize.js";
import type { UIContext } from "./ui.js";

/** The connection's revision; one older than we know reads as the oldest, an unknown newer one as the latest. */
export function revisionOf(client: Client): ProtocolRevision {
  const v = client.getNegotiatedProtocolVersion();
  if (isProtocolRevision(v)) return v;
  return v !== undefined && v < "2025-06-18" ? "2025-06-18" : LATEST_REVISION;
}

export function uiContextFor(client: Client, signal: AbortSignal): UIContext {
  const info = client.getServerVersion();
  return {
    server: {
      name: sanitizeText(info?.name ?? "unknown server", { maxLength: MAX_LABEL_LENGTH, multiline: false }),
      version: sanitizeText(info?.version ?? "", { maxLength: 40, multiline: false }),
    },
    protocol: revisionOf(client),
    signal,
  };
}
