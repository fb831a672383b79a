// A ModelProvider on any OpenAI-compatible chat-completions API: OpenAI itself, or a local
// llama.cpp / Ollama / vLLM / LM Studio server through its base URL.
import OpenAI from "openai";
import { chooseModel, normalizeModels, type ModelSpec, type ModelsOption } from "./models.js";
import { translateError, normalizeErrorBodies } from "./openai-errors.js";
import { toChatRequest, type MaxTokensField } from "./openai-request.js";
import { withRetries } from "./openai-retry.js";
import { fromChatCompletion } from "./openai-response.js";
import { displayURL, ProviderError, type ModelProvider } from "./provider.js";

export type { ModelSpec } from "./models.js";
export type { MaxTokensField } from "./openai-request.js";

export const OPENAI_BASE_URL = "https://api.openai.com/v1";
/** The SDK's default: local models on a CPU can be slow. */
export const DEFAULT_TIMEOUT_MS = 600_000;
export const DEFAULT_MAX_RETRIES = 2;

export interface OpenAICompatibleOptions {
  /** E.g. https://api.openai.com/v1, http://127.0.0.1:8080/v1 (llama.cpp), http://127.0.0.1:11434/v1 (Ollama). */
  baseURL: string;
  /** Sent as a bearer token; without one no Authorization header is sent (local servers). */
  apiKey?: string;
  /** A comma list, names, or ModelSpecs with scores for priority-based choice; first = default. */
  models: ModelsOption;
  /** Per attempt (default 600 000 ms). */
  timeoutMs?: number;
  /** Retries on connection errors, timeouts, 408/409/429/5xx, with backoff or the server's retry-after (default 2). */
  maxRetries?: number;
  /** Default: `max_completion_tokens` for api.openai.com, `max_tokens` for any other server. */
  maxTokensField?: MaxTokensField;
}

/**
 * A model provider for any server that speaks OpenAI's chat completions: a hosted API, llama.cpp, Ollama, vLLM.
 *
 * @example
 * ```ts region=examples/client-provider.ts#openAICompatibleProvider
 * const local = openAICompatibleProvider({
 *   baseURL: "http://127.0.0.1:11434/v1", // e.g. Ollama; add apiKey for a hosted API
 *   models: [{ name: "llama3.2", speed: 0.9 }, { name: "qwen2.5-coder", aliases: ["coder"], intelligence: 0.8 }],
 * });
 * console.log(local.models, local.chooseModel({ hints: [{ name: "coder" }] })); // -> [ 'llama3.2', 'qwen2.5-coder' ] qwen2.5-coder
 * console.log(local.chooseModel({ intelligencePriority: 1 })); // -> qwen2.5-coder
 * ```
 */
export function openAICompatibleProvider(options: OpenAICompatibleOptions): ModelProvider {
  const baseURL = checkBaseURL(options.baseURL);
  const shown = displayURL(baseURL);
  const specs = normalizeModels(options.models);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw config(`timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`);
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (!(Number.isInteger(maxRetries) && maxRetries >= 0)) throw config(`maxRetries must be a whole number ≥ 0, got ${maxRetries}`);
  const maxTokensField =
    options.maxTokensField ?? (new URL(baseURL).hostname === "api.openai.com" ? "max_completion_tokens" : "max_tokens");

  const apiKey = options.apiKey && options.apiKey !== "" ? options.apiKey : undefined;
  const client = new OpenAI({
    baseURL,
    // The SDK insists on a key; a keyless local server gets a placeholder whose header is then removed.
    apiKey: apiKey ?? "no-key",
    ...(apiKey ? {} : { defaultHeaders: { Authorization: null } }),
    // Explicit, so an OPENAI_ORG_ID / OPENAI_PROJECT_ID meant for other tools is not sent to this server.
    organization: null,
    project: null,
    timeout: timeoutMs,
    maxRetries: 0, // see openai-retry.ts
    fetch: normalizeErrorBodies(),
  });

  return {
    models: specs.map((s) => s.name),
    chooseModel: (preferences) => chooseModel(specs, preferences),
    async complete(params, { model, signal }) {
      const target = { model, baseURL: shown };
      if (signal?.aborted)
        throw new ProviderError({ kind: "aborted", detail: "The model request was cancelled before it was sent", ...target });
      const body = toChatRequest(params, { model, maxTokensField, target });
      try {
        const completion = await withRetries(() => client.chat.completions.create(body, signal ? { signal } : {}), maxRetries, signal);
        // Inside the try: whatever a non-conforming server sends must end as a ProviderError.
        return fromChatCompletion(completion, model, target);
      } catch (error) {
        throw translateError(error, target, timeoutMs);
      }
    },
  };
}

