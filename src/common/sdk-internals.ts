// Every SDK member this package uses that is not public API, in one module. Each has a public
// alternative that does not do the job (docs/design/sdk-seams.md says why, per member); each access
// checks the member is there and throws SdkInternalsError when it is not, so an SDK that changed
// fails loudly at startup instead of silently losing a feature. The SDK range in package.json is
// pinned to the tested minor, and test/common/sdk-internals.test.ts exercises each one.
import { ElicitError } from "../schema/errors.js";

/** The SDK minor these members were checked against. */
export const SUPPORTED_SDK = "2.4";

export class SdkInternalsError extends ElicitError {
  constructor(member: string) {
    super(
      "sdk-unsupported",
      `mcp-elicit: the MCP SDK's ${member} is missing or changed; this SDK version is not supported (mcp-elicit works with @modelcontextprotocol/* ${SUPPORTED_SDK}.x).`,
    );
  }
}

type Handler = (request: { params?: Record<string, unknown> }, ctx: never) => Promise<unknown>;

/**
 * The server's request handler map (`Protocol._requestHandlers`), to put a check in front of the
 * tools/call handler McpServer installed. Why not `requestState.verify`: it answers a frozen
 * "Invalid or expired requestState" whatever the reason, and can only be given to the constructor.
 */
export function requestHandlers(server: object): Map<string, Handler> {
  const handlers = (server as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) throw new SdkInternalsError("Protocol._requestHandlers");
  return handlers as Map<string, Handler>;
}

/**
 * The name a server introduces itself with (`Server._serverInfo.name`, read only): the default issuer
 * its requestState is sealed for. Why not public: the SDK has no getter for the server's own info.
 */
export function serverName(server: object): string {
  const name = (server as { _serverInfo?: { name?: unknown } })._serverInfo?.name;
  if (typeof name !== "string") throw new SdkInternalsError("Server._serverInfo");
  return name;
}

type Dispatch = (notification: { method?: unknown }, extra?: unknown) => unknown;

/**
 * Calls `watch` for every notification the server receives, before its own dispatch
 * (`Protocol._onnotification`). Why not `setNotificationHandler`: there is one handler per method, so
 * ours would replace the author's (or be replaced by theirs).
 */
export function watchNotifications(server: object, watch: (notification: { method?: unknown }) => void): void {
  const protocol = server as { _onnotification?: Dispatch };
  const dispatch = protocol._onnotification;
  if (typeof dispatch !== "function") throw new SdkInternalsError("Protocol._onnotification");
  protocol._onnotification = function (this: unknown, notification, extra) {
    watch(notification);
    return dispatch.call(this, notification, extra);
  };
}

type Wrap = (method: string, handler: Handler) => Handler;

/**
 * Runs `register` while the client's `_wrapHandler` (protected: a hook for subclasses) also applies
 * `outer` around the SDK's own wrapper, then restores it. Why: the SDK checks an elicitation request
 * against its schema before any handler runs and answers a form it cannot parse with a dump of zod
 * issues; `outer` runs first so every invalid form gets one -32602 listing each problem with its rule
 * code. A subclass would do it without this, but hosts pass in a Client they made.
 */
export function wrapClientHandlers(client: object, outer: (method: string, wrapped: Handler) => Handler, register: () => void): void {
  const hooks = client as { _wrapHandler?: Wrap };
  const sdkWrap = hooks._wrapHandler;
  if (typeof sdkWrap !== "function") throw new SdkInternalsError("Protocol._wrapHandler");
  const own = Object.hasOwn(client, "_wrapHandler");
  hooks._wrapHandler = (method, handler) => outer(method, sdkWrap.call(client, method, handler));
  try {
    register();
  } finally {
    if (own) hooks._wrapHandler = sdkWrap;
    else delete hooks._wrapHandler;
  }
}

/**
 * The `_meta` envelope a 2026-07-28 client puts on each request (`Protocol._outboundMetaEnvelope`,
 * protected): its revision, clientInfo and declared capabilities; undefined on 2025 eras. Why: a request
 * whose answer the SDK client cannot decode (a task handle, resultType "task") is sent around it
 * (client/tasks/raw-request.ts) and must carry the same envelope.
 */
export function outboundEnvelope(client: object): Record<string, unknown> | undefined {
  const seam = (client as { _outboundMetaEnvelope?: () => Record<string, unknown> | undefined })._outboundMetaEnvelope;
  if (typeof seam !== "function") throw new SdkInternalsError("Protocol._outboundMetaEnvelope");
  return seam.call(client);
}

type StoredHandler = (request: Record<string, unknown>, ctx: unknown) => Promise<unknown>;

/**
 * The client's stored handler for `method` (`Protocol._getRequestHandler`, protected: "for role classes
 * that dispatch synthesized requests through the same stored handler chain"), as the SDK's own
 * input_required driver uses it. Why: a task's questions arrive on tasks/get, outside any request the
 * SDK dispatches, and must be answered by the same handlers (and checks) as every other question.
 */
export function storedRequestHandler(client: object, method: string): StoredHandler | undefined {
  const get = (client as { _getRequestHandler?: (method: string) => StoredHandler | undefined })._getRequestHandler;
  if (typeof get !== "function") throw new SdkInternalsError("Protocol._getRequestHandler");
  return get.call(client, method);
}
