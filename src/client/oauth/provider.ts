// The OAuth client of an MCP host, on the SDK's own auth(): the SDK discovers the protected-resource
// and authorization-server metadata, registers the client (Client ID Metadata Document where the
// server supports it, else dynamic registration), builds the PKCE (S256) authorization request with
// `state` and `resource`, exchanges the code, refreshes, and steps up on 403 insufficient_scope.
// This provider supplies what the SDK leaves to hosts: the loopback redirect, the store, consent
// before the browser opens, and the wait for the redirect.
//
// The SDK cannot finish a sign-in inside the request that needed it (its auth() answers "REDIRECT"
// and the request fails with UnauthorizedError), so redirectToAuthorization only records the
// authorization URL, and withSignIn() does the rest around whatever failed: consent, the browser,
// the redirect, transport.finishAuth(), and the request once more.
//
// With a machine grant (options.grant: client_credentials or jwt-bearer, machine.ts) there is no
// person: no redirect URL, no loopback listener, no consent; the SDK asks the token endpoint itself
// when the server answers 401, and again when the token has expired.
import { randomBytes } from "node:crypto";
import type {
  AddClientAuthentication,
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { dpopAlgorithmFor, dpopSessionFor } from "./dpop.js";
import { LoginError } from "./errors.js";
import { startLoopback, type Loopback } from "./loopback.js";
import { machineClientMetadata, machineFlowOf, type MachineFlow, type MachineGrant } from "./machine.js";
import { checkIssuerUrl, issuerNotPinned, sameIssuer } from "./pinned-issuer.js";
import { SavedSignIn } from "./saved-sign-in.js";
import { memoryTokenStore, type ServerCredentials, type TokenStore } from "./token-store.js";

/** How long a sign-in may take, from the consent question to the redirect back, unless told otherwise. */
export const DEFAULT_SIGN_IN_TIMEOUT_MS = 300_000;

export interface SignInRequest {
  /** The authorization URL, with its state, PKCE challenge and resource. */
  url: URL;
  /** The MCP server the sign-in is for. */
  server: string;
  /** The loopback address the browser comes back to. */
  redirectUrl: string;
  /** Why a sign-in is needed: the first one, a saved sign-in that could not be renewed, or more scopes. */
  reason: "new" | "expired" | "step-up";
  signal: AbortSignal;
}

export interface OAuthProviderOptions {
  /** The MCP server's URL (the protected resource). */
  serverUrl: string | URL;
  /** Where registrations and tokens are kept (default: memoryTokenStore()). */
  store?: TokenStore;
  /**
   * Asks the person, shows them where they are going, and opens (or prints) the authorization URL.
   * Throw LoginError("declined") when they say no. Called only when a sign-in is needed. Required
   * unless `grant` is given.
   */
  authorize?(request: SignInRequest): Promise<void>;
  /**
   * Sign in with no person: the client_credentials grant (with `clientId` and `clientSecret`, or
   * `grant.privateKey` for private_key_jwt) or the JWT bearer grant (`grant.assertion()`, a workload's
   * JWT). No browser, no consent, no loopback listener; a token is asked for when the server answers
   * 401 and again once it has expired (there is no refresh token).
   */
  grant?: MachineGrant;
  /**
   * Told when the wait for the redirect starts (for a spinner or a line); `timeoutMs` is how long it
   * lasts. The function it returns, if any, is called when the wait ends, however it ends.
   */
  onWaiting?(info: { redirectUrl: string; timeoutMs: number }): (() => void) | void;
  /**
   * The issuer URL of the one authorization server this client's credentials may be sent to. Required
   * with `grant` and with `clientSecret`: the MCP server is not trusted to name where a secret, a key's
   * assertion, a workload's JWT or an ID-JAG goes. A sign-in that resolves another authorization server
   * ends with a LoginError ("issuer-mismatch") naming both, before anything is sent there.
   */
  expectedIssuer?: string;
  /**
   * A pre-registered client: its id (and secret, for a confidential client). Never stored. Required for
   * client_credentials. Without `expectedIssuer`, a client id alone is bound to the first authorization
   * server this provider signs in at.
   */
  clientId?: string;
  clientSecret?: string;
  /** An https URL of this client's Client ID Metadata Document, used as client_id where the server supports it. */
  clientMetadataUrl?: string;
  /** The client name shown on consent pages (dynamic registration). */
  clientName?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata say which. */
  scope?: string;
  signInTimeoutMs?: number;
  /**
   * DPoP-bound tokens (RFC 9449): `true` wherever the authorization server offers them, `false` never;
   * by default where the authorization server offers them and the server's protected-resource metadata
   * says it accepts them. The key pair is kept in `store` with the sign-in (a private JWK: as secret as
   * the tokens); the SDK signs the proofs and retries once with a server's DPoP-Nonce.
   */
  dpop?: boolean;
}

const base64url = (bytes: Buffer) => bytes.toString("base64url");

/**
 * The SDK's `OAuthClientProvider` for hosts: a loopback redirect, your consent (`authorize`), a token store, and
 * `withSignIn` to sign in when a request needs it.
 *
 * @example
 * ```ts region=examples/oauth-host.ts#OAuthProvider
 * const oauth = await OAuthProvider.create({ serverUrl: server.url, store: memoryTokenStore(), authorize });
 * const client = new Client({ name: "host", version: "1.0.0" });
 * let transport!: StreamableHTTPClientTransport;
 * // withSignIn runs the attempt; when the server wants a sign-in, it signs in and runs it again.
 * await oauth.withSignIn(
 *   () => client.connect((transport = new StreamableHTTPClientTransport(server.url, { authProvider: oauth }))),
 *   (callback) => transport.finishAuth(callback),
 * );
 * ```
 */
export class OAuthProvider implements OAuthClientProvider {
  readonly clientMetadataUrl?: string;
  private readonly server: string;
  /** This server's sign-in in the token store (saved-sign-in.ts). */
  private readonly saved: SavedSignIn;
  /** Bound for person sign-ins only: a machine grant has no redirect. */
  private loopback: Loopback | undefined;
  private readonly machine: MachineFlow | undefined;
  private verifier: string | undefined;
  private currentState: string | undefined;
  private pending: { url: URL; state: string; reason: SignInRequest["reason"] } | undefined;
  /** Set when the SDK gave up a saved sign-in (a refresh the authorization server refused). */
  private tokensInvalidated = false;
  /** The resource the SDK asks tokens for, once it has discovered it. */
  private resource: string | undefined;
  /** Whether the SDK discovered afresh during the current attempt (else it used the saved discovery). */
  private discovered = false;
  private readonly abort = new AbortController();
  /** The DPoP session once DPoP is in use (the same one every time: it holds the servers' nonces). */
  private dpopSession: Promise<DpopSession> | undefined;
  /** A hand-given client id without expectedIssuer: the authorization server it was first used at. */
  private firstIssuer: string | undefined;

  private constructor(
    private readonly options: OAuthProviderOptions,
    loopback: Loopback | undefined,
    machine: MachineFlow | undefined,
  ) {
    this.server = new URL(options.serverUrl).href;
    this.saved = new SavedSignIn(options.store ?? memoryTokenStore(), this.server);
    this.loopback = loopback;
    this.machine = machine;
    if (options.clientMetadataUrl && !machine) this.clientMetadataUrl = options.clientMetadataUrl;
  }

  /**
   * A provider with its loopback listener bound (the redirect URL must be known before the SDK starts),
   * or, with `grant`, one for a machine. Throws a TypeError for options that cannot work together.
   */
  static async create(options: OAuthProviderOptions): Promise<OAuthProvider> {
    if (options.expectedIssuer !== undefined) checkIssuerUrl(options.expectedIssuer);
    else if (options.grant)
      throw new TypeError(
        "a machine grant needs expectedIssuer: the authorization server its credentials may be sent to (the MCP server is not trusted to name it).",
      );
    else if (options.clientSecret !== undefined)
      throw new TypeError(
        "a clientSecret needs expectedIssuer: the authorization server the secret may be sent to (the MCP server is not trusted to name it).",
      );
    if (options.grant) return new OAuthProvider(options, undefined, machineFlowOf(options.grant, options.clientId, options.clientSecret));
    if (!options.authorize) throw new TypeError("OAuthProvider needs authorize() to sign a person in, or a grant for a machine.");
    return new OAuthProvider(options, await startLoopback(), undefined);
  }

  /**
   * The grant a machine signs in with ("client_credentials", the JWT bearer grant's URN, or "id-jag"),
   * or undefined when a person signs in (authorization code). What loginErrorOf takes.
   */
  get grantType(): string | undefined {
    return this.machine?.name;
  }

  /** The loopback address of a person's sign-in; undefined for a machine grant, which tells the SDK not to redirect. */
  get redirectUrl(): string | undefined {
    return this.loopback?.redirectUrl;
  }

  /** The SDK's token request for a machine grant (undefined for a person's: the SDK builds the code exchange). */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    if (!this.machine) return undefined;
    // Where the SDK is about to ask: the authorization server it discovered (saved just before), which
    // clientInformation() has already held to the pinned one; checked again, as nothing may go elsewhere.
    const discovery = (await this.load()).discovery;
    const named = discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
    const pinned = this.options.expectedIssuer!;
    if (named === undefined || !sameIssuer(named, pinned)) throw issuerNotPinned(named ?? "(none)", pinned, "expectedIssuer");
    const tokenEndpoint = discovery?.authorizationServerMetadata?.token_endpoint;
    return this.machine.prepareTokenRequest(scope, {
      issuer: pinned,
      ...(tokenEndpoint ? { tokenEndpoint } : {}),
      ...(this.resource ? { resource: this.resource } : {}),
    });
  }

  /**
   * The SDK's DPoP seam: a session (key pair and nonces) when tokens are to be DPoP-bound, else
   * undefined (bearer tokens). Asked before every token request and every request to the server; decided
   * from the saved discovery (see the `dpop` option), the key read from the store or made and saved once.
   */
  async dpop(): Promise<DpopSession | undefined> {
    if (this.dpopSession) return this.dpopSession;
    if (this.options.dpop === false) return undefined;
    const saved = await this.load();
    const alg = dpopAlgorithmFor(saved.discovery, this.options.dpop);
    if (!alg) return undefined;
    this.dpopSession ??= dpopSessionFor(alg, saved.dpop, (key) =>
      this.update((all) => {
        all.dpop = key;
      }),
    ).catch((error: unknown) => {
      this.dpopSession = undefined;
      throw error;
    });
    return this.dpopSession;
  }

  /** Told by the SDK after discovery: the resource identifier it asks tokens for (an ID-JAG is made for it). */
  saveResourceUrl(resourceUrl: string): void {
    this.resource = resourceUrl;
  }

  /** A machine grant's client authentication where it is not the SDK's own (private_key_jwt; no client at all). */
  get addClientAuthentication(): AddClientAuthentication | undefined {
    return this.machine?.addClientAuthentication;
  }

  get clientMetadata(): OAuthClientMetadata {
    if (this.machine) return machineClientMetadata(this.machine, this.options.clientName ?? "mcp-elicit");
    const loopback = this.listener();
    return {
      client_name: this.options.clientName ?? "mcp-elicit",
      redirect_uris: [loopback.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      // A native app cannot keep a secret (RFC 8252 §8.5): a public client, unless pre-registered with one.
      token_endpoint_auth_method: "none",
      ...(this.options.scope ? { scope: this.options.scope } : {}),
    };
  }

  state(): string {
    this.currentState = base64url(randomBytes(32));
    return this.currentState;
  }

  private load(): Promise<ServerCredentials> {
    return this.saved.load();
  }

  private update(change: (saved: ServerCredentials) => void): Promise<void> {
    return this.saved.update(change);
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    // The SDK asks here first once it knows the authorization server, before registering or asking for
    // a token: a server other than the pinned one ends the sign-in now, naming both.
    const pinned = this.pinnedIssuer(ctx);
    if (ctx && pinned !== undefined && !sameIssuer(ctx.issuer, pinned))
      throw issuerNotPinned(
        ctx.issuer,
        pinned,
        this.options.expectedIssuer !== undefined ? "expectedIssuer" : "the first sign-in with this client id",
      );
    // Stamped with the pinned issuer, never the one asked about, so the SDK's own guard holds too (SEP-2352).
    const stamp = pinned !== undefined ? { issuer: pinned } : {};
    // A machine grant never registers: without a client id (jwt-bearer) nothing is sent for it
    // (machine.ts puts no client authentication on the request).
    if (this.machine && !this.options.clientId) return { client_id: "", ...stamp };
    if (this.options.clientId)
      return {
        client_id: this.options.clientId,
        ...(this.options.clientSecret ? { client_secret: this.options.clientSecret } : {}),
        ...stamp,
      };
    return this.saved.client(ctx);
  }

  /** The issuer this provider's credentials are bound to: expectedIssuer, else where a hand-given client id was first used. */
  private pinnedIssuer(ctx: OAuthClientInformationContext | undefined): string | undefined {
    if (this.options.expectedIssuer !== undefined) return this.options.expectedIssuer;
    if (this.options.clientId === undefined) return undefined;
    if (ctx) this.firstIssuer ??= ctx.issuer;
    return this.firstIssuer;
  }

  async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    // A client given by hand stays in memory: its secret is not ours to write down.
    if (this.options.clientId || this.machine) return;
    await this.saved.saveClient(info, ctx);
  }

  tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    return this.saved.tokens(ctx);
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    if (await this.saved.saveTokens(tokens, ctx)) this.tokensInvalidated = false;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    // Recorded only: withSignIn() asks, opens and waits once the request that needed it has failed.
    const state = authorizationUrl.searchParams.get("state") ?? this.currentState;
    if (!state) throw new LoginError("failed", "the authorization request carries no state.");
    this.pending = { url: authorizationUrl, state, reason: await this.saved.reasonFor(authorizationUrl, this.tokensInvalidated) };
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new LoginError("failed", "no sign-in was started by this client (no PKCE verifier).");
    return this.verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.discovered = true;
    await this.update((saved) => {
      saved.discovery = state;
    });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.load()).discovery;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    this.machine?.invalidated(scope);
    if (scope === "verifier") {
      this.verifier = undefined;
      return;
    }
    if (scope === "all") {
      // The key pair goes with the sign-in: the next tokens are bound to a new one.
      this.dpopSession = undefined;
      await this.saved.delete();
      return;
    }
    if (await this.saved.forget(scope)) this.tokensInvalidated = true;
  }

  /** True while a sign-in has been asked for by the SDK and not done yet. */
  get signInPending(): boolean {
    return this.pending !== undefined;
  }

  /**
   * Runs `attempt`; when it fails because the SDK asked for a sign-in, signs in (consent, browser,
   * the redirect to the loopback address), hands the redirect to `finish` (the transport's
   * finishAuth) and runs `attempt` again. A failure that asked for no sign-in is rethrown as it is.
   */
  async withSignIn<T>(attempt: () => Promise<T>, finish: (callback: URLSearchParams) => Promise<void>, maxSignIns = 2): Promise<T> {
    let rediscover = true;
    for (let signIns = 0; ;) {
      this.pending = undefined;
      this.discovered = false;
      try {
        return await attempt();
      } catch (error) {
        if (!this.pending || signIns >= maxSignIns) throw error;
      }
      // The sign-in was built from saved discovery: the server may have moved to another authorization
      // server since (SEP-2352). Discover again once, so the sign-in goes where the server says now.
      if (!this.discovered && rediscover) {
        rediscover = false;
        await this.invalidateCredentials("discovery");
        continue;
      }
      signIns++;
      await this.signIn(finish);
    }
  }

  private async signIn(finish: (callback: URLSearchParams) => Promise<void>): Promise<void> {
    const pending = this.pending!;
    this.pending = undefined;
    const timeoutMs = this.options.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS;
    const what = `the sign-in at ${pending.url.host}`;
    // Listen before the browser can come back: an authorization server may redirect at once.
    const loopback = this.listener();
    const redirect = loopback.expect(pending.state, { timeoutMs, what, signal: this.abort.signal });
    redirect.catch(() => {}); // handled below; an early rejection must not be "unhandled"
    const reason = pending.reason;
    let stopWaiting: (() => void) | void = undefined;
    try {
      await this.options.authorize!({
        url: pending.url,
        server: this.server,
        redirectUrl: loopback.redirectUrl,
        reason,
        signal: this.abort.signal,
      });
      stopWaiting = this.options.onWaiting?.({ redirectUrl: loopback.redirectUrl, timeoutMs });
      const callback = await redirect;
      stopWaiting?.();
      await finish(callback);
    } finally {
      stopWaiting?.();
      // One use: this listener is done. The next sign-in gets a new one, on a new port, bound now
      // because the SDK reads the redirect URL before it knows whether it needs one.
      await loopback.close();
      if (!this.abort.signal.aborted) this.loopback = await startLoopback();
    }
  }

  /** Stops listening for redirects and ends any wait. */
  async close(): Promise<void> {
    this.abort.abort();
    await this.loopback?.close();
  }

  /** The loopback listener of a person's sign-in (a machine grant has none, and never gets here). */
  private listener(): Loopback {
    if (!this.loopback) throw new LoginError("failed", "a machine grant has no redirect to wait for.");
    return this.loopback;
  }
}
