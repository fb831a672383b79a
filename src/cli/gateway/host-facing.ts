// The gateway as its host sees it: a server with the upstream server's name, capabilities and
// instructions, that answers each request with the upstream server's answer. Requests and results pass
// as they are; what changes is listed in docs/cli/use-a-gateway.md (progress tokens, the revision's
// envelope, 2026-07-28 rounds held here, tasks followed here).
import {
  LOG_LEVEL_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type JSONRPCRequest,
  type Implementation,
  type ServerCapabilities,
  type ServerContext,
  type StandardSchemaV1,
} from "@modelcontextprotocol/server";
import type { Client, CallToolResult } from "@modelcontextprotocol/client";
import { CALL_TIMEOUT_MS, type ElicitationHandle } from "../../client/attach.js";
import { TASKS_EXTENSION } from "../../client/tasks/follow.js";
import { clientCapabilities, requestRevision } from "../../server/base/capabilities.js";
import type { ProtocolRevision } from "../../schema/types.js";
import { MAX_LABEL_LENGTH, sanitizeText } from "../../common/sanitize.js";
import { HeldCalls, type HeldCall } from "./held-calls.js";
import type { HostLinks, HostLink } from "./links.js";

type Result = Record<string, unknown>;

/** Takes any result as it is: the host checks what it receives, as it would without the gateway. */
const AS_SENT: StandardSchemaV1<unknown, Result> = {
  "~standard": { version: 1, vendor: "mcp-elicit", validate: (value) => ({ value: value as Result }) },
};

export interface Upstream {
  client: Client;
  elicitation: ElicitationHandle;
  serverInfo(): Implementation | undefined;
}

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

/** Where a forwarded request's progress goes: the host's own token, on the host request that waits. */
type Progress = (progress: Record<string, unknown>) => void;

/**
 * The capabilities the host is shown: the server's, less what the gateway answers itself (the tasks
 * extension: a call that becomes a task is followed here, and the host sees an ordinary call) and what
 * the host's revision cannot express (2025-11-25 tasks on a 2026-07-28 connection; resources/subscribe
 * for a 2025 host when the server speaks 2026-07-28).
 */
export function hostCapabilities(
  server: ServerCapabilities | undefined,
  era: "legacy" | "modern",
  modernServer: boolean,
): ServerCapabilities {
  const capabilities = { ...(server ?? {}) } as ServerCapabilities & { extensions?: Record<string, unknown>; tasks?: unknown };
  if (capabilities.extensions) {
    const { [TASKS_EXTENSION]: _followed, ...others } = capabilities.extensions;
    if (Object.keys(others).length) capabilities.extensions = others;
    else delete capabilities.extensions;
  }
  if (era === "modern") delete capabilities.tasks;
  // A 2025 host's resources/subscribe has no counterpart on a 2026-07-28 server's connection: not offered.
  if (era === "legacy" && modernServer && capabilities.resources?.subscribe) {
    const { subscribe: _none, ...resources } = capabilities.resources;
    capabilities.resources = resources;
  }
  return capabilities;
}

type SendRequest = (request: { method: string; params: Record<string, unknown> }, ...rest: unknown[]) => Promise<Result>;

/**
 * A question put to a 2025 host. An elicitation's answer is taken as it was sent, for the gateway's own
 * check of it against the question (checkHostAnswer, in route.ts), which names the field and the rule;
 * other answers pass the SDK's result check.
 */
function askHost(send: SendRequest, question: { method: string; params: Record<string, unknown> }, signal: AbortSignal): Promise<Result> {
  const request = { method: question.method, params: question.params };
  const options = { signal, timeout: CALL_TIMEOUT_MS };
  return question.method === "elicitation/create" ? send(request, AS_SENT, options) : send(request, options);
}

/** The requests a 2026-07-28 server may answer with input_required: held in rounds for a 2026-07-28 host. */
const HELD_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);

export interface HostFacing {
  factory(ctx: { era: "legacy" | "modern" }): Server;
  close(): void;
}

