// ctx.elicitUrl, ctx.connect, ctx.collect and ctx.elicitFile: a flow of the kit (flows.ts), the client sent to the kit's
// connect page for it, and the tool waiting until the page ends the flow. What is the same on every
// revision lives here (the checks, the flow, the outcome, the fallback for clients without URL mode);
// how the URL reaches the client is the way of asking's (url-delivery.ts, the port): live-url.ts
// (2025-11-25) and replay-url.ts (2026-07-28).
import { createHash } from "node:crypto";
import { CLIENT_INFO_META_KEY, type McpServer, type ServerContext } from "@modelcontextprotocol/server";
import { MAX_LABEL_LENGTH, sanitizeText } from "../../common/sanitize.js";
import { requireFileType } from "../url/files/sniff.js";
import { toRequestedSchema } from "../../schema/compiled.js";
import type { SchemaInput } from "../../schema/normalize.js";
import type { ProtocolRevision } from "../../schema/types.js";
import { principalOf } from "../auth/principal.js";
import { InvalidClientResultError } from "../base/input-errors.js";
import { callerOwner } from "../base/owner.js";
import { UrlLinkResult, UrlModeUnavailableError } from "../url/errors.js";
import type { FileAsk, FlowKind, FlowOutcome, UrlFlow } from "../url/flows.js";
import { DEFAULT_STORE_SINK_MAX_BYTES } from "../url/files/store-sink.js";
import type { ElicitedFile } from "../url/uploads.js";
import { isLoopbackHost, type UrlKit } from "../url/url-kit.js";
import type { FlowEnd, UrlAsk, UrlCall, UrlDelivery, UrlElicitOptions } from "./url-delivery.js";

export interface ConnectOptions extends UrlElicitOptions {
  /** Why the tool needs the account (default: "Connect your <provider> account"). */
  message?: string;
}

export interface CollectOptions extends UrlElicitOptions {
  /** The vault name the submitted values are kept under, for the caller's principal (default: the flow id). */
  name?: string;
}

export interface FileOptions extends UrlElicitOptions {
  /** What may be sent: MIME types ("application/pdf"), families ("image/*") or extensions (".pdf"); the content is checked, not only the name. */
  accept: readonly string[];
  /** Largest file, in bytes: enforced while the file streams in. */
  maxBytes: number;
  /** How many files the person may send (default 1, at most 20). */
  count?: number;
}

/** The most files one ctx.elicitFile may ask for. */
export const MAX_FILE_COUNT = 20;

/** How a URL flow ended for the tool. */
export type UrlOutcome = "completed" | "connected" | "declined" | "cancelled" | "timed out";

export interface UrlResult<O extends UrlOutcome = UrlOutcome> {
  outcome: O;
  /** The flow's id: the vault name of collect's values when none was given. */
  flowId: string;
}

type Ended = "declined" | "cancelled" | "timed out";

/** What ctx.elicitFile resolves to: the files when the person sent them, else how the flow ended. */
export type FileResult = (UrlResult<"completed"> & { files: ElicitedFile[] }) | UrlResult<Ended>;

export interface UrlInputs {
  /**
   * Sends the person to `url` (a page of yours; give a function to put the flow id in it), after the kit's
   * connect page checked who opened it. Your page ends the flow with `kit.flows.finish(flowId, "completed")`.
   */
  elicitUrl(
    message: string,
    url: string | ((flowId: string) => string),
    options?: UrlElicitOptions,
  ): Promise<UrlResult<"completed" | Ended>>;
  /** Connects the caller's account at one of the kit's third-party providers; the tokens stay in the kit's vault. */
  connect(provider: string, options?: ConnectOptions): Promise<UrlResult<"connected" | Ended>>;
  /** Asks for `form` on the kit's hosted page (card data, API keys); the values stay in the kit's vault. */
  collect(message: string, form: SchemaInput, options?: CollectOptions): Promise<UrlResult<"completed" | Ended>>;
  /** Asks the person for a file on the kit's upload page; the bytes go to the kit's file sink, never through the client. */
  elicitFile(message: string, options: FileOptions): Promise<FileResult>;
}

/** The client's answer to a URL elicitation: only the action counts. */
export function readAction(answer: unknown): "accept" | "decline" | "cancel" {
  const action = (answer as { action?: unknown } | null)?.action;
  if (action === "accept" || action === "decline" || action === "cancel") return action;
  throw new InvalidClientResultError("elicitation/create", "action must be accept, decline or cancel.");
}

export function resultOf<K extends FlowKind>(kind: K, { outcome, flowId }: FlowEnd) {
  const done = kind === "connect" ? "connected" : "completed";
  const mapped = outcome === "completed" ? done : outcome === "expired" ? "timed out" : outcome;
  return { outcome: mapped, flowId } as UrlResult<(K extends "connect" ? "connected" : "completed") | Ended>;
}

