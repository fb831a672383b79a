// attachElicitation: one handler on an SDK Client that serves 2025-era `elicitation/create`
// requests and 2026-07-28 embedded requests alike, and checks everything before a UI sees it.
import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type Client,
  type ElicitRequestURLParams,
  type StandardSchemaV1,
} from "@modelcontextprotocol/client";
import { checkSchema, hasErrors } from "../schema/check.js";
import { describeProblem, MESSAGE_LIMITS, shapeProblem } from "../schema/limits.js";
import { excerpt } from "../schema/excerpt.js";
import { describeFields } from "../schema/compiled.js";
import type { Field } from "../schema/fields.js";
import { SENSITIVE_LABELS, sensitiveWarning } from "../schema/sensitive.js";
import { linkRenewer } from "./url-renew.js";
import type { ProtocolRevision, RequestedSchema } from "../schema/types.js";
import { revisionOf, uiContextFor } from "./context.js";
import { RateLimiter, type RateLimitOptions } from "./rate-limit.js";
import { MAX_LABEL_LENGTH, MAX_LONG_TEXT_LENGTH, sanitizeText } from "../common/sanitize.js";
import type { ElicitationUI, FormAnswer, FormRequest, UIContext, UrlAnswer } from "./ui.js";
import { checkRendererAnswer } from "./renderer-answer.js";
import { checkFormContent, fieldErrorText } from "./form-answer.js";
import { watchDropped } from "../common/dropped.js";
import { TRANSPORT_LIMITS } from "../common/screen.js";
import { requireUIMethods } from "./ui-check.js";
import type { Attached, Forward } from "./attached.js";
import { wrapClientHandlers } from "../common/sdk-internals.js";
import { callToolWithUrlFlows, PendingUrlElicitations, UrlElicitationEndedError } from "./url-flow.js";
import { analyzeUrl, hostForDisplay, type UrlAnalysis } from "./url-safety/analyze.js";
import { KeptUrlConsents } from "./kept-consents.js";
import { CALL_CEILING_MS, CALL_TIMEOUT_MS, CallClock, pausingUI, personAskedOn, SDK_TIMER_OUT_OF_REACH } from "./request-clock.js";

export { CALL_CEILING_MS, CALL_TIMEOUT_MS } from "./request-clock.js";

export type ElicitationMode = "form" | "url";

export interface ElicitationPolicy {
  /** Decline forms with fields that look like passwords, keys, tokens or cards, without showing them (default false: show with a warning). */
  declineSensitiveForms?: boolean;
  /** Per-server limit on requests shown to the person (default 10 per 60 s). */
  rateLimit?: RateLimitOptions;
}

export interface AttachOptions {
  ui: ElicitationUI;
  policy?: ElicitationPolicy;
  /** Modes to declare (default both). A request for an undeclared mode is answered -32602. */
  modes?: ElicitationMode[];
  /**
   * The tool-call clock's defaults (a call's own `timeout` and `maxTotalTimeout` win): `timeoutMs`, the
   * silence allowed, stopped while the person is asked and started over by progress (CALL_TIMEOUT_MS);
   * `ceilingMs`, the whole call, the person's time included (CALL_CEILING_MS).
   */
  requestClock?: { timeoutMs?: number; ceilingMs?: number };
  /**
   * Whether `client.callTool` is routed through the handle's `callTool` (default true): hosts call the
   * client they made, and a call that bypassed the handle would lose the -32042 URL flow and the clock
   * that waits for the person. It is put back as it was on `detach()`. With false the client is left
   * exactly as it was, and the host calls the handle's `callTool` itself.
   */
  routeClientCallTool?: boolean;
  /** Hands each checked request to another client first (a gateway's host); see `Forward`. */
  forward?: Forward;
}

const invalidParams = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

function sanitizeField(field: Field): Field {
  const out: Field = { ...field, label: sanitizeText(field.label, { maxLength: MAX_LABEL_LENGTH, multiline: false }) };
  if (field.help !== undefined) out.help = sanitizeText(field.help, { maxLength: MAX_LONG_TEXT_LENGTH });
  if (field.options)
    out.options = field.options.map((o) => ({
      value: o.value,
      label: sanitizeText(o.label, { maxLength: MAX_LABEL_LENGTH, multiline: false }),
    }));
  return out;
}

