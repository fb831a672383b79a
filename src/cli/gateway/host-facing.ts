// The gateway as its host sees it: a server with the upstream server's name, capabilities and
// instructions, that answers each request with the upstream server's answer. Requests and results pass
// as they are; what changes is listed in docs/cli/gateway-wire.md (progress tokens, the revision's
// envelope, 2026-07-28 rounds held here, tasks followed here, subscriptions translated where the server
// lacks the host's revision).
import type { Client } from "@modelcontextprotocol/client";
import type { Implementation, Server, ServerCapabilities } from "@modelcontextprotocol/server";
import { TASKS_EXTENSION } from "../../client/tasks/follow.js";
import type { GatewayApps } from "./app-answers.js";
import { HeldCalls } from "./held-calls.js";
import { hostServer } from "./host-server.js";
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

/**
 * The capabilities the host is shown: the server's, less what the gateway answers itself (the tasks
 * extension: a call that becomes a task is followed here, and the host sees an ordinary call) and what
 * the host's revision cannot express (2025-11-25 tasks on a 2026-07-28 connection).
 */
export function hostCapabilities(server: ServerCapabilities | undefined, era: "legacy" | "modern"): ServerCapabilities {
  const capabilities: ServerCapabilities & { tasks?: unknown } = { ...(server ?? {}) };
  if (capabilities.extensions) {
    const { [TASKS_EXTENSION]: _followed, ...others } = capabilities.extensions;
    if (Object.keys(others).length) capabilities.extensions = others;
    else delete capabilities.extensions;
  }
  if (era === "modern") delete capabilities.tasks;
  return capabilities;
}

export interface HostFacing {
  factory(ctx: { era: "legacy" | "modern" }): Server;
  close(): void;
}

/** What every host-facing server of one gateway shares. */
export interface FrontDoor {
  upstreams: Upstreams;
  info: Implementation;
  instructions: string | undefined;
  links: HostLinks;
  held: HeldCalls;
  hooks: HostFacingHooks;
  onerror(error: Error): void;
  /** --ui app: the calls answered through the form app, for hosts that render apps and cannot be asked. */
  apps?: GatewayApps;
  /** The 2025 hosts' subscriptions on `upstream`. */
  subscriptions(upstream: Upstream): Subscriptions;
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