/** Creates the flow; the author's target is built from its id and checked. */
export function createFlow(kit: UrlKit, ask: UrlAsk): Promise<UrlFlow> {
  const target = ask.target;
  return kit.flows.create(target ? { ...ask.init, target: (id) => checkTarget(target(id)) } : ask.init);
}

function checkTarget(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`ctx.elicitUrl: ${JSON.stringify(String(value).slice(0, 200))} is not an absolute URL.`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname)))
    throw new TypeError(`ctx.elicitUrl: the URL must be https (http only on localhost), got ${url.protocol}//${url.host}.`);
  return url.href;
}

/**
 * The key under which a retry of the same call finds its flow: the caller (or, for nobody verified,
 * the session), the tool, its arguments and which URL flow of the call this is. Undefined when the
 * caller cannot be told apart (no principal and no session): such calls never share a flow.
 */
export function retryKey(call: UrlCall, ctx: ServerContext, ordinal: number): string | undefined {
  const who = callerOwner(call.who, ctx);
  if (who === undefined) return undefined;
  const digest = createHash("sha256")
    .update(stableJson([who, call.tool, call.args ?? {}, ordinal]))
    .digest("base64url");
  return `call:${digest}`;
}

/** JSON with object keys sorted, so the same arguments give the same digest whatever their order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/**
 * A flow found again by a retry of the same call, or a new one. The retry key is kept as long as the
 * flow and its end are, and dropped when the call returns (UrlCall.used), so a later call asks anew.
 */
export async function correlatedFlow(
  call: UrlCall,
  ctx: ServerContext,
  ask: UrlAsk,
): Promise<{ flow: UrlFlow; outcome?: FlowOutcome; fresh: boolean }> {
  const key = retryKey(call, ctx, ask.ordinal);
  const { flows } = call.kit;
  if (key) {
    call.used.add(key);
    const known = await flows.byAlias(key);
    if (known && known.kind === ask.kind) return { flow: known, fresh: false, ...withOutcome(await flows.outcome(known.id)) };
  }
  const flow = await createFlow(call.kit, ask);
  if (key) await flows.alias(key, flow.id);
  return { flow, fresh: true };
}

const withOutcome = (outcome: FlowOutcome | undefined) => (outcome ? { outcome } : {});

/** The fallback for a client without URL mode: a tool error, or the link as the tool's result (a retry finds the flow). */
export async function withoutUrlMode(call: UrlCall, ctx: ServerContext, ask: UrlAsk): Promise<FlowEnd> {
  if ((ask.options.fallback ?? call.kit.options.fallback ?? "error") === "error") throw new UrlModeUnavailableError(ask.message);
  const { flow, outcome } = await correlatedFlow(call, ctx, ask);
  if (outcome) return { outcome, flowId: flow.id };
  throw new UrlLinkResult(ask.message, call.kit.connectUrl(flow.id), flow.expiresAt);
}

/** The MCP client's name for the pages, from this call (2026-07-28) or the session (2025 eras); client text, so made inert. */
export function clientNameOf(server: McpServer, ctx: ServerContext, protocol: ProtocolRevision): string {
  const info =
    protocol === "2026-07-28"
      ? (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_INFO_META_KEY]
      : server.server.getClientVersion();
  const name = (info as { name?: unknown } | undefined)?.name;
  return typeof name === "string" && name.trim() ? sanitizeText(name, { maxLength: MAX_LABEL_LENGTH, multiline: false }) : "an MCP client";
}

