// attachSampling: answers a server's sampling/createMessage (live on 2025-era connections, embedded in
// input_required on 2026-07-28) with a person in the loop: they review the request before any model
// sees it and the answer before the server does.
import { ProtocolError, type Client, type ClientContext } from "@modelcontextprotocol/client";
import type { ModelProvider, SamplingParams, SamplingResult } from "./providers/provider.js";
import { RateLimiter, type RateLimitOptions } from "./rate-limit.js";
import { sanitizeText } from "../common/sanitize.js";
import { answerView, applyEdit, requestView, typedAnswer } from "./sampling-view.js";
import { uiContextFor } from "./context.js";
import type { SamplingRequestView, SamplingUI, UIContext } from "./ui.js";
import type { Attached, Forward } from "./attached.js";
import { pausingUI, personAskedOn } from "./request-clock.js";
import { requireUIMethods } from "./ui-check.js";

export interface SamplingOptions {
  /** Where the person reviews requests and answers. */
  ui: SamplingUI & { notice(message: string, context: Pick<UIContext, "server">): void };
  /** The model; without one the person types the answer themselves. */
  provider?: ModelProvider;
  /** Per-server limit on sampling requests shown to the person (default 10 per 60 s). */
  rateLimit?: RateLimitOptions;
  /** Hands each request to another client first (a gateway's host); see `Forward`. */
  forward?: Forward;
}

/** The spec's code for a person rejecting a sampling request. */
export const USER_REJECTED = -1;

/** The model name reported when the person wrote the answer. */
export const TYPED_BY_PERSON = "typed-by-person";

/** What attachSampling gives back: `detach()` (the requests themselves are all handled inside). */
export type SamplingHandle = Attached;

/**
 * Declares the sampling capability (with tools when a provider can call functions) and installs the handler. Call before connect.
 *
 * @example
 * ```ts region=examples/client-provider.ts#attachSampling
 * const client = new Client({ name: "host", version: "1.0.0" });
 * attachSampling(client, { ui: scriptedUI([{ sample: { action: "approve" } }], { log: () => {} }), provider: echo }); // approve the request and the answer
 * ```
 */
export function attachSampling(client: Client, options: SamplingOptions): SamplingHandle {
  const sampling = new AttachedSampling(client, options);
  client.setRequestHandler("sampling/createMessage", (request, ctx) => sampling.answer(request.params, ctx));
  return { detach: () => client.removeRequestHandler("sampling/createMessage") };
}

const rejected = (what: string) => new ProtocolError(USER_REJECTED, what);

/** Sampling on one client: the person reviews each request before any model sees it, and the answer before the server does. */
class AttachedSampling {
  private readonly ui: SamplingOptions["ui"];
  private readonly limiter: RateLimiter;

  constructor(
    private readonly client: Client,
    private readonly options: SamplingOptions,
  ) {
    // The reviews stop the clocks of this client's tool calls: the person's time is not the server's silence.
    requireUIMethods(options.ui, ["reviewRequest", "reviewAnswer", "notice"], "attachSampling");
    this.ui = pausingUI(options.ui, personAskedOn(client), ["reviewRequest", "reviewAnswer"]);
    this.limiter = new RateLimiter(options.rateLimit);
    // Tool use needs a model; a person typing an answer cannot return tool calls.
    client.registerCapabilities({ sampling: options.provider ? { tools: {} } : {} });
  }

  /** The sampling/createMessage handler: handed on (`forward`), or reviewed, asked of the model, and reviewed again. */
  async answer(params: SamplingParams, ctx: ClientContext): Promise<SamplingResult> {
    const forwarded = this.options.forward?.({ method: "sampling/createMessage", params, id: ctx.mcpReq.id }, ctx.mcpReq.signal);
    // The other client's answer, typed as the result it must be: the SDK checks it against the sampling
    // result schema after this handler, as it does our own.
    if (forwarded) return forwarded as Promise<SamplingResult>;
    const context = uiContextFor(this.client, ctx.mcpReq.signal);
    if (!this.limiter.take()) {
      this.ui.notice(
        `Rejected a model request from ${context.server.name} without showing it: over the limit of ${this.limiter.max} requests per ${this.limiter.windowMs / 1000} s.`,
        context,
      );
      throw rejected("Sampling request rejected: over the client's rate limit");
    }
    const model = this.options.provider?.chooseModel(params.modelPreferences);
    const view = requestView(params, model);
    const review = await this.ui.reviewRequest(view, context);
    if (review.action === "deny") throw rejected("User rejected sampling request");
    const { params: approved, ignored } = applyEdit(params, review.edit);
    if (ignored.length)
      this.ui.notice(
        `Kept message${ignored.length > 1 ? "s" : ""} ${ignored.map((i) => i + 1).join(", ")} as the server sent ${ignored.length > 1 ? "them" : "it"}: only text messages can be edited.`,
        context,
      );
    const result = model === undefined ? undefined : await this.complete(approved, model, ctx.mcpReq.signal, context);
    // The same view object when nothing was edited, so a UI can tie the answer to the request it approved.
    return this.reviewAnswer(result, review.edit ? requestView(approved, model) : view, context);
  }

  /** The model's answer, or undefined when it failed (the person is told, and can still write one). */
  private async complete(approved: SamplingParams, model: string, signal: AbortSignal, context: UIContext) {
    const { provider } = this.options;
    if (!provider) return undefined;
    try {
      return await provider.complete(approved, { model, signal });
    } catch (error) {
      // Withdrawn by the server (or the call ended): nobody waits for an answer, so don't ask the person for one.
      if (signal.aborted) throw error;
      // The person can still write the answer (or reject) rather than losing the request.
      this.ui.notice(`The model failed: ${sanitizeText((error as Error).message, { maxLength: 400, multiline: false })}`, context);
      return undefined;
    }
  }

  /** The person's verdict on the answer: sent as it is, replaced by what they typed, or rejected. */
  private async reviewAnswer(result: SamplingResult | undefined, shown: SamplingRequestView, context: UIContext): Promise<SamplingResult> {
    const verdict = await this.ui.reviewAnswer(result ? answerView(result) : undefined, shown, context);
    if (verdict.action === "reject") throw rejected("User rejected the model's answer");
    if (verdict.text !== undefined) return typedAnswer(verdict.text, result ? result.model : TYPED_BY_PERSON);
    if (!result) throw rejected("No answer: no model answered and the person wrote none");
    return result;
  }
}