/** What attachElicitation gives back: tool calls that go through -32042 URL flows, and the pending flows. */
export interface ElicitationHandle extends Attached {
  /**
   * `client.callTool`, plus the -32042 URLElicitationRequired flow: each URL is analysed and consented to,
   * the call waits for its completion notification (or the person's retry), then is retried once for that
   * set. Rejects with UrlElicitationEndedError when the person declines or cancels, a URL is refused, or the
   * server asks again for a URL that already completed.
   *
   * Its clock is aware of the person: `options.timeout` (default CALL_TIMEOUT_MS, 30 minutes, not the
   * SDK's 60 s) is the silence allowed, stopped while a form, a URL step or a sampling review is in front
   * of the person and started over by each progress notification (unless `resetTimeoutOnProgress` is
   * false); `options.maxTotalTimeout` (default CALL_CEILING_MS, 24 hours) bounds the whole call.
   */
  callTool(params: Parameters<Client["callTool"]>[0], options?: Parameters<Client["callTool"]>[1]): Promise<CallToolResult>;
  /** URL flows the person consented to that have not completed; completions for other ids are ignored. */
  readonly pending: PendingUrlElicitations;
}

/**
 * Declares the elicitation capability and installs the one handler. Call before `client.connect`.
 * `client.callTool` is routed through the returned `callTool` (see `routeClientCallTool`), so calls made
 * either way get the URL flow and the person-aware clock; `detach()` puts everything back.
 *
 * @example
 * ```ts region=examples/quickstart-host.ts#attachElicitation
 * const client = new Client({ name: "host", version: "1.0.0" });
 * const { callTool } = attachElicitation(client, { ui });
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await createServer().connect(serverSide);
 * await client.connect(clientSide);
 * const result = await callTool({ name: "book_trip", arguments: { destination: "Barcelona" } });
 * ```
 */
