// mcp-elicit/client: safe elicitation, sampling and roots for any SDK v2 Client, and the renderers.
export { attachElicitation, CALL_TIMEOUT_MS, type AttachOptions, type ElicitationHandle, type ElicitationMode, type ElicitationPolicy } from "./attach.js";
export { attachSampling, TYPED_BY_PERSON, USER_REJECTED, type SamplingOptions } from "./sampling.js";
export { attachRoots, toRoot, type RootInput, type RootsHandle } from "./roots.js";
export { PendingUrlElicitations, UrlElicitationEndedError, type UrlFlowEnd } from "./url-flow.js";
export { analyzeUrl, type UrlAnalysis } from "./url-safety.js";
export { sanitizeText, MAX_LABEL_LENGTH, MAX_MESSAGE_LENGTH } from "./sanitize.js";
export type { RateLimitOptions } from "./rate-limit.js";
export type * from "./ui.js";
export { ProviderError, type ModelProvider, type SamplingParams, type SamplingResult } from "./providers/provider.js";
export { openAICompatibleProvider, providerFromEnv } from "./providers/openai.js";
// The renderers live in src/ui (they depend on the client, not the other way round); re-exported here
// so that one import gives a host everything.
export { scriptedUI, type ScriptedAnswer, type ScriptedSample } from "../ui/scripted.js";
export { parseAnswers, readAnswersFile, AnswersFileError } from "../ui/answers-file.js";
export { terminalUI } from "../ui/terminal/index.js";
