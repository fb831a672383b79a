// The UI contract: what a renderer (terminal, web, scripted) is given and must answer.
// Everything in it has already been checked and made inert; renderers never see raw server text.
import type { FormAnswer } from "../common/form-answer.js";
import type { Field } from "../schema/fields.js";
import type { ProtocolRevision, RequestedSchema } from "../schema/types.js";
import type { UrlAnalysis } from "./url-safety/analyze.js";

export interface UIContext {
  /** Which server is asking (sanitized name and version from the connection). */
  server: { name: string; version: string };
  protocol: ProtocolRevision;
  /** Aborted when the server withdraws the request or the call ends. */
  signal: AbortSignal;
}

export interface FormRequest {
  /** Why the server asks (sanitized). */
  message: string;
  /** The fields to render, with sanitized labels, help and option labels. */
  fields: Field[];
  /** The original schema, for validation (never for display). */
  schema: RequestedSchema;
  /** Human warnings to show above the form, e.g. a field that looks like it asks for a password. */
  warnings: string[];
}

export interface UrlRequest {
  message: string;
  analysis: UrlAnalysis;
  elicitationId?: string;
}

export type { FormAnswer };
export type UrlAnswer = "accept" | "decline" | "cancel";

/** A URL-mode flow the person consented to and that the client now waits on (a -32042 from a tool call). */
export interface UrlWait {
  message: string;
  /** The host the person went to (sanitized): as it reads, with the ASCII form that opened when they differ, e.g. "pаypal.com (xn--pypal-4ve.com)". */
  host: string;
  /** Settles when the server's notifications/elicitation/complete for this URL arrives. */
  completed: Promise<void>;
  /**
   * Asks the server for a new link to the same page (an mcp-elicit kit's pages give them; see
   * client/url-renew.ts), for a link opened first in another browser. Absent for other pages.
   */
  renew?: () => Promise<string>;
}

/** "completed": the notification came; "retry": the person asked to retry now; "cancel": they gave up. */
export type UrlWaitOutcome = "completed" | "retry" | "cancel";

export interface ElicitationUI {
  form(request: FormRequest, context: UIContext): Promise<FormAnswer>;
  /** Consent for a URL: "accept" means the person said yes and the URL was opened (or will be, by the UI). */
  url(request: UrlRequest, context: UIContext): Promise<UrlAnswer>;
  /** Shows that the client waits for an out-of-band URL flow to finish; optional (default: wait for completion). */
  waitForUrl?(wait: UrlWait, context: UIContext): Promise<UrlWaitOutcome>;
  /**
   * 2026-07-28: the server asks again for a URL the person accepted earlier in the same tool call (its page
   * is open, not finished). The client does not ask again: it answers "accept" and tells the person with
   * `notice`. Optional; a UI that knows the page can no longer be finished (a browser it drove failed)
   * returns "cancel" to end the flow. It must not ask the person, nor open the URL again.
   */
  urlAskedAgain?(request: UrlRequest, context: UIContext): "accept" | "cancel";
  /** Tells the person something the client did on its own (a declined burst, an ignored message). */
  notice(message: string, context: Pick<UIContext, "server">): void;
}

// ---------------------------------------------------------------------------------------------
// Sampling review: a person sees the server's model request before any model does, and the
// model's answer before the server does. Everything here is sanitized for display.

/** One message of a sampling request, as shown to the person. Non-text content is described, e.g. "[image/png, 12 KB]". */
export interface SamplingMessageView {
  role: "user" | "assistant";
  text: string;
}

export interface SamplingRequestView {
  systemPrompt?: string;
  messages: SamplingMessageView[];
  maxTokens: number;
  /** Model names the server hinted at, in its order of preference. */
  modelHints: string[];
  /** The server's 0..1 priorities, when given. */
  priorities: { cost?: number; speed?: number; intelligence?: number };
  /** Names of the tools the server offers the model (sampling with tools), if any. */
  tools: string[];
  /** The model the client will use, or undefined when no model provider is configured (the person types the answer). */
  model?: string;
}

/** What the person may change in a request before it goes to the model. */
export interface SamplingEdit {
  systemPrompt?: string;
  /** Replacement text for the messages, by index (text messages only). */
  messages?: Record<number, string>;
  maxTokens?: number;
}

export type SamplingRequestReview = { action: "approve"; edit?: SamplingEdit } | { action: "deny" };

/** The model's answer as shown to the person (undefined `answer` = no provider: the person writes it). */
export interface SamplingAnswerView {
  model: string;
  text: string;
  stopReason?: string;
  /** Tool calls the model asked for (sampling with tools), as "name(arguments JSON)". */
  toolCalls: string[];
}

export type SamplingAnswerReview = { action: "approve"; text?: string } | { action: "reject" };

export interface SamplingUI {
  /** Step 1: approve (optionally edited) or deny the request before any model sees it. */
  reviewRequest(request: SamplingRequestView, context: UIContext): Promise<SamplingRequestReview>;
  /**
   * Step 2: approve, edit (approve with `text`) or reject the answer before it goes back to the server.
   * With no model provider, `answer` is undefined and the person types the answer (approve with `text`).
   */
  reviewAnswer(answer: SamplingAnswerView | undefined, request: SamplingRequestView, context: UIContext): Promise<SamplingAnswerReview>;
}
