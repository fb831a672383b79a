// One host's server in the gateway: each request is served over the connection to the server at the
// host's revision (upstreams.ts), with the server's questions for it routed back to this host (links.ts)
// and its progress kept alive while the person answers on the page (host-progress.ts).
import {
  LOG_LEVEL_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type JSONRPCRequest,
  type Notification,
  type Request,
  type RequestOptions,
  type Implementation,
  type ServerCapabilities,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { CALL_TIMEOUT_MS } from "../../client/attach.js";
import { TASKS_EXTENSION } from "../../client/tasks/follow.js";
import type { ServerQuestion } from "../../client/attached.js";
import { clientCapabilities, requestRevision } from "../../server/base/capabilities.js";
import type { ProtocolRevision } from "../../schema/types.js";
import { answeredByApp, ANSWER_TOOL, FORM_APP_URI } from "../../server/apps/ui-extension.js";
import { APP_CAPABILITIES, APP_PROTOCOL, type GatewayApps } from "./app-answers.js";
import { AS_SENT, forward, progressTokenOf, type Result } from "./forward.js";
import type { HeldCall, HeldCalls } from "./held-calls.js";
import { HostProgress } from "./host-progress.js";
import { watchHostWait, type HostFacingHooks } from "./host-wait.js";
import type { HostLink, HostLinks } from "./links.js";
import type { Subscriptions } from "./subscriptions.js";
import type { Upstream, Upstreams } from "./upstreams.js";

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

/** Sends a request to the host, with a result schema (the SDK's request or ctx.mcpReq.send). */
type SendRequest = (request: Request, resultSchema: typeof AS_SENT, options?: RequestOptions) => Promise<Result>;

/**
 * A question put to a 2025 host, its answer taken as it was sent: an elicitation's for the gateway's own
 * check of it against the question (checkHostAnswer, in route.ts), which names the field and the rule;
 * the other answers (sampling, roots) are checked by the server they go on to, as without the gateway.
 */
const askHost = (send: SendRequest, question: ServerQuestion, signal: AbortSignal): Promise<Result> =>
  send({ method: question.method, params: question.params }, AS_SENT, { signal, timeout: CALL_TIMEOUT_MS });

/** What a host request's link has before it is told how to ask the host. */
type RequestLink = Omit<HostLink, "ask">;

/** The requests a 2026-07-28 server may answer with input_required: held in rounds for a 2026-07-28 host. */
const HELD_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);
const SUBSCRIPTIONS = new Set(["resources/subscribe", "resources/unsubscribe"]);

/** The host's progress for one of its requests, sent with `notify`. */
const progressFor = (request: JSONRPCRequest, notify: (n: Notification) => Promise<void>, onerror: (e: Error) => void) =>
  new HostProgress(progressTokenOf(request), (params) => void notify({ method: "notifications/progress", params }).catch(onerror));

/** A 2025 host's resources/subscribe or unsubscribe, kept per host (subscriptions.ts) and passed on as needed. */
function subscription(
  server: Server,
  subscriptions: ReturnType<FrontDoor["subscriptions"]>,
  request: JSONRPCRequest,
  passOn: () => Promise<Result>,
): Promise<Result> {
  const uri = request.params?.uri;
  if (typeof uri !== "string" || uri === "")
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid params: ${request.method} needs params.uri, the resource's URI (a string).`,
    );
  return request.method === "resources/subscribe"
    ? subscriptions.subscribe(server, uri, passOn)
    : subscriptions.unsubscribe(server, uri, passOn);
}

