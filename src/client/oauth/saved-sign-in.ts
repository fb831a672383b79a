// One server's sign-in as the token store keeps it (ServerCredentials, token-store.ts): the clients
// registered per issuer, their tokens, the last issuer, the discovery and the DPoP key. OAuthProvider
// reads and writes it through here, so the rules of what is kept live in one place: a token that is
// about to expire is not handed out, a refresh without a refresh token keeps the one held, and a step-up
// is told from a sign-in that ran out by the scopes the new request asks for.
import type { OAuthClientInformationContext, StoredOAuthClientInformation, StoredOAuthTokens } from "@modelcontextprotocol/client";
import type { SavedTokens, ServerCredentials, TokenStore } from "./token-store.js";

/** An access token this close to its expiry is not sent: the server would refuse it on the way. */
const EXPIRY_MARGIN_MS = 10_000;

/** How long before its expiry a token stops being sent: EXPIRY_MARGIN_MS, or a quarter of a shorter life. */
const marginFor = (tokens: SavedTokens) =>
  typeof tokens.expires_in === "number" ? Math.min(EXPIRY_MARGIN_MS, (tokens.expires_in * 1000) / 4) : EXPIRY_MARGIN_MS;

export class SavedSignIn {
  constructor(
    private readonly store: TokenStore,
    readonly server: string,
  ) {}

  async load(): Promise<ServerCredentials> {
    return (await this.store.get(this.server)) ?? { issuers: {} };
  }

  async update(change: (saved: ServerCredentials) => void): Promise<void> {
    const saved = await this.load();
    change(saved);
    await this.store.set(this.server, saved);
  }

  /** Forgets the whole sign-in (clients, tokens, discovery, DPoP key). */
  async delete(): Promise<void> {
    await this.store.delete(this.server);
  }

  /** The client registered at the issuer asked about, else at the last one used. */
  async client(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const saved = await this.load();
    const issuer = ctx?.issuer ?? saved.lastIssuer;
    return issuer ? saved.issuers[issuer]?.client : undefined;
  }

  async saveClient(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? info.issuer;
    if (!issuer) return;
    await this.update((saved) => {
      saved.issuers[issuer] = { ...saved.issuers[issuer], client: info };
    });
  }

  /** The tokens for the issuer asked about (else the last one); without ctx (a request's read), none that is about to expire. */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const saved = await this.load();
    const issuer = ctx?.issuer ?? saved.lastIssuer;
    const tokens = issuer ? saved.issuers[issuer]?.tokens : undefined;
    if (!tokens) return undefined;
    // The per-request read (no ctx) gets nothing for an expired token: the server's 401 then has the
    // SDK refresh it, instead of sending a token we know is dead.
    if (!ctx && tokens.expires_at !== undefined && Date.now() >= tokens.expires_at - marginFor(tokens)) return undefined;
    const { expires_at: _expiresAt, ...sdkTokens } = tokens;
    return sdkTokens;
  }

  /** Saves tokens with their expiry time; false when no issuer names them (then nothing is saved). */
  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<boolean> {
    const issuer = ctx?.issuer ?? tokens.issuer;
    if (!issuer) return false;
    const saved: SavedTokens = {
      ...tokens,
      ...(typeof tokens.expires_in === "number" ? { expires_at: Date.now() + tokens.expires_in * 1000 } : {}),
    };
    await this.update((all) => {
      // A refresh response may leave out the refresh token: the one we had stays valid (RFC 6749 §6).
      const previous = all.issuers[issuer]?.tokens;
      if (!saved.refresh_token && previous?.refresh_token) saved.refresh_token = previous.refresh_token;
      all.issuers[issuer] = { ...all.issuers[issuer], tokens: saved };
      all.lastIssuer = issuer;
    });
    return true;
  }

  /** Forgets the discovery, the registered clients or the tokens; true when tokens were there and are gone. */
  async forget(scope: "client" | "tokens" | "discovery"): Promise<boolean> {
    let droppedTokens = false;
    await this.update((saved) => {
      if (scope === "discovery") delete saved.discovery;
      for (const credentials of Object.values(saved.issuers)) {
        if (scope === "client") delete credentials.client;
        if (scope === "tokens" && credentials.tokens) {
          delete credentials.tokens;
          droppedTokens = true;
        }
      }
    });
    return droppedTokens;
  }

  /**
   * Why the SDK asks for a sign-in: tokens still held while it asks for scopes they lack is a step-up
   * (403 insufficient_scope); tokens held or just given up (`tokensInvalidated`) otherwise mean the saved sign-in ran out.
   */
  async reasonFor(url: URL, tokensInvalidated: boolean): Promise<"new" | "expired" | "step-up"> {
    const saved = await this.load();
    const tokens = saved.lastIssuer ? saved.issuers[saved.lastIssuer]?.tokens : undefined;
    if (!tokens) return tokensInvalidated ? "expired" : "new";
    // Scopes every sign-in adds, granted or not, say nothing about what the server asked for.
    const implicit = new Set(["offline_access", "openid"]);
    const granted = new Set((tokens.scope ?? "").split(" "));
    const asked = (url.searchParams.get("scope") ?? "").split(" ").filter((s) => s && !implicit.has(s));
    return asked.some((s) => !granted.has(s)) ? "step-up" : "expired";
  }
}
