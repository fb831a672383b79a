// The gateway as its host sees it: a server with the upstream server's name, capabilities and
// instructions, that answers each request with the upstream server's answer. Requests and results pass
// as they are; what changes is listed in docs/cli/gateway-wire.md (progress tokens, the revision's
// envelope, 2026-07-28 rounds held here, tasks followed here, subscriptions translated where the server
// lacks the host's revision).
import type { Client } from "@modelcontextprotocol/client";
import type { Implementation, Server } from "@modelcontextprotocol/server";
import type { GatewayApps } from "./app-answers.js";
import { HeldCalls } from "./held-calls.js";
import { hostServer, type FrontDoor } from "./host-server.js";
import type { HostFacingHooks } from "./host-wait.js";
import type { HostLinks } from "./links.js";
import { Subscriptions } from "./subscriptions.js";
import type { Upstream, Upstreams } from "./upstreams.js";

export { hostStoppedWaiting, hostWaits, type HostFacingHooks } from "./host-wait.js";

/**
 * The SDK client handles a response as it arrives but a notification a microtask later, so a progress
 * notification read together with its request's result (one stdio chunk) finds its handler gone and is
 * dropped. Each response is handed on a microtask later here, after the notifications read before it.
 */
function progressBeforeResults(client: Client): void {
  const transport = client.transport;
  if (!transport) return;
  const theirs = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ("method" in message) theirs?.(message, extra);
    else queueMicrotask(() => theirs?.(message, extra));
  };
}

export interface HostFacing {
  factory(ctx: { era: "legacy" | "modern" }): Server;
  close(): void;
}

export function hostFacing(
  upstreams: Upstreams,
  serverInfo: Implementation | undefined,
  links: HostLinks,
  onerror: (error: Error) => void,
  hooks: HostFacingHooks = {},
  apps?: GatewayApps,
): HostFacing {
  const subscriptions = new Map<Upstream, Subscriptions>();
  const subscriptionsOf = (upstream: Upstream) => {
    let found = subscriptions.get(upstream);
    if (!found) subscriptions.set(upstream, (found = new Subscriptions(upstream)));
    return found;
  };
  const door: FrontDoor = {
    upstreams,
    info: serverInfo ?? { name: "mcp-server", version: "0.0.0" },
    instructions: upstreams.primary.client.getInstructions(),
    links,
    held: new HeldCalls(),
    hooks,
    onerror,
    ...(apps ? { apps } : {}),
    subscriptions: subscriptionsOf,
  };
  upstreams.each((upstream) => {
    progressBeforeResults(upstream.client);
    // What the server says outside any request reaches the 2025 hosts connected over this connection
    // (an update only those subscribed to the resource), else the host request under way.
    upstream.client.fallbackNotificationHandler = async (notification) => {
      const sessions = links.connected().filter((link) => link.upstream === upstream);
      const targets = sessions.length
        ? sessions.filter((link) => subscriptionsOf(upstream).wants(link.session!, notification))
        : [links.current()].filter((link) => link !== undefined);
      const sent = Subscriptions.forHost(notification);
      for (const link of targets) await link.notify(sent).catch(onerror);
    };
  });
  return {
    factory: ({ era }) => hostServer(era, door),
    close() {
      door.held.close();
      door.apps?.close();
      for (const each of subscriptions.values()) each.close();
    },
  };
}
