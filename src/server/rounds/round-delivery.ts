// The 2026-07-28 way of asking: each question is an entry of the call's journal (replay.ts), answered
// from it when this round's requestState or inputResponses hold the answer, else sent in the next
// input_required round. The SDK refuses a question the client did not declare (-32021) when the round
// goes out; no list_changed exists to keep roots by, so every call asks.
import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import type { ProtocolRevision } from "../../schema/types.js";
import { clientCapabilities, supportsFeature } from "../base/capabilities.js";
import type { Delivery } from "../inputs/delivery.js";
import { clientNameOf } from "../inputs/elicit-url.js";
import { replayUrlFlow } from "./replay-url.js";
import type { ReplayRun } from "./replay.js";

/**
 * A task (tasks/) asks the same way, on its own revision: its questions are not gated by the SDK as a
 * round's are, so one the client cannot take is refused here, as on a live connection.
 */
export function roundDelivery(server: McpServer, ctx: ServerContext, run: ReplayRun, task?: { protocol: ProtocolRevision }): RoundDelivery {
  const protocol = task?.protocol ?? "2026-07-28";
  // What a request carries (its context, the capabilities its envelope declares) is read from `delivery`
  // at each use: a warm round points the same delivery at the request that resumed the handler.
  const delivery: RoundDelivery = {
    ctx,
    protocol,
    capabilities: clientCapabilities(server, ctx, protocol),
    refusesUnsupported: task !== undefined,
    clientName: () => clientNameOf(server, delivery.ctx, protocol),
    request: (method, params, settle, { key }) => run.request(method, params, settle, key),
    step: (name, fn) => run.step(name, fn),
    detach: () => run.detach(),
    roots: (ask) => ask(),
    // A URL flow spans rounds (it waits on the page in each retry): it reads the context of the request at hand.
    urlFlow: (call, ask) => replayUrlFlow(current, run, supportsFeature(delivery.capabilities, protocol, "elicitation.url"), call, ask),
    rebind(next) {
      delivery.ctx = next;
      delivery.capabilities = clientCapabilities(server, next, protocol);
    },
  };
  const current = new Proxy(ctx, { get: (_ctx, key) => Reflect.get(delivery.ctx, key) });
  return delivery;
}

/** A round's delivery, which a warm round points at the request it resumes the handler in. */
export type RoundDelivery = Delivery & {
  ctx: ServerContext;
  capabilities: Delivery["capabilities"];
  rebind(ctx: ServerContext): void;
};
