// mcp-elicit/openai: a ModelProvider for attachSampling on any OpenAI-compatible chat-completions API
// (OpenAI, or a local llama.cpp / Ollama / vLLM server), through the `openai` library.
export {
  openAICompatibleProvider,
  providerFromEnv,
  type MaxTokensField,
  type ModelSpec,
  type OpenAICompatibleOptions,
} from "../client/providers/openai.js";
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
