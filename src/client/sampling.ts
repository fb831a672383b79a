// attachSampling: answers a server's sampling/createMessage (live on 2025-era connections, embedded in
// input_required on 2026-07-28) with a person in the loop: they review the request before any model
// sees it and the answer before the server does.
import { ProtocolError, type Client, type CreateMessageResult } from "@modelcontextprotocol/client";
import type { ModelProvider, SamplingParams, SamplingResult } from "./providers/provider.js";
import { RateLimiter, type RateLimitOptions } from "./rate-limit.js";
import { sanitizeText } from "../common/sanitize.js";
import { answerView, applyEdit, requestView, typedAnswer } from "./sampling-view.js";
import { uiContextFor } from "./context.js";
import type { SamplingUI, UIContext } from "./ui.js";
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
  const { provider } = options;
  // The reviews stop the clocks of this client's tool calls: the person's time is not the server's silence.
  requireUIMethods(options.ui, ["reviewRequest", "reviewAnswer", "notice"], "attachSampling");
  const ui = pausingUI(options.ui, personAskedOn(client), ["reviewRequest", "reviewAnswer"]);
  const limiter = new RateLimiter(options.rateLimit);
  // Tool use needs a model; a person typing an answer cannot return tool calls.
  client.registerCapabilities({ sampling: provider ? { tools: {} } : {} });

  const rejected = (what: string) => new ProtocolError(USER_REJECTED, what);

  client.setRequestHandler("sampling/createMessage", async (request, ctx) => {
    const params = request.params as SamplingParams;
    const forwarded = options.forward?.({ method: "sampling/createMessage", params: request.params, id: ctx.mcpReq.id }, ctx.mcpReq.signal);
    // The other client's answer, typed as the result it must be: the SDK checks it against the sampling
    // result schema after this handler, as it does our own.
    if (forwarded) return forwarded as Promise<CreateMessageResult>;
    const context = uiContextFor(client, ctx.mcpReq.signal);
    if (!limiter.take()) {
      ui.notice(
        `Rejected a model request from ${context.server.name} without showing it: over the limit of ${limiter.max} requests per ${limiter.windowMs / 1000} s.`,
        context,
      );
      throw rejected("Sampling request rejected: over the client's rate limit");
    }
    const model = provider?.chooseModel(params.modelPreferences);
    const view = requestView(params, model);
    const review = await ui.reviewRequest(view, context);
    if (review.action === "deny") throw rejected("User rejected sampling request");
    const { params: approved, ignored } = applyEdit(params, review.edit);
    if (ignored.length)
      ui.notice(
        `Kept message${ignored.length > 1 ? "s" : ""} ${ignored.map((i) => i + 1).join(", ")} as the server sent ${ignored.length > 1 ? "them" : "it"}: only text messages can be edited.`,
        context,
      );

    let result: SamplingResult | undefined;
    if (provider && model !== undefined) {
      try {
        result = await provider.complete(approved, { model, signal: ctx.mcpReq.signal });
      } catch (error) {
        // Withdrawn by the server (or the call ended): nobody waits for an answer, so don't ask the person for one.
        if (ctx.mcpReq.signal.aborted) throw error;
        // The person can still write the answer (or reject) rather than losing the request.
        ui.notice(`The model failed: ${sanitizeText((error as Error).message, { maxLength: 400, multiline: false })}`, context);
      }
    }
    // The same view object when nothing was edited, so a UI can tie the answer to the request it approved.
    const shown = review.edit ? requestView(approved, model) : view;
    const verdict = await ui.reviewAnswer(result ? answerView(result) : undefined, shown, context);
    if (verdict.action === "reject") throw rejected("User rejected the model's answer");
    if (verdict.text !== undefined) return typedAnswer(verdict.text, result ? result.model : TYPED_BY_PERSON);
    if (!result) throw rejected("No answer: no model answered and the person wrote none");
    return result;
  });
  return { detach: () => client.removeRequestHandler("sampling/createMessage") };
}