export function attachElicitation(client: Client, options: AttachOptions): ElicitationHandle {
  const modes = new Set(options.modes ?? ["form", "url"]);
  // Each method the client will call, checked now rather than when a server's request first needs it.
  requireUIMethods(options.ui, ["notice", ...[...modes].filter((m) => m === "form" || m === "url")], "attachElicitation");
  const policy = options.policy ?? {};
  const limiter = new RateLimiter(policy.rateLimit);
  const pending = new PendingUrlElicitations();
  const kept = new KeptUrlConsents();
  // What the UI shows the person stops the clocks of this client's calls (see request-clock.ts).
  const person = personAskedOn(client);
  const ui = pausingUI(options.ui, person, ["form", "url", "waitForUrl"]);
  client.registerCapabilities({ elicitation: Object.fromEntries([...modes].map((m) => [m, {}])) });
  // Only flows the person consented to are tracked; the spec says to ignore any other id.
  if (modes.has("url"))
    client.setNotificationHandler("notifications/elicitation/complete", (n) => void pending.complete(n.params.elicitationId));

  const contextFor = (signal: AbortSignal): UIContext => uiContextFor(client, signal);

  // The SDK checks a request against its own zod schema before any handler runs, and answers a form it
  // cannot parse (a nested object, an unknown type...) with a dump of zod issues. Our checks of the form
  // run first, through the SDK's hook for wrapping handlers, so that every invalid form gets the same
  // -32602 listing each problem with its rule code; the SDK's checks (and its result check) still follow.
  const checkForm = (params: Record<string, unknown>, protocol: ProtocolRevision) => {
    const issues = checkSchema(params.requestedSchema, { protocol });
    if (hasErrors(issues)) {
      const list = issues.filter((i) => i.severity === "error").map((i) => `${i.path || "/"}: ${i.message} [${i.code}]`);
      throw invalidParams(`The requested form is not a valid elicitation schema for ${protocol}:\n${list.join("\n")}`);
    }
  };
  const precheck = (method: string, wrapped: (request: { params?: Record<string, unknown> }, ctx: never) => Promise<unknown>) =>
    method !== "elicitation/create"
      ? wrapped
      : async (request: { params?: Record<string, unknown> }, ctx: never) => {
          checkShape(request.params);
          const params = request.params ?? {};
          checkFields(params, revisionOf(client));
          if ((params.mode ?? "form") === "form" && modes.has("form")) checkForm(params, revisionOf(client));
          if (params.mode === "url" && modes.has("url")) {
            // A URL the analysis refuses gets its reason, rather than the SDK's "Invalid URL" for some of them.
            const analysis = analyzeUrl(params.url as string);
            if (!analysis.ok) throw invalidParams(`Refused URL elicitation: ${analysis.refusal ?? "not a URL"}`);
            // The SDK checks the URL with URL.canParse, which on Node 20 starts refusing hosts with Latin-1
            // letters ("münchen.de") once V8 has optimized it; its ASCII form is the same URL and passes.
            if (!ASCII.test(params.url as string)) return wrapped({ ...request, params: { ...params, url: analysis.url } }, ctx);
          }
          return wrapped(request, ctx);
        };
  // The 3-argument form hands the handler the params as sent: the SDK's own parse would drop keys its
  // schemas do not know (pattern, minLength on a choice...), and the form must be shown and validated
  // exactly as the server wrote it. The SDK still checks the request and our result around it.
  wrapClientHandlers(client, precheck, () =>
    client.setRequestHandler("elicitation/create", { params: AS_SENT }, (params, ctx) => handler(params, ctx as never)),
  );

  async function handler(params: Record<string, unknown>, ctx: { mcpReq: { signal: AbortSignal; id?: string | number } }) {
    checkShape(params);
    const mode = (params.mode ?? "form") as string;
    if (mode !== "form" && mode !== "url") throw invalidParams(`Unknown elicitation mode ${JSON.stringify(mode)}.`);
    if (!modes.has(mode))
      throw invalidParams(`This client did not declare ${mode}-mode elicitation; it supports: ${[...modes].join(", ")}.`);
    const forwarded = options.forward?.({ method: "elicitation/create", params, id: ctx.mcpReq.id }, ctx.mcpReq.signal);
    if (forwarded) return forwarded;
    const context = contextFor(ctx.mcpReq.signal);
    const message = sanitizeText(params.message, { maxLength: MAX_LONG_TEXT_LENGTH });

    if (mode === "url") {
      // Only 2026-07-28's embedded requests are asked again for the same flow; 2025 eras keep their paths.
      const consent = await askUrl(message, params.url, params.elicitationId, context, context.protocol === "2026-07-28");
      if (consent === "refused") throw invalidParams(`Refused URL elicitation: ${refusalOf(params.url)}`);
      return { action: consent === "over-limit" ? overLimit(context).action : consent };
    }

    const schema = params.requestedSchema as RequestedSchema;
    if (!limiter.take()) return overLimit(context);
    const fields = describeFields(schema).map(sanitizeField);
    const sensitive = fields.filter((f) => f.sensitive);
    if (sensitive.length && policy.declineSensitiveForms) {
      options.ui.notice(
        `Declined a form from ${context.server.name} that asks for ${sensitive.map((f) => SENSITIVE_LABELS[f.sensitive!]).join(", ")}.`,
        context,
      );
      return { action: "decline" as const };
    }
    const warnings = sensitive.map((f) => sensitiveWarning(f.label, f.sensitive!));
    const formRequest: FormRequest = { message, fields, schema, warnings };
    const answer = rendererAnswer(await ui.form(formRequest, context), context);
    if (answer.action !== "accept") return { action: answer.action };
    const checked = checkFormContent(schema, answer.content, context.protocol);
    if (!checked.ok) {
      const errors = checked.errors.map(fieldErrorText);
      options.ui.notice(`Not sent to ${context.server.name}: the answer is invalid (${errors.join("; ")}); answered cancel.`, context);
      return { action: "cancel" as const };
    }
    return { action: "accept" as const, content: checked.value };
  }

  /**
   * The renderer's answer as it is, or, when it cannot be sent (content not an object, an unknown
   * action), a RendererAnswerError: the person is told, the host's `client.onerror` hears it, and the
   * error is thrown (on 2025 eras the server gets -32603 with its message; on 2026-07-28 the call rejects).
   */
  function rendererAnswer(answer: unknown, context: UIContext): FormAnswer {
    try {
      return checkRendererAnswer(answer);
    } catch (error) {
      options.ui.notice(
        `Your answer to ${context.server.name} could not be sent: this app's form gave it back in a shape it cannot send.`,
        context,
      );
      client.onerror?.(error as Error);
      throw error;
    }
  }

  /**
   * URL consent, shared by elicitation/create and -32042: analysis first, the person's answer, then tracking.
   * With `keep` (2026-07-28), a URL the person accepted on this connection during a tool call still running
   * is the page already open, asked for again while unfinished: answered without a second question.
   */
  async function askUrl(
    message: string,
    url: unknown,
    id: unknown,
    context: UIContext,
    keep = false,
  ): Promise<UrlAnswer | "refused" | "over-limit"> {
    const analysis = analyzeUrl(String(url ?? ""));
    if (!analysis.ok) return "refused";
    const elicitationId = typeof id === "string" ? id : undefined;
    const request = { message, analysis, ...(elicitationId ? { elicitationId } : {}) };
    if (keep && kept.has(analysis.url, client.transport)) return askedAgain(request, context);
    if (!limiter.take()) return "over-limit";
    const action = await ui.url(request, context);
    if (action === "accept" && elicitationId) void pending.track(elicitationId);
    if (action === "accept" && keep) kept.keep(analysis.url, client.transport);
    return action;
  }

  /** The same page asked for again: nothing is opened or asked; the person is told the server still waits. */
  function askedAgain(request: { message: string; analysis: UrlAnalysis }, context: UIContext): UrlAnswer {
    const answer = options.ui.urlAskedAgain?.(request, context) ?? "accept";
    if (answer !== "accept") {
      kept.forget(request.analysis.url);
      return "cancel";
    }
    options.ui.notice(
      `${context.server.name} is still waiting for the page at ${hostOf(request.analysis)} that you already opened: finish it there.`,
      context,
    );
    return "accept";
  }

  const renewerFor = (url: string) => {
    const renew = linkRenewer(url);
    return renew ? { renew } : {};
  };

  async function urlStep(
    elicitation: ElicitRequestURLParams,
    signal: AbortSignal,
    waitMs = CALL_TIMEOUT_MS,
  ): Promise<"completed" | "retry"> {
    const context = contextFor(signal);
    const message = sanitizeText(elicitation.message, { maxLength: MAX_LONG_TEXT_LENGTH });
    const consent = await askUrl(message, elicitation.url, elicitation.elicitationId, context);
    if (consent === "refused")
      throw new UrlElicitationEndedError("refused", `Refused the URL the tool needs: ${refusalOf(elicitation.url)}`);
    if (consent === "over-limit") {
      overLimit(context);
      throw new UrlElicitationEndedError(
        "declined",
        `Declined the URL the tool needs: over the limit of ${limiter.max} requests per ${limiter.windowMs / 1000} s.`,
      );
    }
    if (consent !== "accept")
      throw new UrlElicitationEndedError(
        consent === "decline" ? "declined" : "cancelled",
        `You ${consent === "decline" ? "declined" : "cancelled"} the URL the tool needs; the tool call was not retried.`,
      );
    const completed = pending.track(elicitation.elicitationId);
    const host = hostOf(analyzeUrl(elicitation.url));
    const outcome = options.ui.waitForUrl
      ? await ui.waitForUrl!({ message, host, completed, ...renewerFor(elicitation.url) }, context)
      : await person.during(() => untilCompleted(completed, signal, waitMs));
    if (outcome === "cancel") {
      pending.forget(elicitation.elicitationId);
      const withdrawn = signal.aborted
        ? "The tool call was cancelled while waiting for the URL flow"
        : "You cancelled the wait for the URL flow";
      throw new UrlElicitationEndedError("cancelled", `${withdrawn} at ${host}; the tool call was not retried.`);
    }
    return outcome;
  }

  // A malformed request from the server gets -32600 (the SDK would not answer at all); a malformed
  // reply to a tool call ends it at once instead of after CALL_TIMEOUT_MS.
  const dropped = watchDropped(
    client,
    () =>
      new ProtocolError(
        ProtocolErrorCode.InternalError,
        "The server's reply was malformed (neither a result nor an error with a code) and was dropped; the call cannot get its answer.",
      ),
    { unparsedEndsWaits: true },
  );

  const ownCallTool = Object.hasOwn(client, "callTool") ? client.callTool : undefined;
  const sdkCallTool = client.callTool.bind(client);
  const callTool: ElicitationHandle["callTool"] = (params, callOptions) =>
    dropped.race(async (signal) => {
      const timeoutMs = callOptions?.timeout ?? options.requestClock?.timeoutMs ?? CALL_TIMEOUT_MS;
      const clock = new CallClock(person, {
        timeoutMs,
        ceilingMs: callOptions?.maxTotalTimeout ?? options.requestClock?.ceilingMs ?? CALL_CEILING_MS,
        resetOnProgress: callOptions?.resetTimeoutOnProgress ?? true,
      });
      const any = AbortSignal.any([signal, clock.signal, ...(callOptions?.signal ? [callOptions.signal] : [])]);
      // The SDK's timers are set out of reach: the clock ends the call through the signal. Progress
      // needs a token on the request, which an onprogress callback gives it.
      const { maxTotalTimeout: _total, resetTimeoutOnProgress: _reset, ...rest } = callOptions ?? {};
      const sdkOptions = {
        ...rest,
        signal: any,
        timeout: SDK_TIMER_OUT_OF_REACH,
        onprogress: (progress: Parameters<NonNullable<NonNullable<typeof callOptions>["onprogress"]>>[0]) => {
          clock.progress();
          callOptions?.onprogress?.(progress);
        },
      };
      try {
        // The call is the scope of the consents given during it (2026-07-28's rounds all belong to it).
        const result = await kept.during(() =>
          callToolWithUrlFlows(sdkCallTool, params, sdkOptions, (elicitation, stepSignal) => urlStep(elicitation, stepSignal, timeoutMs)),
        );
        // Where the transport's raw message was out of our reach (stdio), a result too deep to walk
        // is refused here, before anything recursive (a print, a check) overflows on it.
        const shape = shapeProblem(result, TRANSPORT_LIMITS);
        if (shape)
          throw new ProtocolError(
            ProtocolErrorCode.InternalError,
            `The server's reply was malformed (it is ${describeProblem(shape)}) and was dropped; the call cannot get its answer.`,
          );
        return result;
      } finally {
        clock.dispose();
      }
    });
  // A host that calls client.callTool (not the handle's) would silently lose the -32042 flow and the
  // long wait: unless told otherwise, the client's own callTool goes through them too.
  const routed = options.routeClientCallTool ?? true;
  if (routed) client.callTool = callTool as Client["callTool"];

  return {
    callTool,
    pending,
    detach() {
      client.removeRequestHandler("elicitation/create");
      client.removeNotificationHandler("notifications/elicitation/complete");
      if (!routed) return;
      if (ownCallTool) client.callTool = ownCallTool;
      else delete (client as Partial<Client>).callTool;
    },
  };

  function overLimit(context: UIContext) {
    options.ui.notice(
      `Declined a request from ${context.server.name} without showing it: over the limit of ${limiter.max} requests per ${limiter.windowMs / 1000} s.`,
      context,
    );
    return { action: "decline" as const };
  }
}