export function hostServer(era: "legacy" | "modern", door: FrontDoor): Server {
  const { upstreams, links, held, hooks, onerror } = door;
  const upstreamCapabilities = upstreams.primary.client.getServerCapabilities();
  const capabilities = hostCapabilities(upstreamCapabilities, era);
  // --ui app: the form app is a resource, listed even where the server has none.
  if (door.apps && !capabilities.resources) capabilities.resources = {};
  const server = new Server(door.info, { capabilities, ...(door.instructions ? { instructions: door.instructions } : {}) });
  // A 2025 host's logging/setLevel, kept for a 2026-07-28 server (which takes the level with each request).
  let sessionLevel: unknown;

  /** A 2026-07-28 host's call (tools/call, prompts/get, resources/read): held here, its questions sent to the host as rounds. */
  function heldCall(request: JSONRPCRequest, ctx: ServerContext, link: RequestLink, logLevel: unknown): Promise<Result> {
    let call: HeldCall;
    const state = ctx.mcpReq.requestState();
    if (state !== undefined) {
      call = held.resume(state);
      call.answer(ctx.mcpReq.inputResponses);
    } else {
      call = held.start(async (c) => {
        const progress = new HostProgress(progressTokenOf(request), (p) => c.progress?.(p));
        const within = { ...link, ask: c.ask.bind(c), personAnswering: () => progress.personAnswering() };
        const upstream = await upstreams.for("2026-07-28");
        const onprogress = progress.asked ? progress.fromServer : undefined;
        return links.within(within, () => forward(upstream, request, logLevel, c.abort.signal, onprogress)).finally(() => progress.stop());
      });
    }
    call.progress = (params) => void ctx.mcpReq.notify({ method: "notifications/progress", params }).catch(onerror);
    return call.round(ctx.mcpReq.signal);
  }

  /**
   * --ui app, a host that renders apps and cannot be asked: its calls' questions come back as the form app
   * (app-answers.ts), its lists show the app, and the app's resource and answers are served here.
   * Undefined: the request passes as for any host.
   */
  async function forApp(request: JSONRPCRequest, ctx: ServerContext, link: RequestLink, logLevel: unknown): Promise<Result | undefined> {
    const apps = door.apps!;
    const upstream = await upstreams.for(link.protocol);
    const signal = ctx.mcpReq.signal;
    const params = request.params ?? {};
    switch (request.method) {
      case "tools/list":
        return apps.listTools(await forward(upstream, request, logLevel, signal));
      case "resources/list":
        return apps.listResources(upstreamCapabilities?.resources ? await forward(upstream, request, logLevel, signal) : { resources: [] });
      case "resources/templates/list":
        return upstreamCapabilities?.resources ? undefined : { resourceTemplates: [] };
      case "resources/read":
        return params.uri === FORM_APP_URI ? apps.readApp() : undefined;
      case "tools/call": {
        if (params.name === ANSWER_TOOL) return apps.answer(params.arguments, signal);
        const tool = String(params.name ?? "");
        return apps.call(
          tool,
          params.arguments ?? {},
          (call) => {
            // The app's questions go to the held call; what the app cannot answer goes where it would without it.
            const within = { ...link, protocol: APP_PROTOCOL, capabilities: APP_CAPABILITIES, ask: call.ask.bind(call) };
            return links.within(within, () => forward(upstream, request, logLevel, call.abort.signal));
          },
          signal,
        );
      }
    }
    return undefined;
  }

  async function serve(request: JSONRPCRequest, ctx: ServerContext): Promise<Result> {
    const protocol: ProtocolRevision = requestRevision(server, ctx);
    // A 2026-07-28 host's level travels in its envelope, which its SDK server lifted off.
    const logLevel = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[LOG_LEVEL_META_KEY] ?? sessionLevel;
    const notify = (n: Notification) => ctx.mcpReq.notify(n);
    const link: RequestLink = { protocol, capabilities: clientCapabilities(server, ctx, protocol), notify };
    if (door.apps && answeredByApp(link.capabilities)) {
      const served = await forApp(request, ctx, link, logLevel);
      if (served) return served;
    }
    if (protocol === "2026-07-28" && HELD_METHODS.has(request.method)) return heldCall(request, ctx, link, logLevel);
    const upstream = await upstreams.for(protocol);
    const signal = ctx.mcpReq.signal;
    if (era === "legacy" && SUBSCRIPTIONS.has(request.method))
      return subscription(server, door.subscriptions(upstream), request, () => forward(upstream, request, logLevel, signal));
    const progress = progressFor(request, notify, onerror);
    const personAnswering = () => (hooks.personAnswering?.(progress.asked), progress.personAnswering());
    const ask = (question: ServerQuestion, signal: AbortSignal) => askHost(ctx.mcpReq.send, question, signal);
    // A 2025 host's call is open for as long as it waits: its cancel (a request timeout, 60 s in many SDKs) is heard here.
    const unwatch = request.method === "tools/call" ? watchHostWait(String(request.params?.name ?? ""), signal, hooks) : undefined;
    const onprogress = progress.asked ? progress.fromServer : undefined;
    return links
      .within({ ...link, ask, signal, personAnswering }, () => forward(upstream, request, logLevel, signal, onprogress))
      .finally(() => (unwatch?.(), progress.stop()));
  }

  server.fallbackRequestHandler = serve;
  // The SDK answers logging/setLevel itself where logging is declared: the server is the one to hear it
  // (a 2026-07-28 server has no setLevel: the level goes with each later request instead).
  if (capabilities.logging)
    server.setRequestHandler("logging/setLevel", async (request, ctx) => {
      const upstream = await upstreams.for(requestRevision(server, ctx));
      if (upstream.protocol !== "2026-07-28") return serve({ jsonrpc: "2.0", id: ctx.mcpReq.id, ...request }, ctx);
      sessionLevel = request.params.level;
      return {};
    });
  // What the host says (roots changed, a progress of its own) goes on to the server.
  server.fallbackNotificationHandler = async (notification) => {
    const upstream = links.connected().find((link) => link.session === server)?.upstream ?? upstreams.primary;
    await upstream.client.notification(notification).catch(() => {});
  };
  if (era === "legacy") attachSession(server, door);
  return server;
}

/**
 * A 2025 host's connection: what the server asks or says outside any call reaches it (roots/list at
 * start, list changes, the updates of its subscriptions), over the connection at its revision.
 */
function attachSession(server: Server, door: FrontDoor): void {
  let remove: (() => void) | undefined;
  let closed = false;
  let session: HostLink["upstream"];
  server.oninitialized = () => {
    const protocol = (server.getNegotiatedProtocolVersion() ?? "2025-06-18") >= "2025-11-25" ? "2025-11-25" : "2025-06-18";
    void door.upstreams
      .for(protocol)
      .then(async (upstream) => {
        if (closed) return;
        session = upstream;
        remove = door.links.addSession({
          protocol,
          capabilities: server.getClientCapabilities() ?? {},
          ask: (question, signal) => askHost(server.request.bind(server), question, signal),
          notify: (n) => server.notification(n),
          upstream,
          session: server,
        });
        await door.subscriptions(upstream).attach(server);
      })
      .catch(door.onerror);
  };
  server.onclose = () => {
    closed = true;
    remove?.();
    if (session) {
      const upstream = session;
      door.subscriptions(upstream).detach(server, (uri) => upstream.client.unsubscribeResource({ uri }));
    }
  };
}
