// mcp-elicit/client: safe elicitation, sampling and roots for any SDK v2 Client. UI-free: the renderers
// are mcp-elicit/terminal and mcp-elicit/scripted, the OpenAI-compatible model provider mcp-elicit/openai,
// so a host that renders its own way loads none of @inquirer/*, ora, open, openai or yaml.
import "./error-codes.js"; // the codes of the errors this entry can throw join ErrorCode for its users
export {
  attachElicitation,
  CALL_CEILING_MS,
  CALL_TIMEOUT_MS,
  type AttachOptions,
  type ElicitationHandle,
  type ElicitationMode,
  type ElicitationPolicy,
} from "./attach.js";
export { attachSampling, TYPED_BY_PERSON, USER_REJECTED, type SamplingHandle, type SamplingOptions } from "./sampling.js";
export type { Attached } from "./attached.js";
export { attachRoots, toRoot, type RootInput, type RootsHandle } from "./roots.js";
export { RendererAnswerError } from "./renderer-answer.js";
// 2026-07-28 rounds sent again when the server goes away under them (the transport's `fetch`).
export {
  recoveredNotice,
  RESEND_DEADLINE_MS,
  resendingFetch,
  resendNotice,
  ServerGoneError,
  type FetchLike,
  type RecoveredEvent,
  type ResendEvent,
  type ResendOptions,
} from "./resend.js";
// What the SDK's Streamable HTTP transport would drop, answered (the transport's `fetch`).
export { screenedFetch, type ScreenedFetchOptions } from "./screened-fetch.js";
export { PendingUrlElicitations, UrlElicitationEndedError, type UrlFlowEnd } from "./url-flow.js";
// Tool calls a server turns into tasks (io.modelcontextprotocol/tasks): followed to their end.
export { followTask, followTasks, TASKS_EXTENSION, type FollowTasksOptions, type TaskReport } from "./tasks/follow.js";
export { rawRequest, RawRequestError, RawRequestParamsError } from "./tasks/raw-request.js";
export { analyzeUrl, hostForDisplay, type UrlAnalysis, type UrlWarning, type UrlWarningCode } from "./url-safety/analyze.js";
export { sanitizeText, MAX_LABEL_LENGTH, MAX_MESSAGE_LENGTH, type SanitizeOptions } from "../common/sanitize.js";
export type { RateLimitOptions } from "./rate-limit.js";
// The UI contract every renderer implements (terminalUI, scriptedUI, or your own).
export type * from "./ui.js";
// The model-provider contract attachSampling takes; openAICompatibleProvider (mcp-elicit/openai) is one.
export {
  ProviderError,
  type ModelProvider,
  type ProviderErrorInit,
  type ProviderErrorKind,
  type ProviderTarget,
  type SamplingParams,
  type SamplingResult,
} from "./providers/provider.js";
// Signing in to servers that require authorization (OAuth), on the SDK's auth(): the provider, its
// errors and the token stores. UI-free: the host asks for consent and opens the browser (authorize).
export { OAuthProvider, DEFAULT_SIGN_IN_TIMEOUT_MS, type OAuthProviderOptions, type SignInRequest } from "./oauth/provider.js";
export { LoginError, loginErrorOf, type LoginFailure } from "./oauth/errors.js";
export type { ClientCredentialsGrant, IdentityProvider, IdJagGrant, JwtBearerGrant, MachineGrant } from "./oauth/machine.js";
export {
  memoryTokenStore,
  type IssuerCredentials,
  type SavedTokens,
  type ServerCredentials,
  type TokenStore,
} from "./oauth/token-store.js";
export { configFolder, fileTokenStore, TokenFolderError, type FileTokenStoreOptions } from "./oauth/file-store.js";
