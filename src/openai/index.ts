// mcp-elicit/openai: a ModelProvider for attachSampling on any OpenAI-compatible chat-completions API
// (OpenAI, or a local llama.cpp / Ollama / vLLM server), through the `openai` library, an optional peer
// of mcp-elicit: without it, importing this entry fails with an error that names it.
import "../client/error-codes.js"; // the codes of the errors this entry can throw join ErrorCode for its users
import { loadWithPeers } from "../common/optional-peers.js";

const openai = await loadWithPeers("mcp-elicit/openai", () => import("../client/providers/openai.js"));

/** A ModelProvider for an OpenAI-compatible chat-completions API (see docs/host/answer-sampling.md). */
export const openAICompatibleProvider: typeof openai.openAICompatibleProvider = openai.openAICompatibleProvider;
/** A provider from the ELICIT_MODEL_* (or OPENAI_*) environment variables, or undefined when no model is configured. */
export const providerFromEnv: typeof openai.providerFromEnv = openai.providerFromEnv;
export type { MaxTokensField, ModelSpec, OpenAICompatibleOptions } from "../client/providers/openai.js";
export type { ModelsOption } from "../client/providers/models.js";
export {
  ProviderError,
  type ModelProvider,
  type ProviderErrorInit,
  type ProviderErrorKind,
  type ProviderTarget,
  type SamplingParams,
  type SamplingResult,
} from "../client/providers/provider.js";
