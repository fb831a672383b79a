// URL flows on 2025-era connections. 2025-11-25 has two ways, chosen per call: "request" sends
// elicitation/create (mode url, elicitationId = the flow id) and keeps the tool call open, with progress,
// until the page ends the flow; "error" ends the call with -32042 listing the URL, and the client's
// retry of the same call finds the flow. Either way the kit sends notifications/elicitation/complete
// on the originating connection when the flow ends. 2025-06-18 has no URL mode: the fallback.
import { UrlElicitationRequiredError, type McpServer, type ServerContext } from "@modelcontextprotocol/server";
import type { ProtocolRevision } from "../../schema/types.js";
import { InputTimeoutError, sendLive, type ProgressKeepAlive } from "./live.js";
import { correlatedFlow, createFlow, readAction, withoutUrlMode } from "../inputs/elicit-url.js";
import type { FlowEnd, UrlAsk, UrlCall } from "../inputs/url-delivery.js";

export interface LiveUrlSettings {
  /** How long the client may take to answer the request (the person's consent). */
  timeoutMs: number;
  /** The flows whose completion notice this connection will get, so a repeated -32042 adds no second watcher. */
  announced: Set<string>;
}

/** Runs one URL flow on a 2025-era connection; resolves with how the flow ended. */
export async function liveUrlFlow(
  server: McpServer,
  ctx: ServerContext,
  protocol: ProtocolRevision,
  urlMode: boolean,
  keepAlive: ProgressKeepAlive,
  call: UrlCall,
  ask: UrlAsk,
  settings: LiveUrlSettings,
): Promise<FlowEnd> {
  if (!urlMode || protocol === "2025-06-18") return withoutUrlMode(call, ctx, ask);
  return ask.options.via === "error"
    ? viaError(server, ctx, call, ask, settings.announced)
    : viaRequest(server, ctx, keepAlive, call, ask, settings);
}

async function viaRequest(
  server: McpServer,
  ctx: ServerContext,
  keepAlive: ProgressKeepAlive,
  call: UrlCall,
  ask: UrlAsk,
  settings: LiveUrlSettings,
): Promise<FlowEnd> {
  const { flows } = call.kit;
  const flow = await createFlow(call.kit, ask);
  const params = { mode: "url", message: ask.message, url: call.kit.connectUrl(flow.id), elicitationId: flow.id };
  let action: "accept" | "decline" | "cancel";
  try {
    const consentMs = Math.min(settings.timeoutMs, flow.expiresAt - Date.now());
    action = readAction(await sendLive(server, ctx, keepAlive, "elicitation/create", params, ask.message, consentMs));
  } catch (error) {
    // Nobody may finish a flow whose request was withdrawn.
    await flows.finish(flow.id, error instanceof InputTimeoutError ? "expired" : "cancelled");
    if (error instanceof InputTimeoutError) return { outcome: "expired", flowId: flow.id };
    throw error;
  }
  if (action !== "accept") {
    await flows.finish(flow.id, action === "decline" ? "declined" : "cancelled");
    return { outcome: action === "decline" ? "declined" : "cancelled", flowId: flow.id };
  }
  let outcome: FlowEnd["outcome"];
  try {
    outcome = await keepAlive.during(ask.message, () => flows.waitFor(flow.id, ctx.mcpReq.signal));
  } catch (error) {
    // The call was cancelled (or its connection closed) while the person was in the browser.
    await flows.finish(flow.id, "cancelled");
    throw error;
  }
  // On the call's own stream: the client is waiting on this connection.
  await server.server
    .createElicitationCompletionNotifier(flow.id, { relatedRequestId: ctx.mcpReq.id })()
    .catch(() => {}); // a client that left cannot be told, and needs no telling
  return { outcome, flowId: flow.id };
}

async function viaError(server: McpServer, ctx: ServerContext, call: UrlCall, ask: UrlAsk, ids: Set<string>): Promise<FlowEnd> {
  const { flow, outcome } = await correlatedFlow(call, ctx, ask);
  if (outcome) return { outcome, flowId: flow.id };
  const url = call.kit.connectUrl(flow.id);
  // The call ends now; the completion notice goes out on this session when the page ends the flow
  // (another process's finish is seen by the wait's poll), also for a retry after a restart.
  if (!ids.has(flow.id)) {
    ids.add(flow.id);
    void call.kit.flows
      .waitFor(flow.id, call.kit.signal, { keepAlive: false })
      .then(() => server.server.createElicitationCompletionNotifier(flow.id)())
      .catch(() => {}) // the kit closed, or the session is gone: nobody to tell
      .finally(() => ids.delete(flow.id));
  }
  throw new UrlElicitationRequiredError(
    [{ mode: "url", message: ask.message, url, elicitationId: flow.id }],
    `This tool needs you to open a URL first: ${ask.message}`,
  );
}