/** A params "schema" that keeps every key: the handler validates the raw request itself. */
const AS_SENT: StandardSchemaV1<Record<string, unknown>> = {
  "~standard": { version: 1, vendor: "mcp-elicit", validate: (value) => ({ value: (value ?? {}) as Record<string, unknown> }) },
};

/** Bounds the request before anything walks it (checks, sanitizing, messages): -32602 naming the limit. */
function checkShape(params: unknown): void {
  const problem = shapeProblem(params, MESSAGE_LIMITS);
  if (problem) throw invalidParams(`The elicitation request is ${describeProblem(problem)}; refused unread.`);
}

/**
 * The request's own fields, before the SDK's parse: a wrong one gets one -32602 naming the field and
 * what it must be, not the SDK's dump of zod issues for each mode the request could have been.
 */
function checkFields(params: Record<string, unknown>, protocol: ProtocolRevision): void {
  // Only an absent mode means form (2025-06-18 has none); null is a wrong value like any other.
  const mode = params.mode === undefined ? "form" : params.mode;
  if (mode !== "form" && mode !== "url")
    throw invalidParams(`Invalid elicitation request: "mode" must be "form" or "url", got ${excerpt(params.mode)}.`);
  // 2026-07-28's embedded URL requests may leave out elicitationId (no completion notification follows them).
  const strings = mode === "form" ? ["message"] : ["message", "url", "elicitationId"];
  for (const key of strings)
    if (typeof params[key] !== "string" && !(key === "elicitationId" && params[key] === undefined && protocol === "2026-07-28"))
      throw invalidParams(`Invalid elicitation request: "${key}" must be a string in ${mode} mode, got ${excerpt(params[key])}.`);
}

