// mcp-elicit/server: straight-line elicitation for tool authors, on every protocol revision.
import "./base/error-codes.js"; // the codes of the errors this entry can throw join ErrorCode for its users
export {
  createElicitation,
  defaultPrincipal,
  type Elicitation,
  type ElicitationOptions,
  type ElicitContext,
  type ElicitToolConfig,
  type ElicitToolHandler,
} from "./kit/elicitation.js";
export { InvalidAnswerError, type ElicitOutcome, type ElicitOptions } from "./inputs/elicit.js";
export {
  InputUnavailableError,
  InvalidClientResultError,
  MissingCapabilityError,
  SamplingParamsError,
  SessionRequiredError,
} from "./base/tool-errors.js";
export { InputTimeoutError } from "./live/live.js";
export { ReplayMismatchError } from "./rounds/replay.js";
export type { WarmRoundOptions, EvictReason } from "./rounds/warm.js";
export { StepBusyError, StepLostError } from "./rounds/ledger.js";
export { StateError, DEFAULT_MAX_STATE_BYTES, type StateProblem } from "./base/sealed-state.js";
export { TASKS_EXTENSION, type TaskSupport } from "./tasks/protocol.js";
export { createFetchHandler } from "./http/fetch-handler.js";
export type { FetchHandler, FetchHandlerOptions, ServerFactory } from "./http/fetch-options.js";
export type { HttpAuthOptions, Principal } from "./auth/options.js";
export { principalOf } from "./auth/principal.js";
export { jwtAccessTokenVerifier, type JwtVerifierOptions } from "./auth/jwt-verifier.js";
export { CLIENT_FEATURES, type ClientFeature } from "./base/capabilities.js";
export type { ClientInputs } from "./inputs/client-inputs.js";
export { checkSampleParams, type SampleOptions, type SampleParams, type SampleResult } from "./inputs/sample.js";
export type { RootsOptions } from "./inputs/roots.js";
export {
  directorySink,
  storeSink,
  FileTooLargeError,
  UploadExistsError,
  UploadNotFoundError,
  type DirectorySinkOptions,
  type FileSink,
  type StoreSinkOptions,
  type StoredUpload,
} from "./url/files/index.js";
export { createUrlKit, type IdentityOption, type ThirdPartyProvider, type UrlKit, type UrlKitOptions } from "./url/url-kit.js";
export { FlowStore, type FlowKind, type FlowOutcome, type FlowStoreOptions, type UrlFlow } from "./url/flows.js";
export type {
  CollectOptions,
  ConnectOptions,
  FileOptions,
  FileResult,
  UrlElicitOptions,
  UrlInputs,
  UrlOutcome,
  UrlResult,
} from "./inputs/elicit-url.js";
export type { ElicitedFile } from "./url/uploads.js";
export { UrlLinkResult, UrlModeUnavailableError } from "./url/errors.js";
export { Vault, VaultError, type OAuthCredential, type VaultEntry, type VaultOptions, type VaultPrincipal } from "./url/vault.js";
export { LOCAL_PRINCIPAL, vaultOwner } from "./url/identity.js";
export { VAULT_KEY_ENV } from "./url/keys.js";