/** Checks the tool's arguments to ctx.elicitUrl / connect / collect and describes the flow they ask for. */
export function describeAsk(
  call: UrlCall,
  delivery: UrlDelivery,
  ordinal: number,
  what:
    | { kind: "url"; message: string; url: string | ((flowId: string) => string); options: UrlElicitOptions }
    | { kind: "connect"; provider: string; options: ConnectOptions }
    | { kind: "form"; message: string; form: SchemaInput; options: CollectOptions }
    | { kind: "file"; message: string; options: FileOptions },
): UrlAsk {
  const { kit } = call;
  const verified = principalOf(delivery.ctx);
  const principal = verified?.sub ? { issuer: verified.issuer ?? "", sub: verified.sub } : undefined;
  const identity = kit.options.identity ?? "oidc";
  if (!principal && identity === "oidc")
    throw new Error(
      'URL-mode flows need to know who calls: serve with serveHttp(factory, { auth }) so the pages can check the person\'s sign-in, or give createUrlKit an identity of "loopback" or { identify }.',
    );
  const base = {
    ...(principal ? { principal } : {}),
    server: kit.options.serverName ?? kit.baseUrl?.host ?? "this server",
    client: delivery.clientName(),
    ...(what.options.timeoutMs !== undefined ? { ttlMs: what.options.timeoutMs } : {}),
  };
  switch (what.kind) {
    case "url": {
      if (typeof what.message !== "string" || !what.message.trim())
        throw new TypeError("ctx.elicitUrl: message must be a non-empty string.");
      const target = typeof what.url === "function" ? what.url : () => what.url as string;
      // Checked now, so a bad URL fails before any flow or request exists.
      if (typeof what.url === "string") checkTarget(what.url);
      return {
        kind: "url",
        message: what.message,
        options: what.options,
        init: { ...base, kind: "url", message: what.message },
        target,
        ordinal,
      };
    }
    case "connect": {
      const provider = kit.options.providers?.[what.provider];
      if (!provider || !Object.hasOwn(kit.options.providers!, what.provider))
        throw new TypeError(
          `ctx.connect: unknown provider ${JSON.stringify(what.provider)}; the kit's providers are: ${Object.keys(kit.options.providers ?? {}).join(", ") || "none"}.`,
        );
      const message = what.options.message ?? `Connect your ${provider.title ?? what.provider} account`;
      return {
        kind: "connect",
        message,
        options: what.options,
        init: { ...base, kind: "connect", message, provider: what.provider },
        ordinal,
      };
    }
    case "form": {
      if (typeof what.message !== "string" || !what.message.trim()) throw new TypeError("ctx.collect: message must be a non-empty string.");
      const form = toRequestedSchema(what.form);
      const name = what.options.name;
      return {
        kind: "form",
        message: what.message,
        options: what.options,
        init: { ...base, kind: "form", message: what.message, form, ...(name !== undefined ? { name } : {}) },
        ordinal,
      };
    }
    case "file": {
      if (typeof what.message !== "string" || !what.message.trim())
        throw new TypeError("ctx.elicitFile: message must be a non-empty string.");
      return {
        kind: "file",
        message: what.message,
        options: what.options,
        init: { ...base, kind: "file", message: what.message, file: fileAsk(what.options, kit) },
        ordinal,
      };
    }
  }
}

/** ctx.elicitFile's options, checked: each rule named in the error. */
function fileAsk(options: FileOptions, kit: UrlKit): FileAsk {
  const { accept, maxBytes, count = 1 } = (options ?? {}) as Partial<FileOptions>;
  if (
    !Array.isArray(accept) ||
    accept.length === 0 ||
    accept.some((a) => typeof a !== "string" || !/^(\.[A-Za-z0-9]{1,16}|\*\/\*|[a-z]+\/(\*|[A-Za-z0-9.+-]+))$/.test(a))
  )
    throw new TypeError(
      'ctx.elicitFile: accept must be a non-empty list of MIME types ("application/pdf"), families ("image/*") or extensions (".pdf").',
    );
  if (typeof maxBytes !== "number" || !Number.isSafeInteger(maxBytes) || maxBytes < 1)
    throw new TypeError("ctx.elicitFile: maxBytes must be a positive whole number of bytes.");
  // Said now rather than to the person after their upload: the kit's store keeps only small files.
  if (!kit.options.files?.sink && maxBytes > DEFAULT_STORE_SINK_MAX_BYTES)
    throw new TypeError(
      `ctx.elicitFile: maxBytes ${maxBytes} is more than the kit's store keeps (${DEFAULT_STORE_SINK_MAX_BYTES} bytes); give createUrlKit({ files: { sink: directorySink(dir) } }) or your own FileSink for larger files.`,
    );
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_FILE_COUNT)
    throw new TypeError(`ctx.elicitFile: count must be a whole number from 1 to ${MAX_FILE_COUNT}.`);
  return { accept: [...accept], maxBytes, count };
}

type Asked = Parameters<typeof describeAsk>[3];

/** ctx.elicitUrl, ctx.connect, ctx.collect and ctx.elicitFile for one call, over `delivery`. Without a kit they say how to get one. */
export function urlInputs(call: UrlCall | undefined, delivery: UrlDelivery): UrlInputs {
  let ordinal = 0;
  /** How the flow `what` asks for ended, with the call it belongs to. */
  const ended = async (method: string, what: Asked): Promise<{ call: UrlCall; end: FlowEnd }> => {
    if (!call) throw new Error(`ctx.${method} needs a URL kit: createElicitation({ urlKit: createUrlKit(...) }).`);
    const ask = describeAsk(call, delivery, ++ordinal, what);
    if (ask.kind === "file") await requireFileType(); // its type check's optional peer, named with its install line
    return { call, end: await delivery.urlFlow(call, ask) };
  };
  return {
    elicitUrl: async (message, url, options = {}) =>
      resultOf("url", (await ended("elicitUrl", { kind: "url", message, url, options })).end),
    connect: async (provider, options = {}) => resultOf("connect", (await ended("connect", { kind: "connect", provider, options })).end),
    collect: async (message, form, options = {}) =>
      resultOf("form", (await ended("collect", { kind: "form", message, form, options })).end),
    elicitFile: async (message, options) => {
      const { call, end } = await ended("elicitFile", { kind: "file", message, options });
      const { outcome, flowId } = resultOf("file", end);
      if (outcome !== "completed") return { outcome, flowId };
      return { outcome, flowId, files: await call.kit.uploads.files(flowId) };
    },
  };
}
