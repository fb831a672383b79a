// Why signing in to a server did not work. Messages never hold a token, a code, a client secret or
// text the authorization server chose (only an OAuth error code, checked to be one).
import {
  AuthorizationServerMismatchError,
  InsecureTokenEndpointError,
  InsufficientScopeError,
  IssuerMismatchError,
  OAuthError,
  RegistrationRejectedError,
} from "@modelcontextprotocol/client";
import { ElicitError } from "../../schema/errors.js";

export type LoginFailure =
  | "declined" // the person said no to opening the sign-in page
  | "timeout" // the redirect did not come back in time
  | "cancelled" // the wait was abandoned (the host closed, a newer sign-in)
  | "state-mismatch" // the redirect's state was not ours
  | "error-redirect" // the authorization server redirected back with an error
  | "issuer-mismatch" // the authorization server is not the one the credentials belong to
  | "refresh-failed" // the saved sign-in could not be renewed
  | "failed"; // anything else in the flow (discovery, registration, token exchange)

export class LoginError extends ElicitError {
  constructor(
    readonly reason: LoginFailure,
    message: string,
    /** The OAuth error code of an error redirect or token response, when there was one. */
    readonly oauthError?: string,
  ) {
    super("login-failed", message);
  }
}

/** An OAuth error code, or a placeholder when the text is not one (it is printed). */
export const oauthCode = (value: unknown) => (typeof value === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(value) ? value : "unknown_error");

/**
 * The SDK's auth errors as LoginErrors with messages fit to print; undefined for anything else.
 * Issuer values and error descriptions from the authorization server are left out on purpose: in a
 * mix-up attack they are the attacker's words.
 */
export function loginErrorOf(error: unknown): LoginError | undefined {
  if (error instanceof LoginError) return error;
  if (error instanceof IssuerMismatchError)
    return new LoginError(
      "issuer-mismatch",
      error.kind === "metadata"
        ? "the authorization server's metadata names another issuer than the one it was fetched for (RFC 8414 §3.3); not signing in there."
        : "the redirect back came from another authorization server than the one the sign-in was sent to (the iss parameter does not match, RFC 9207); nothing was exchanged.",
    );
  if (error instanceof AuthorizationServerMismatchError)
    return new LoginError(
      "issuer-mismatch",
      "the authorization server changed between the start and the end of the sign-in; nothing was exchanged. Try again.",
    );
  if (error instanceof InsecureTokenEndpointError)
    return new LoginError(
      "failed",
      "the authorization server's token endpoint is not https (only loopback addresses may use http); no credentials were sent.",
    );
  if (error instanceof RegistrationRejectedError)
    return new LoginError("failed", `the authorization server refused to register this client (HTTP ${error.status}).`);
  if (error instanceof InsufficientScopeError)
    return new LoginError("failed", "the server needs more permissions (403 insufficient_scope) and the sign-in could not ask for them.");
  if (error instanceof OAuthError) {
    const code = oauthCode(error.code);
    return code === "invalid_grant"
      ? new LoginError(
          "refresh-failed",
          "the authorization server refused the saved sign-in or the authorization code (invalid_grant).",
          code,
        )
      : new LoginError("failed", `the authorization server answered with the error ${code}.`, code);
  }
  return undefined;
}
