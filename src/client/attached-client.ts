// One client with elicitation attached (attachElicitation): the state it keeps for that client, and a
// method for each thing it answers: `elicitation/create` (a form or a URL, 2025 eras and 2026-07-28's
// embedded requests alike), the -32042 URL step of a tool call, and the tool call itself, on a clock
// that waits for the person.
import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type Client,
  type ClientContext,
  type ElicitRequestURLParams,
} from "@modelcontextprotocol/client";
import { describeProblem, shapeProblem } from "../schema/limits.js";
import { describeFields } from "../schema/compiled.js";
import type { Field } from "../schema/fields.js";
import { SENSITIVE_LABELS, sensitiveWarning } from "../schema/sensitive.js";
import type { RequestedSchema } from "../schema/types.js";
import { MAX_LONG_TEXT_LENGTH, sanitizeText } from "../common/sanitize.js";
import { watchDropped, type DroppedWatch } from "../common/dropped.js";
import { TRANSPORT_LIMITS } from "../common/screen.js";
import { wrapClientHandlers } from "../common/sdk-internals.js";
import type { AttachOptions, ElicitationHandle, ElicitationMode, ElicitationPolicy } from "./attach-options.js";
import { AS_SENT, checkShape, invalidParams, precheckRequest, refusalOf, sanitizeField } from "./elicitation-checks.js";
import { revisionOf, uiContextFor } from "./context.js";
import { RateLimiter } from "./rate-limit.js";
import type { ElicitationUI, FormAnswer, UIContext, UrlAnswer } from "./ui.js";
import { checkRendererAnswer } from "./renderer-answer.js";
import { checkFormContent, fieldErrorText } from "./form-answer.js";
import { requireUIMethods } from "./ui-check.js";
import { callToolWithUrlFlows, PendingUrlElicitations, UrlElicitationEndedError } from "./url-flow.js";
import { linkRenewer } from "./url-renew.js";
import { analyzeUrl, hostForDisplay, type UrlAnalysis } from "./url-safety/analyze.js";
import { KeptUrlConsents } from "./kept-consents.js";
import {
  CALL_CEILING_MS,
  CALL_TIMEOUT_MS,
  CallClock,
  pausingUI,
  personAskedOn,
  SDK_TIMER_OUT_OF_REACH,
  type PersonAsked,
} from "./request-clock.js";
import { untilCompleted } from "./url-wait.js";

type CallOptions = Parameters<ElicitationHandle["callTool"]>[1];
type Handler = (request: { params?: Record<string, unknown> }, ctx: never) => Promise<unknown>;

/**
 * Made by attachElicitation: constructing it attaches (declares the capability, installs the handler,
 * routes client.callTool), in that order; `detach()` puts the client back.
 */
export class AttachedClient {
  /** URL flows the person consented to that have not completed (the handle's `pending`). */
  readonly pending = new PendingUrlElicitations();
  private readonly modes: ReadonlySet<ElicitationMode>;
  private readonly policy: ElicitationPolicy;
  private readonly limiter: RateLimiter;
  /** URLs accepted during a tool call still running (2026-07-28): asked again, they are not asked twice. */
  private readonly kept = new KeptUrlConsents();
  /** What the UI shows the person stops the clocks of this client's calls (see request-clock.ts). */
  private readonly person: PersonAsked;
  /** The host's UI, its form, url and waitForUrl run while the clocks are stopped. */
  private readonly ui: ElicitationUI;
  /** Ends a tool call at once when its reply was malformed and dropped. */
  private readonly dropped: DroppedWatch;
  /** The SDK's callTool, under the URL flow and the clock. */
  private readonly sdkCallTool: Client["callTool"];
  /** The client's own `callTool` property, if it had one, put back on detach. */
  private readonly ownCallTool: Client["callTool"] | undefined;
  /** Whether client.callTool goes through the handle's callTool (`routeClientCallTool`). */
  private readonly routed: boolean;
  /** The handle's callTool (and client.callTool, when routed): one function, so that both are the same. */
  private readonly routedCallTool: ElicitationHandle["callTool"] = (params, callOptions) => this.callTool(params, callOptions);

