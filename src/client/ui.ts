// The UI contract: what a renderer (terminal, web, scripted) is given and must answer.
// Everything in it has already been checked and made inert; renderers never see raw server text.
import type { Field } from "../schema/fields.js";
import type { FormContent, ProtocolRevision, RequestedSchema } from "../schema/types.js";
import type { UrlAnalysis } from "./url-safety.js";

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

export type FormAnswer = { action: "accept"; content: FormContent } | { action: "decline" } | { action: "cancel" };
export type UrlAnswer = "accept" | "decline" | "cancel";

export interface ElicitationUI {
  form(request: FormRequest, context: UIContext): Promise<FormAnswer>;
  url(request: UrlRequest, context: UIContext): Promise<UrlAnswer>;
  /** Tells the person something the client did on its own (a declined burst, an ignored message). */
  notice(message: string, context: Pick<UIContext, "server">): void;
}
