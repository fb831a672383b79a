// attachElicitation: one handler on an SDK Client that serves 2025-era `elicitation/create`
// requests and 2026-07-28 embedded requests alike, and checks everything before a UI sees it. The
// work is AttachedClient's (attached-client.ts), one per attached client.
import type { Client } from "@modelcontextprotocol/client";
import type { AttachOptions, ElicitationHandle } from "./attach-options.js";
import { AttachedClient } from "./attached-client.js";

export { CALL_CEILING_MS, CALL_TIMEOUT_MS } from "./request-clock.js";
export type { AttachOptions, ElicitationHandle, ElicitationMode, ElicitationPolicy } from "./attach-options.js";

/**
 * Declares the elicitation capability and installs the one handler. Call before `client.connect`.
 * `client.callTool` is routed through the returned `callTool` (see `routeClientCallTool`), so calls made
 * either way get the URL flow and the person-aware clock; `detach()` puts everything back.
 *
 * @example
 * ```ts region=examples/quickstart-host.ts#attachElicitation
 * const client = new Client({ name: "host", version: "1.0.0" });
 * const { callTool } = attachElicitation(client, { ui });
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await createServer().connect(serverSide);
 * await client.connect(clientSide);
 * const result = await callTool({ name: "book_trip", arguments: { destination: "Barcelona" } });
 * ```
 */
export function attachElicitation(client: Client, options: AttachOptions): ElicitationHandle {
  return new AttachedClient(client, options).handle();
}