  constructor(
    private readonly client: Client,
    private readonly options: AttachOptions,
  ) {
    this.modes = new Set(options.modes ?? ["form", "url"]);
    // Each method the client will call, checked now rather than when a server's request first needs it.
    const modeMethods = [...this.modes].filter((m) => m === "form" || m === "url");
    requireUIMethods(options.ui, ["notice", ...modeMethods], "attachElicitation");
    this.policy = options.policy ?? {};
    this.limiter = new RateLimiter(this.policy.rateLimit);
    this.person = personAskedOn(client);
    this.ui = pausingUI(options.ui, this.person, ["form", "url", "waitForUrl"]);
    this.declare();
    this.installHandler();
    this.dropped = this.watchDropped();
    this.ownCallTool = Object.hasOwn(client, "callTool") ? client.callTool : undefined;
    this.sdkCallTool = client.callTool.bind(client);
    // A host that calls client.callTool (not the handle's) would silently lose the -32042 flow and the
    // long wait: unless told otherwise, the client's own callTool goes through them too.
    this.routed = options.routeClientCallTool ?? true;
    if (this.routed) client.callTool = this.routedCallTool as Client["callTool"];
  }

  /** Declares the modes, and (for URL mode) hears the completions of the flows the person consented to. */
  private declare(): void {
    this.client.registerCapabilities({ elicitation: Object.fromEntries([...this.modes].map((m) => [m, {}])) });
    // Only flows the person consented to are tracked; the spec says to ignore any other id.
    if (this.modes.has("url"))
      this.client.setNotificationHandler("notifications/elicitation/complete", (n) => void this.pending.complete(n.params.elicitationId));
  }

  /**
   * Installs the elicitation/create handler. The 3-argument form hands it the params as sent: the SDK's
   * own parse would drop keys its schemas do not know (pattern, minLength on a choice...), and the form
   * must be shown and validated exactly as the server wrote it. The SDK still checks the request and our
   * result around it.
   */
  private installHandler(): void {
    wrapClientHandlers(
      this.client,
      (method, wrapped) => this.precheck(method, wrapped),
      () => this.client.setRequestHandler("elicitation/create", { params: AS_SENT }, (params, ctx) => this.answer(params, ctx)),
    );
  }

  /**
   * The SDK checks a request against its own zod schema before any handler runs, and answers a form it
   * cannot parse (a nested object, an unknown type...) with a dump of zod issues. Our checks of the form
   * run first, through the SDK's hook for wrapping handlers, so that every invalid form gets the same
   * -32602 listing each problem with its rule code; the SDK's checks (and its result check) still follow.
   */
  private precheck(method: string, wrapped: Handler): Handler {
    if (method !== "elicitation/create") return wrapped;
    return async (request, ctx) => {
      const url = precheckRequest(request.params, revisionOf(this.client), this.modes);
      return wrapped(url === undefined ? request : { ...request, params: { ...request.params, url } }, ctx);
    };
  }

  /**
   * A malformed request from the server gets -32600 (the SDK would not answer at all); a malformed
   * reply to a tool call ends it at once instead of after CALL_TIMEOUT_MS.
   */
  private watchDropped(): DroppedWatch {
    return watchDropped(
      this.client,
      () =>
        new ProtocolError(
          ProtocolErrorCode.InternalError,
          "The server's reply was malformed (neither a result nor an error with a code) and was dropped; the call cannot get its answer.",
        ),
      { unparsedEndsWaits: true },
    );
  }

  /** What attachElicitation gives back. */
  handle(): ElicitationHandle {
    return { callTool: this.routedCallTool, pending: this.pending, detach: () => this.detach() };
  }

  /** Removes the handlers and puts client.callTool back as it was. */
  detach(): void {
    this.client.removeRequestHandler("elicitation/create");
    this.client.removeNotificationHandler("notifications/elicitation/complete");
    if (!this.routed) return;
    if (this.ownCallTool) this.client.callTool = this.ownCallTool;
    else delete (this.client as Partial<Client>).callTool;
  }

  /** The elicitation/create handler: a declared mode, handed on (`forward`) or answered here. */
  async answer(params: Record<string, unknown>, ctx: ClientContext): Promise<Record<string, unknown>> {
    checkShape(params);
    const mode = (params.mode ?? "form") as string;
    if (mode !== "form" && mode !== "url") throw invalidParams(`Unknown elicitation mode ${JSON.stringify(mode)}.`);
    if (!this.modes.has(mode))
      throw invalidParams(`This client did not declare ${mode}-mode elicitation; it supports: ${[...this.modes].join(", ")}.`);
    const forwarded = this.options.forward?.({ method: "elicitation/create", params, id: ctx.mcpReq.id }, ctx.mcpReq.signal);
    if (forwarded) return forwarded;
    const context = uiContextFor(this.client, ctx.mcpReq.signal);
    const message = sanitizeText(params.message, { maxLength: MAX_LONG_TEXT_LENGTH });
    return mode === "url" ? this.answerUrl(params, message, context) : this.answerForm(params, message, context);
  }

