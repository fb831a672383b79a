// The model behind sampling/createMessage: the contract every provider (OpenAI-compatible, or any other) meets.
import type { CreateMessageRequest, CreateMessageResultWithTools, ModelPreferences } from "@modelcontextprotocol/client";
import { ElicitError } from "../../schema/errors.js";

/** The parameters of a sampling/createMessage request. */
export type SamplingParams = CreateMessageRequest["params"];

/**
 * What a provider answers. The spec's CreateMessageResult may hold tool_use blocks (sampling with tools);
 * the SDK splits that into CreateMessageResult (no tools) and CreateMessageResultWithTools (the spec's shape).
 */
export type SamplingResult = CreateMessageResultWithTools;

export interface ModelProvider {
  /** Configured model names, in order of preference (first = default). */
  readonly models: readonly string[];
  /** The model to use for a request's modelPreferences (hints, then priorities). */
  chooseModel(preferences?: ModelPreferences): string;
  /** One completion. Rejects with ProviderError (HTTP status, provider's message, model, base URL) on failure; honours signal. */
  complete(params: SamplingParams, options: { model: string; signal?: AbortSignal }): Promise<SamplingResult>;
}

/**
 * Why a provider failed:
 * - `config`: the provider is set up wrong (missing model, bad base URL, half an environment);
 * - `http`: the API answered with an error status;
 * - `network`: the API could not be reached (connection refused, unknown host, reset);
 * - `timeout`: no answer within the configured time;
 * - `aborted`: the caller's signal cancelled the request;
 * - `unsupported`: the request holds content this API cannot carry (e.g. ogg audio);
 * - `invalid_request`: the request breaks the spec's sampling rules (e.g. tool results mixed with text);
 * - `bad_response`: the API answered something unusable (no choices, malformed tool arguments).
 */
export type ProviderErrorKind = "config" | "http" | "network" | "timeout" | "aborted" | "unsupported" | "invalid_request" | "bad_response";

/** Where a request went, for error messages. */
export interface ProviderTarget {
  model?: string;
  /** Already stripped of credentials (see displayURL). */
  baseURL?: string;
}

export interface ProviderErrorInit extends ProviderTarget {
  kind: ProviderErrorKind;
  /** What went wrong, in one sentence, without the target (added to the message here). */
  detail: string;
  status?: number;
  /** The provider's own error message, when it sent one. */
  providerMessage?: string;
  cause?: unknown;
}

export class ProviderError extends ElicitError {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  readonly model?: string;
  readonly baseURL?: string;
  readonly providerMessage?: string;

  constructor(init: ProviderErrorInit) {
    super("provider-failed", init.detail + targetSuffix(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    if (init.status !== undefined) this.status = init.status;
    if (init.model !== undefined) this.model = init.model;
    if (init.baseURL !== undefined) this.baseURL = init.baseURL;
    if (init.providerMessage !== undefined) this.providerMessage = init.providerMessage;
  }
}

function targetSuffix({ model, baseURL }: ProviderTarget): string {
  if (model !== undefined && baseURL !== undefined) return ` (model "${model}" at ${baseURL})`;
  if (model !== undefined) return ` (model "${model}")`;
  if (baseURL !== undefined) return ` (at ${baseURL})`;
  return "";
}

/** A base URL fit for messages and logs: no user:password@, no query (some gateways take keys there). */
export function displayURL(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    u.search = "";
    u.hash = "";
    return u.toString().replace(/\/$/, "");
  } catch {
    return url;
  }
}
