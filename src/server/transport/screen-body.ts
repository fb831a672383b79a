// The screen (src/common/screen.ts) for what a client sends over Streamable HTTP: the body the fetch
// handler has read. Web-standard only (no Node streams), so Workers, Deno and Bun load it too.
import { parseJSONRPCMessage } from "@modelcontextprotocol/server";
import { screenInbound, type Screened } from "../../common/screen.js";

export type Refusal = Extract<Screened, { kind: "refuse" }>["reply"];

/** Screens one message a client sent (parsed JSON). */
export const screenFromClient = (raw: unknown): Screened => screenInbound(raw, parseJSONRPCMessage, "client");

/**
 * A POST body, screened: `refuse` when it is a malformed request (send it as the reply), else the
 * body to serve (a malformed reply becomes an error reply with its id). Batches pass as they are.
 */
export function screenBody(parsed: unknown): { refuse: Refusal; error: Error } | { parsed: unknown; error?: Error } {
  if (Array.isArray(parsed)) return { parsed };
  const screened = screenFromClient(parsed);
  if (screened.kind === "refuse") return { refuse: screened.reply, error: screened.error };
  return screened.kind === "fail" ? { parsed: screened.message, error: screened.error } : { parsed: screened.message };
}
