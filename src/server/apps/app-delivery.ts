// The way of asking of an app-answered call: a 2026-07-28 round's journal (rounds/replay.ts), whatever the
// call's revision, but each round ends the tool call with a result the form app renders (app-calls.ts)
// instead of an input_required result. Only the person can answer there: forms and URL flows go to the
// app; sampling and roots, which only a client could answer, are refused as for a client that declared
// neither.
import type { ClientCapabilities, McpServer, ServerContext } from "@modelcontextprotocol/server";
import type { ProtocolRevision } from "../../schema/types.js";
import { clientCapabilities } from "../base/capabilities.js";
import { clientNameOf } from "../inputs/elicit-url.js";
import { replayUrlFlow } from "../rounds/replay-url.js";
import type { ReplayRun } from "../rounds/replay.js";
import type { RoundDelivery } from "../rounds/round-delivery.js";

/** What the app can answer: forms and links. */
function appCapabilities(declared: ClientCapabilities): ClientCapabilities {
  const { sampling: _sampling, roots: _roots, ...rest } = declared;
  return { ...rest, elicitation: { form: {}, url: {} } };
}

export function appDelivery(server: McpServer, ctx: ServerContext, run: ReplayRun, protocol: ProtocolRevision): RoundDelivery {
  const delivery: RoundDelivery = {
    ctx,
    protocol,
    capabilities: appCapabilities(clientCapabilities(server, ctx, protocol)),
    // A question the app cannot answer is refused here, before a round would carry it.
    refusesUnsupported: true,
    clientName: () => clientNameOf(server, delivery.ctx, protocol),
    request: (method, params, settle, { key }) => run.request(method, params, settle, key),
    step: (name, fn) => run.step(name, fn),
    roots: (ask) => ask(),
    // The app opens the link (ui/open-link) on any revision, and answers "accept" again until the flow ends.
    urlFlow: (call, ask) => replayUrlFlow(current, run, true, call, ask),
    rebind(next) {
      delivery.ctx = next;
      delivery.capabilities = appCapabilities(clientCapabilities(server, next, protocol));
    },
  };
  const current = new Proxy(ctx, { get: (_ctx, key) => Reflect.get(delivery.ctx, key) });
  return delivery;
}