  /** A URL-mode request: consent (only 2026-07-28's embedded requests are asked again for the same flow). */
  private async answerUrl(params: Record<string, unknown>, message: string, context: UIContext) {
    const consent = await this.askUrl(message, params.url, params.elicitationId, context, context.protocol === "2026-07-28");
    if (consent === "refused") throw invalidParams(`Refused URL elicitation: ${refusalOf(params.url)}`);
    return { action: consent === "over-limit" ? this.overLimit(context).action : consent };
  }

  /** A form: shown with its warnings (or declined, by policy), and the answer checked before it is sent. */
  private async answerForm(params: Record<string, unknown>, message: string, context: UIContext) {
    const schema = params.requestedSchema as RequestedSchema;
    if (!this.limiter.take()) return this.overLimit(context);
    const fields = describeFields(schema).map(sanitizeField);
    const sensitive = fields.filter((f) => f.sensitive);
    if (sensitive.length && this.policy.declineSensitiveForms) return this.declineSensitive(sensitive, context);
    const warnings = sensitive.map((f) => sensitiveWarning(f.label, f.sensitive!));
    const answer = this.rendererAnswer(await this.ui.form({ message, fields, schema, warnings }, context), context);
    if (answer.action !== "accept") return { action: answer.action };
    const checked = checkFormContent(schema, answer.content, context.protocol);
    if (!checked.ok) {
      const errors = checked.errors.map(fieldErrorText);
      this.options.ui.notice(`Not sent to ${context.server.name}: the answer is invalid (${errors.join("; ")}); answered cancel.`, context);
      return { action: "cancel" as const };
    }
    return { action: "accept" as const, content: checked.value };
  }

  private declineSensitive(sensitive: Field[], context: UIContext) {
    this.options.ui.notice(
      `Declined a form from ${context.server.name} that asks for ${sensitive.map((f) => SENSITIVE_LABELS[f.sensitive!]).join(", ")}.`,
      context,
    );
    return { action: "decline" as const };
  }

  /**
   * The renderer's answer as it is, or, when it cannot be sent (content not an object, an unknown
   * action), a RendererAnswerError: the person is told, the host's `client.onerror` hears it, and the
   * error is thrown (on 2025 eras the server gets -32603 with its message; on 2026-07-28 the call rejects).
   */
  private rendererAnswer(answer: unknown, context: UIContext): FormAnswer {
    try {
      return checkRendererAnswer(answer);
    } catch (error) {
      this.options.ui.notice(
        `Your answer to ${context.server.name} could not be sent: this app's form gave it back in a shape it cannot send.`,
        context,
      );
      this.client.onerror?.(error as Error);
      throw error;
    }
  }

  /**
   * URL consent, shared by elicitation/create and -32042: analysis first, the person's answer, then tracking.
   * With `keep` (2026-07-28), a URL the person accepted on this connection during a tool call still running
   * is the page already open, asked for again while unfinished: answered without a second question.
   */
  private async askUrl(
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
    if (keep && this.kept.has(analysis.url, this.client.transport)) return this.askedAgain(request, context);
    if (!this.limiter.take()) return "over-limit";
    const action = await this.ui.url(request, context);
    if (action === "accept" && elicitationId) void this.pending.track(elicitationId);
    if (action === "accept" && keep) this.kept.keep(analysis.url, this.client.transport);
    return action;
  }

  /** The same page asked for again: nothing is opened or asked; the person is told the server still waits. */
  private askedAgain(request: { message: string; analysis: UrlAnalysis }, context: UIContext): UrlAnswer {
    const answer = this.options.ui.urlAskedAgain?.(request, context) ?? "accept";
    if (answer !== "accept") {
      this.kept.forget(request.analysis.url);
      return "cancel";
    }
    this.options.ui.notice(
      `${context.server.name} is still waiting for the page at ${hostOf(request.analysis)} that you already opened: finish it there.`,
      context,
    );
    return "accept";
  }