/** The host that opens, with how an internationalized name reads first, made inert: "pаypal.com (xn--pypal-4ve.com)". */
const hostOf = (analysis: UrlAnalysis) => sanitizeText(hostForDisplay(analysis), { multiline: false });

const ASCII = /^[\x00-\x7f]*$/;

const refusalOf = (url: unknown) => analyzeUrl(String(url ?? "")).refusal ?? "not a URL";

/**
 * The wait of a UI without waitForUrl: the completion, the call's cancel, or "retry" once `ms` passed,
 * since nothing else would end it: servers need not send the completion, and one sent before the
 * client's stream for notifications opened is lost.
 */
async function untilCompleted(completed: Promise<void>, signal: AbortSignal, ms: number): Promise<"completed" | "retry" | "cancel"> {
  let timer: NodeJS.Timeout | undefined;
  const retry = new Promise<"retry">((resolve) => (timer = setTimeout(resolve, Math.min(ms, 2 ** 31 - 1), "retry")));
  try {
    return await Promise.race([completed.then(() => "completed" as const), aborted(signal), retry]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves "cancel" when the signal aborts (never otherwise). */
const aborted = (signal: AbortSignal) =>
  new Promise<"cancel">((resolve) =>
    signal.aborted ? resolve("cancel") : signal.addEventListener("abort", () => resolve("cancel"), { once: true }),
  );
