// Which servers carry tools of a kit whose state stays in one instance (its call ledger in this
// process's memory, or any store not shared): the fetch handler warns about them once, since on a
// platform that runs several instances a retry reaching another one would not find the call's ledger.
import type { McpServer } from "@modelcontextprotocol/server";

// Stays a module WeakSet: written by every kit on a server, read by the fetch handler, which holds only the SDK's McpServer (not ours to patch).
const perInstance = new WeakSet<McpServer>();

/** Called by a kit's registerTool: `server` has a tool whose kit keeps its ledger in `store`. */
export function noteKitStore(server: McpServer, store: { readonly shared?: boolean }): void {
  if (store.shared !== true) perInstance.add(server);
}

/** Whether a tool on `server` keeps its call ledger in this instance only. */
export function keepsStateInInstance(server: unknown): boolean {
  return perInstance.has(server as McpServer);
}

/** What the fetch handler says (once) about such a server. */
export const instanceWarning = (who: string) =>
  `${who}: a tool of this server keeps its call ledger in this instance's memory (createElicitation without a shared store). If the platform runs more than one instance, a 2026-07-28 retry that reaches another one finds no ledger there and runs the handler's steps again (a second booking, a second charge). Give createElicitation a store every instance shares (store: a Durable Object or D1 store on Workers, redisStore() elsewhere) and a stateKey they share; with one instance only, pass warn: () => {} to createFetchHandler.`;
