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
  | "credentials-refused" // a machine grant: the client's credentials, or the workload's JWT, were refused
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
 * What a machine grant's refusal means, by OAuth error code (RFC 6749 §5.2, RFC 7523 §3.1); undefined
 * for a code that says nothing about the credentials. `grant` is "client_credentials" or the JWT bearer
 * grant ("id-jag" for it with an ID-JAG). "refused-client" is invalid_client or unauthorized_client, when it is not known which.
 */
export function machineRefusal(grant: string, code: string): LoginError | undefined {
  const name = grant === "client_credentials" ? "client_credentials" : "JWT bearer";
  const idJag = grant === "id-jag";
  const why: Record<string, string> = {
    invalid_client:
      "the authorization server refused the client's credentials (invalid_client): check the client id and its secret or key.",
    unauthorized_client: `the authorization server does not allow this client the ${name} grant (unauthorized_client).`,
    "refused-client": `the authorization server refused this client (invalid_client or unauthorized_client): check the client id, its secret or key, and that it may use the ${name} grant.`,
    unsupported_grant_type: `the authorization server does not offer the ${name} grant (unsupported_grant_type).`,
    invalid_scope:
      "the authorization server refused the scopes asked for (invalid_scope): check --scope, or the scopes the client may have.",
    invalid_grant: idJag
      ? "the authorization server refused the ID-JAG from the identity provider (invalid_grant): it may have expired, or be meant for another client, resource or authorization server."
      : name === "JWT bearer"
        ? "the authorization server refused the workload's JWT (invalid_grant): it may have expired, be meant for another audience, or come from an issuer it does not trust."
        : "the authorization server refused the grant (invalid_grant).",
  };
  const message = Object.hasOwn(why, code) ? why[code] : undefined;
  if (!message) return undefined;
  return new LoginError(code === "invalid_scope" ? "failed" : "credentials-refused", message, code === "refused-client" ? undefined : code);
}

/**
 * The SDK's auth errors as LoginErrors with messages fit to print; undefined for anything else.
 * Issuer values and error descriptions from the authorization server are left out on purpose: in a
 * mix-up attack they are the attacker's words. `grant` is the provider's machine grant, if any
 * (`OAuthProvider.grantType`): a refused token request then speaks of the client's credentials.
 */
export function loginErrorOf(error: unknown, grant?: string): LoginError | undefined {
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
    const refused = grant ? machineRefusal(grant, code) : undefined;
    if (refused) return refused;
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