  /** One URL of a -32042 answer: consent, then the wait for its completion (or the person's retry). */
  private async urlStep(
    elicitation: ElicitRequestURLParams,
    signal: AbortSignal,
    waitMs = CALL_TIMEOUT_MS,
  ): Promise<"completed" | "retry"> {
    const context = uiContextFor(this.client, signal);
    const message = sanitizeText(elicitation.message, { maxLength: MAX_LONG_TEXT_LENGTH });
    const consent = await this.askUrl(message, elicitation.url, elicitation.elicitationId, context);
    if (consent !== "accept") throw this.stepRefused(consent, elicitation.url, context);
    const completed = this.pending.track(elicitation.elicitationId);
    const host = hostOf(analyzeUrl(elicitation.url));
    const renew = linkRenewer(elicitation.url);
    const outcome = this.options.ui.waitForUrl
      ? await this.ui.waitForUrl!({ message, host, completed, ...(renew ? { renew } : {}) }, context)
      : await this.person.during(() => untilCompleted(completed, signal, waitMs));
    if (outcome === "cancel") {
      this.pending.forget(elicitation.elicitationId);
      const withdrawn = signal.aborted
        ? "The tool call was cancelled while waiting for the URL flow"
        : "You cancelled the wait for the URL flow";
      throw new UrlElicitationEndedError("cancelled", `${withdrawn} at ${host}; the tool call was not retried.`);
    }
    return outcome;
  }

  /** Why a -32042 URL step ends the tool call when the person did not accept it. */
  private stepRefused(consent: Exclude<UrlAnswer, "accept"> | "refused" | "over-limit", url: string, context: UIContext) {
    if (consent === "refused") return new UrlElicitationEndedError("refused", `Refused the URL the tool needs: ${refusalOf(url)}`);
    if (consent === "over-limit") {
      this.overLimit(context);
      return new UrlElicitationEndedError(
        "declined",
        `Declined the URL the tool needs: over the limit of ${this.limiter.max} requests per ${this.limiter.windowMs / 1000} s.`,
      );
    }
    return new UrlElicitationEndedError(
      consent === "decline" ? "declined" : "cancelled",
      `You ${consent === "decline" ? "declined" : "cancelled"} the URL the tool needs; the tool call was not retried.`,
    );
  }

  /** The handle's callTool: the -32042 URL flow, on a clock that stops while the person is asked. */
  callTool(params: Parameters<Client["callTool"]>[0], callOptions?: CallOptions): Promise<CallToolResult> {
    return this.dropped.race(async (signal) => {
      const timeoutMs = callOptions?.timeout ?? this.options.requestClock?.timeoutMs ?? CALL_TIMEOUT_MS;
      const clock = new CallClock(this.person, {
        timeoutMs,
        ceilingMs: callOptions?.maxTotalTimeout ?? this.options.requestClock?.ceilingMs ?? CALL_CEILING_MS,
        resetOnProgress: callOptions?.resetTimeoutOnProgress ?? true,
      });
      try {
        const sdkOptions = clockedOptions(callOptions, clock, signal);
        // The call is the scope of the consents given during it (2026-07-28's rounds all belong to it).
        const result = await this.kept.during(() =>
          callToolWithUrlFlows(this.sdkCallTool, params, sdkOptions, (elicitation, stepSignal) =>
            this.urlStep(elicitation, stepSignal, timeoutMs),
          ),
        );
        return checkedResult(result);
      } finally {
        clock.dispose();
      }
    });
  }

  private overLimit(context: UIContext) {
    this.options.ui.notice(
      `Declined a request from ${context.server.name} without showing it: over the limit of ${this.limiter.max} requests per ${this.limiter.windowMs / 1000} s.`,
      context,
    );
    return { action: "decline" as const };
  }
}

/**
 * The options the SDK gets: its timers set out of reach (the clock ends the call through the signal),
 * and an onprogress callback, which gives the request the progress token progress needs.
 */
function clockedOptions(callOptions: CallOptions, clock: CallClock, signal: AbortSignal) {
  const any = AbortSignal.any([signal, clock.signal, ...(callOptions?.signal ? [callOptions.signal] : [])]);
  const { maxTotalTimeout: _total, resetTimeoutOnProgress: _reset, ...rest } = callOptions ?? {};
  return {
    ...rest,
    signal: any,
    timeout: SDK_TIMER_OUT_OF_REACH,
    onprogress: (progress: Parameters<NonNullable<NonNullable<CallOptions>["onprogress"]>>[0]) => {
      clock.progress();
      callOptions?.onprogress?.(progress);
    },
  };
}

/**
 * Where the transport's raw message was out of our reach (stdio), a result too deep to walk is refused
 * here, before anything recursive (a print, a check) overflows on it.
 */
function checkedResult(result: CallToolResult): CallToolResult {
  const shape = shapeProblem(result, TRANSPORT_LIMITS);
  if (shape)
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `The server's reply was malformed (it is ${describeProblem(shape)}) and was dropped; the call cannot get its answer.`,
    );
  return result;
}

/** The host that opens, with how an internationalized name reads first, made inert: "pаypal.com (xn--pypal-4ve.com)". */
const hostOf = (analysis: UrlAnalysis) => sanitizeText(hostForDisplay(analysis), { multiline: false });
