// The 2025-era way of asking: each question is a real server→client request sent as part of the tool
// call (live.ts: its stream, a human-scale wait, progress while the person thinks); an input the
// client did not declare is refused here with a tool error; roots are kept until list_changed.
import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import type { ProtocolRevision } from "../../schema/types.js";
import { clientCapabilities, supportsFeature, withoutSession } from "../base/capabilities.js";
import { SessionRequiredError } from "../base/input-errors.js";
import { answersCrossRequests } from "../base/cross-requests.js";
import { ProgressKeepAlive, sendLive } from "./live.js";
import type { LiveRoots } from "./live-roots.js";
import { clientNameOf } from "../inputs/elicit-url.js";
import { liveUrlFlow } from "./live-url.js";
import type { InputSettings } from "../inputs/client-inputs.js";
import type { Delivery } from "../inputs/delivery.js";

/** How a 2025-era call runs ctx.step: at once, or through the call ledger when a fleet may finish the call elsewhere. */
export type LiveStep = <T>(name: string, fn: () => T | Promise<T>) => Promise<T>;

/** What a kit keeps for one 2025-era connection (one McpServer): its roots, and the URL flows it will announce the end of. */
export interface LiveConnection {
  roots: LiveRoots;
  announced: Set<string>;
}

export function liveDelivery(
  server: McpServer,
  connection: LiveConnection,
  ctx: ServerContext,
  protocol: ProtocolRevision,
  settings: InputSettings,
  step: LiveStep = async (_name, fn) => fn(),
): Delivery {
  const capabilities = clientCapabilities(server, ctx, protocol);
  const keepAlive = new ProgressKeepAlive(ctx, settings.progressIntervalMs);
  const urlMode = supportsFeature(capabilities, protocol, "elicitation.url");
  const listChanged = (capabilities.roots as { listChanged?: unknown } | undefined)?.listChanged === true;
  // Without a session nothing can be asked; nor, on Workers, in a session the Worker itself holds (cross-requests.ts).
  const sessionless = withoutSession(server, ctx) ? "no_session" : answersCrossRequests(server) ? false : "worker";
  return {
    ctx,
    protocol,
    capabilities,
    refusesUnsupported: true,
    sessionless,
    clientName: () => clientNameOf(server, ctx, protocol),
    async request(method, params, settle, { timeoutMs = settings.timeoutMs, what }) {
      return settle(await sendLive(server, ctx, keepAlive, method, params, what, timeoutMs));
    },
    // A live call runs once, unless its instance dies and another finishes it (fleets: see live-call.ts).
    step,
    roots: (ask) => connection.roots.get(listChanged, ask),
    urlFlow: (call, ask) =>
      sessionless
        ? Promise.reject(new SessionRequiredError(`a URL-mode request of ${call.tool}`, sessionless))
        : liveUrlFlow(server, ctx, protocol, urlMode, keepAlive, call, ask, {
            timeoutMs: settings.timeoutMs,
            announced: connection.announced,
          }),
  };
}