function checkBaseURL(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw config(`the model base URL "${displayURL(String(raw))}" is not a URL (e.g. http://127.0.0.1:8080/v1)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw config(`the model base URL must start with http:// or https://, got "${displayURL(raw)}"`);
  // fetch refuses URLs with credentials, and the SDK appends paths after any query: both would fail per request.
  if (url.username || url.password)
    throw config(`the model base URL ${displayURL(raw)} must not hold credentials: give the API key instead`);
  if (url.search) throw config(`the model base URL ${displayURL(raw)} must not have a query string`);
  return raw;
}

const config = (detail: string) => new ProviderError({ kind: "config", detail });

// ---------------------------------------------------------------------------------------------
// Configuration from the environment.

/**
 * A provider from environment variables, or undefined when no model is configured:
 * - `ELICIT_MODEL` (else `OPENAI_MODEL`): model names, comma-separated, first = default; or a JSON
 *   array of names and ModelSpecs, e.g. `[{"name":"qwen3:4b","cost":0,"speed":0.9}]`;
 * - `ELICIT_MODEL_BASE_URL` (else `OPENAI_BASE_URL`): the API's base URL; default api.openai.com
 *   when a key is given;
 * - `ELICIT_MODEL_API_KEY` (else `OPENAI_API_KEY`): the bearer token; none for a local server;
 * - `ELICIT_MODEL_TIMEOUT_MS`, `ELICIT_MODEL_MAX_RETRIES`, `ELICIT_MODEL_MAX_TOKENS_FIELD`
 *   (`max_tokens` | `max_completion_tokens`): optional tuning.
 * Throws ProviderError "config" for half a configuration: a model with neither base URL nor key, or an
 * ELICIT_MODEL_* setting without a model. OPENAI_* variables alone configure nothing: other tools use them.
 */
export function providerFromEnv(env: Record<string, string | undefined> = process.env): ModelProvider | undefined {
  const pick = (...names: string[]) => {
    for (const name of names) {
      const value = env[name]?.trim();
      if (value) return { name, value };
    }
    return undefined;
  };
  const models = pick("ELICIT_MODEL", "OPENAI_MODEL");
  const baseURL = pick("ELICIT_MODEL_BASE_URL", "OPENAI_BASE_URL");
  const apiKey = pick("ELICIT_MODEL_API_KEY", "OPENAI_API_KEY");
  const tuning = [
    "ELICIT_MODEL_BASE_URL",
    "ELICIT_MODEL_API_KEY",
    "ELICIT_MODEL_TIMEOUT_MS",
    "ELICIT_MODEL_MAX_RETRIES",
    "ELICIT_MODEL_MAX_TOKENS_FIELD",
  ];
  if (!models) {
    const stray = tuning.filter((name) => pick(name));
    if (stray.length > 0)
      throw config(
        `${stray.join(", ")} ${stray.length > 1 ? "are" : "is"} set but no model is: set ELICIT_MODEL to a model name (or a comma-separated list)`,
      );
    return undefined;
  }
  if (!baseURL && !apiKey) {
    throw config(
      `${models.name} is set but there is neither a base URL (ELICIT_MODEL_BASE_URL or OPENAI_BASE_URL, for a local or other server) nor an API key (ELICIT_MODEL_API_KEY or OPENAI_API_KEY, for api.openai.com)`,
    );
  }
  const field = pick("ELICIT_MODEL_MAX_TOKENS_FIELD")?.value;
  if (field !== undefined && field !== "max_tokens" && field !== "max_completion_tokens") {
    throw config(`ELICIT_MODEL_MAX_TOKENS_FIELD must be max_tokens or max_completion_tokens, got "${field}"`);
  }
  const timeoutMs = wholeNumber(pick("ELICIT_MODEL_TIMEOUT_MS"), 1);
  const maxRetries = wholeNumber(pick("ELICIT_MODEL_MAX_RETRIES"), 0);
  return openAICompatibleProvider({
    baseURL: baseURL?.value ?? OPENAI_BASE_URL,
    ...(apiKey ? { apiKey: apiKey.value } : {}),
    models: parseModels(models),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(maxRetries !== undefined ? { maxRetries } : {}),
    ...(field ? { maxTokensField: field } : {}),
  });
}

function parseModels({ name, value }: { name: string; value: string }): ModelsOption {
  if (!value.startsWith("[")) return value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw config(`${name} starts with "[" but is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed) || !parsed.every((m) => typeof m === "string" || (typeof m === "object" && m !== null))) {
    throw config(`${name} must be a JSON array of model names or {"name", "cost", "speed", "intelligence"} objects`);
  }
  return parsed as (string | ModelSpec)[];
}

function wholeNumber(setting: { name: string; value: string } | undefined, min: number): number | undefined {
  if (!setting) return undefined;
  const n = Number(setting.value);
  if (!/^\d+$/.test(setting.value) || n < min) throw config(`${setting.name} must be a whole number ≥ ${min}, got "${setting.value}"`);
  return n;
}