/** What the gateway tells the person about the host's calls (command.ts: stderr and the page). */
export interface HostFacingHooks {
  /** A host's tools/call started: what was said about an earlier one is old news. */
  callStarted?(tool: string): void;
  /**
   * The host stopped waiting for a tool call (its request timeout, or a cancel) after `afterMs`: the call
   * is cancelled upstream, and any question of it is withdrawn from the person. `tool` is host text.
   */
  stoppedWaiting?(tool: string, afterMs: number): void;
}

/** The sentence for a host that gave up on a call: that it stopped waiting, after how long, and what that means here. */
export function hostStoppedWaiting(tool: string, afterMs: number): string {
  const name = sanitizeText(tool, { maxLength: MAX_LABEL_LENGTH, multiline: false }) || "a tool";
  const seconds = afterMs < 10_000 ? Math.round(afterMs / 100) / 10 : Math.round(afterMs / 1000);
  return `The host stopped waiting for ${name} after ${seconds} s and cancelled the call: the question it asked is withdrawn, and an answer would no longer reach it.`;
}

/** Tells `hooks` when the host gives up on the call `signal` belongs to; returns the function that stops watching. */
function watchHostWait(tool: string, signal: AbortSignal, hooks: HostFacingHooks): () => void {
  const started = Date.now();
  hooks.callStarted?.(tool);
  const onAbort = () => hooks.stoppedWaiting?.(tool, Date.now() - started);
  if (signal.aborted) return () => {};
  signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}

