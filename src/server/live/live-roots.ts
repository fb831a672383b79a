// ctx.roots on a 2025-era connection whose client promised `roots.listChanged`: the list is kept per
// connection (per McpServer, which the kit gets one of per connection or HTTP session) until the client
// says it changed. A client that made no such promise is asked on every call, since nothing would tell
// us the kept list went stale.
import type { McpServer, Root } from "@modelcontextprotocol/server";
import { watchNotifications } from "../../common/sdk-internals.js";

export class LiveRoots {
  /** Bumped by every list_changed, so an answer that was in flight across one is not kept. */
  private generation = 0;
  private roots?: Root[];

  /**
   * Starts watching `server` for notifications/roots/list_changed. This watches the server's notification
   * dispatch rather than registering a handler: a handler of ours would replace one the author set before,
   * or be replaced by one set after; watching leaves theirs to run as it is.
   */
  constructor(server: McpServer) {
    watchNotifications(server.server, (notification) => {
      if (notification?.method === "notifications/roots/list_changed") {
        this.generation++;
        this.roots = undefined;
      }
    });
  }

  /** The client's roots, as kept when the client will say when they change, else asked now. */
  async get(listChanged: boolean, ask: () => Promise<Root[]>): Promise<Root[]> {
    if (listChanged && this.roots) return structuredClone(this.roots);
    const generation = this.generation;
    const roots = await ask();
    if (listChanged && this.generation === generation) this.roots = structuredClone(roots);
    return roots;
  }
}
