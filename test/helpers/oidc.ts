// Real tokens without a browser: drives the authorization-code + PKCE flow of the local OpenID
// provider (src/oidc/openid-provider.ts) with plain fetch, carrying its cookies by hand,
// through the same sign-in and consent forms a person uses.
import { createHash, randomBytes } from "node:crypto";

export interface SignInOptions {
  issuer: string;
  user: string;
  /** Default: the user name (the demo accounts' password is their name). */
  password?: string;
  /** The MCP server URL the token is for (RFC 8707 `resource`). */
  resource?: string;
  /** What to ask for; the provider grants nothing (access_denied) when nothing it knows is asked. */
  scopes?: string[];
  /** An already registered public client; default: a new one by dynamic client registration. */
  clientId?: string;
  redirectUri?: string;
  /** What the person answers on the consent page; default "allow". */
  consent?: "allow" | "deny";
}

export interface SignedIn {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  expiresIn: number;
  scope: string;
  clientId: string;
  redirectUri: string;
}

export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in: number;
  scope?: string;
  token_type: string;
}

const DEFAULT_REDIRECT = "http://127.0.0.1:9/callback";

/** The provider's metadata (OpenID discovery). */
export async function discover(issuer: string): Promise<Record<string, string>> {
  const response = await fetch(new URL("/.well-known/openid-configuration", issuer));
  if (!response.ok) throw new Error(`discovery at ${issuer} answered HTTP ${response.status}`);
  return (await response.json()) as Record<string, string>;
}

/** Registers a public native client (no secret) by dynamic client registration. */
export async function registerPublicClient(issuer: string, redirectUri = DEFAULT_REDIRECT, name = "oidc test helper"): Promise<string> {
  const meta = await discover(issuer);
  const response = await fetch(meta.registration_endpoint!, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      application_type: "native",
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  const body = (await response.json()) as { client_id?: string; error_description?: string };
  if (!response.ok || !body.client_id) throw new Error(`registration failed: HTTP ${response.status} ${body.error_description ?? ""}`);
  return body.client_id;
}

/** A cookie jar for one origin: name -> value, as Set-Cookie headers say. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]!) < Date.now());
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

function formAction(html: string): string[] {
  return [...html.matchAll(/<form[^>]*action="([^"]+)"/g)].map((m) => m[1]!.replace(/&#47;/g, "/"));
}

/** Signs `user` in and consents to everything asked (or denies, with `consent: "deny"`); returns the tokens of the code exchange. */
export async function signIn(options: SignInOptions): Promise<SignedIn> {
  const redirectUri = options.redirectUri ?? DEFAULT_REDIRECT;
  const meta = await discover(options.issuer);
  const clientId = options.clientId ?? (await registerPublicClient(options.issuer, redirectUri));
  const verifier = randomBytes(32).toString("base64url");
  const state = randomBytes(16).toString("base64url");
  const authorize = new URL(meta.authorization_endpoint!);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    redirect_uri: redirectUri,
    scope: (options.scopes ?? []).join(" "),
    state,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    ...(options.resource ? { resource: options.resource } : {}),
  }).toString();

  const jar = new Jar();
  const request = async (url: URL, body?: URLSearchParams) => {
    const response = await fetch(url, {
      method: body ? "POST" : "GET",
      redirect: "manual",
      headers: { cookie: jar.header(), ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body,
    });
    jar.take(response);
    return response;
  };

  let response = await request(authorize);
  for (let hop = 0; hop < 20; hop++) {
    const location = response.headers.get("location");
    if (location) {
      const next = new URL(location, response.url || options.issuer);
      if (next.href.startsWith(redirectUri)) {
        const error = next.searchParams.get("error");
        if (error) throw new Error(`sign-in ended with ${error}: ${next.searchParams.get("error_description") ?? ""}`);
        if (next.searchParams.get("state") !== state) throw new Error("the redirect's state does not match");
        const code = next.searchParams.get("code");
        if (!code) throw new Error("the redirect carries no code");
        const tokens = await exchange(meta.token_endpoint!, {
          grant_type: "authorization_code",
          code,
          redirect_uri: redirectUri,
          client_id: clientId,
          code_verifier: verifier,
          ...(options.resource ? { resource: options.resource } : {}),
        });
        return {
          accessToken: tokens.access_token,
          refreshToken: tokens.refresh_token,
          idToken: tokens.id_token,
          expiresIn: tokens.expires_in,
          scope: tokens.scope ?? "",
          clientId,
          redirectUri,
        };
      }
      response = await request(next);
      continue;
    }
    const html = await response.text();
    if (!response.ok)
      throw new Error(
        `sign-in page answered HTTP ${response.status}: ${html
          .replace(/<[^>]+>/g, " ")
          .replace(/\s+/g, " ")
          .trim()}`,
      );
    const actions = formAction(html);
    const login = actions.find((a) => a.endsWith("/login"));
    const confirm = actions.find((a) => a.endsWith(options.consent === "deny" ? "/abort" : "/confirm"));
    if (login)
      response = await request(
        new URL(login, options.issuer),
        new URLSearchParams({ username: options.user, password: options.password ?? options.user }),
      );
    else if (confirm) response = await request(new URL(confirm, options.issuer), new URLSearchParams());
    else throw new Error("a sign-in page had neither a sign-in nor a consent form");
  }
  throw new Error("sign-in took more than 20 steps");
}

async function exchange(tokenEndpoint: string, params: Record<string, string>): Promise<TokenResponse> {
  const response = await fetch(tokenEndpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params),
  });
  const body = (await response.json()) as TokenResponse & { error?: string; error_description?: string };
  if (!response.ok) throw new Error(`token endpoint: ${body.error ?? response.status} ${body.error_description ?? ""}`);
  return body;
}

/** Trades a refresh token for new tokens (the provider rotates refresh tokens). */
export async function refresh(options: {
  issuer: string;
  clientId: string;
  refreshToken: string;
  resource?: string;
}): Promise<TokenResponse> {
  const meta = await discover(options.issuer);
  return exchange(meta.token_endpoint!, {
    grant_type: "refresh_token",
    refresh_token: options.refreshToken,
    client_id: options.clientId,
    ...(options.resource ? { resource: options.resource } : {}),
  });
}