export function hostFacing(upstream: Upstream, links: HostLinks, onerror: (error: Error) => void, hooks: HostFacingHooks = {}): HostFacing {
  const held = new HeldCalls();
  const { client } = upstream;
  const info: Implementation = upstream.serverInfo() ?? { name: "mcp-server", version: "0.0.0" };
  const instructions = client.getInstructions();
  const modernServer = () => client.getNegotiatedProtocolVersion() === "2026-07-28";

  progressBeforeResults(client);

  // What the server says outside any request reaches the hosts connected with a session.
  client.fallbackNotificationHandler = async (notification) => {
    const targets = links.connected().length > 0 ? links.connected() : [links.current()].filter((l) => l !== undefined);
    for (const link of targets) await link.notify(notification as never).catch(onerror);
  };

  /** Sends the host's request on to the server, its progress token replaced by one of the gateway's own. */
  async function forward(request: JSONRPCRequest, logLevel: unknown, signal: AbortSignal, progress: Progress | undefined): Promise<Result> {
    const params = request.params === undefined ? undefined : ({ ...request.params } as Result & { _meta?: Record<string, unknown> });
    let token: unknown;
    if (params?._meta && typeof params._meta === "object") {
      const { progressToken, ...meta } = params._meta;
      token = progressToken;
      if (Object.keys(meta).length) params._meta = meta;
      else delete params._meta;
    }
    // A 2026-07-28 server takes the log level with each request.
    let sent = params;
    if (logLevel !== undefined && modernServer()) sent = { ...params, _meta: { ...params?._meta, [LOG_LEVEL_META_KEY]: logLevel } };
    const options = {
      signal,
      timeout: CALL_TIMEOUT_MS,
      resetTimeoutOnProgress: true,
      ...(token !== undefined && progress ? { onprogress: (p: Record<string, unknown>) => progress({ progressToken: token, ...p }) } : {}),
    };
    // A call goes through the handle: -32042 URL flows, tasks followed to their end, the clock that waits for the person.
    if (request.method === "tools/call" && params?.task === undefined)
      return upstream.elicitation.callTool(sent as never, options) as Promise<CallToolResult> as Promise<Result>;
    try {
      return await client.request({ method: request.method, ...(sent ? { params: sent } : {}) } as never, AS_SENT, options);
    } catch (error) {
      // A 2025 method the server's revision does not have (resources/subscribe on 2026-07-28): the spec's answer for it.
      if (/not supported by the negotiated protocol version/.test((error as Error).message))
        throw new ProtocolError(
          ProtocolErrorCode.MethodNotFound,
          `Method not found: ${request.method} does not exist on ${client.getNegotiatedProtocolVersion()}, the revision the server speaks.`,
        );
      throw error;
    }
  }

  const progressOf =
    (ctx: ServerContext): Progress =>
    (params) =>
      void ctx.mcpReq.notify({ method: "notifications/progress", params } as never).catch(onerror);

  /** A 2026-07-28 host's call (tools/call, prompts/get, resources/read): held here, its questions sent to the host as rounds. */
  async function heldCall(request: JSONRPCRequest, ctx: ServerContext, link: Omit<HostLink, "ask">, logLevel: unknown): Promise<Result> {
    let call: HeldCall;
    const state = ctx.mcpReq.requestState();
    if (state !== undefined) {
      call = held.resume(state);
      call.answer(ctx.mcpReq.inputResponses);
    } else {
      call = held.start((c) =>
        links.within({ ...link, ask: (question, signal) => c.ask(question, signal) }, () =>
          forward(request, logLevel, c.abort.signal, (p) => c.progress?.(p)),
        ),
      );
    }
    call.progress = progressOf(ctx);
    return call.round(ctx.mcpReq.signal);
  }

  function factory({ era }: { era: "legacy" | "modern" }): Server {
    const capabilities = hostCapabilities(client.getServerCapabilities(), era, modernServer());
    const server = new Server(info, { capabilities, ...(instructions ? { instructions } : {}) });
    // A 2025 host's logging/setLevel, kept for a 2026-07-28 server (which takes the level with each request).
    let sessionLevel: unknown;
    const serve = (request: JSONRPCRequest, ctx: ServerContext): Promise<Result> => {
      const protocol: ProtocolRevision = requestRevision(server, ctx);
      // A 2026-07-28 host's level travels in its envelope, which its SDK server lifted off.
      const logLevel = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[LOG_LEVEL_META_KEY] ?? sessionLevel;
      const link = {
        protocol,
        capabilities: clientCapabilities(server, ctx, protocol),
        notify: (n: { method: string; params?: Record<string, unknown> }) => ctx.mcpReq.notify(n as never),
      };
      if (protocol === "2026-07-28" && HELD_METHODS.has(request.method)) return heldCall(request, ctx, link, logLevel);
      const ask = (question: { method: string; params: Record<string, unknown> }, signal: AbortSignal) =>
        askHost(ctx.mcpReq.send as never, question, signal);
      // A 2025 host's call is open for as long as it waits: its cancel (a request timeout, 60 s in many SDKs) is heard here.
      const name = (request.params as { name?: unknown } | undefined)?.name;
      const unwatch = request.method === "tools/call" ? watchHostWait(String(name ?? ""), ctx.mcpReq.signal, hooks) : undefined;
      return links
        .within({ ...link, ask, signal: ctx.mcpReq.signal }, () => forward(request, logLevel, ctx.mcpReq.signal, progressOf(ctx)))
        .finally(() => unwatch?.());
    };
    server.fallbackRequestHandler = serve as never;
    // The SDK answers logging/setLevel itself where logging is declared: the server is the one to hear it
    // (a 2026-07-28 server has no setLevel: the level goes with each later request instead).
    if (capabilities.logging)
      server.setRequestHandler("logging/setLevel", async (request, ctx) => {
        if (!modernServer()) return (await serve(request as never, ctx)) as never;
        sessionLevel = request.params.level;
        return {};
      });
    // What the host says (roots changed, a progress of its own) goes on to the server.
    server.fallbackNotificationHandler = async (notification) => {
      await client.notification(notification as never).catch(() => {});
    };
    if (era === "legacy") {
      let remove: (() => void) | undefined;
      server.oninitialized = () => {
        const protocol = (server.getNegotiatedProtocolVersion() ?? "2025-06-18") >= "2025-11-25" ? "2025-11-25" : "2025-06-18";
        remove = links.addSession({
          protocol,
          capabilities: server.getClientCapabilities() ?? {},
          ask: (q, signal) => askHost(server.request.bind(server) as never, q, signal),
          notify: (n) => server.notification(n as never),
        });
      };
      server.onclose = () => remove?.();
    }
    return server;
  }

  return { factory, close: () => held.close() };
}
