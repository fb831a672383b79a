// URL flows on 2026-07-28: the URL request rides in input_required, and the flow's id travels only
// in the sealed requestState (recorded by a step, so every round of the call names the same flow); there
// is no elicitationId and no completion notice. The client answers "accept" once the person opened the
// page, and retries: the tool then waits a bounded time for the page to end the flow, and if it has not,
// asks again with the same URL (a new round), until the flow ends or expires.
import type { ServerContext } from "@modelcontextprotocol/server";
import type { ReplayRun } from "./replay.js";
import { createFlow, readAction, withoutUrlMode } from "../inputs/elicit-url.js";
import type { FlowEnd, UrlAsk, UrlCall } from "../inputs/url-delivery.js";
import type { FlowOutcome } from "../url/flows.js";

export const DEFAULT_RETRY_WAIT_MS = 25_000;

export async function replayUrlFlow(ctx: ServerContext, run: ReplayRun, urlMode: boolean, call: UrlCall, ask: UrlAsk): Promise<FlowEnd> {
  if (!urlMode) return withoutUrlMode(call, ctx, ask);
  const { flows } = call.kit;
  const name = `url-${ask.ordinal}`;
  // Only the id and expiry are sealed into the state; the flow itself is in the kit's store.
  const { id } = await run.step(`${name}-flow`, async () => {
    const flow = await createFlow(call.kit, ask);
    return { id: flow.id, expiresAt: flow.expiresAt };
  });
  const params = { mode: "url", message: ask.message, url: call.kit.connectUrl(id) };
  for (let attempt = 1; ; attempt++) {
    const key = attempt === 1 ? name : `${name}-${attempt}`;
    const action = await run.request("elicitation/create", params, readAction, key);
    if (action !== "accept") {
      const outcome = action === "decline" ? "declined" : "cancelled";
      // The page may have ended the flow first; its end stands.
      return { outcome: (await flows.finish(id, outcome)) ? outcome : ((await flows.outcome(id)) ?? outcome), flowId: id };
    }
    const ended = await flows.outcome(id);
    if (ended) return { outcome: ended, flowId: id };
    // A later round already asked again: this accept is history, not a reason to wait.
    if (run.answered(`${name}-${attempt + 1}`)) continue;
    const outcome = await waitBounded(call, ctx, id, ask.options.retryWaitMs ?? DEFAULT_RETRY_WAIT_MS);
    if (outcome) return { outcome, flowId: id };
  }
}

/** The flow's end if it comes within `ms` (or the call is cancelled: undefined, and the round goes out). */
async function waitBounded(call: UrlCall, ctx: ServerContext, id: string, ms: number): Promise<FlowOutcome | undefined> {
  // A timer of our own, not AbortSignal.timeout(ms): AbortSignal.any holds its sources only weakly and
  // nothing else holds a timeout signal, so a full garbage collection during the wait lost it and the
  // hold never ended (nodejs/node#57736, seen on Node 20.20). This timer holds its controller until cleared.
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new DOMException("The retry's wait is over.", "TimeoutError")), Math.min(ms, 2 ** 31 - 1));
  const bounded = AbortSignal.any([ctx.mcpReq.signal, timeout.signal]);
  try {
    return await call.kit.flows.waitFor(id, bounded);
  } catch (error) {
    if (bounded.aborted && !ctx.mcpReq.signal.aborted) return undefined;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
