// Where a host keeps what it learned signing in to an MCP server: the client registration and the
// tokens, per authorization server (a client id belongs to the server that issued it), and the
// discovery results. Hosts plug in their own store (a keychain, a database); fileTokenStore keeps
// them in the user's config folder, memoryTokenStore in the process.
import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from "@modelcontextprotocol/client";
import type { SavedDpopKey } from "./dpop.js";

/** Tokens as stored: the SDK's, plus when the access token expires (epoch ms), computed from expires_in at save time. */
export type SavedTokens = StoredOAuthTokens & { expires_at?: number };

/** What one authorization server gave us for one MCP server. */
export interface IssuerCredentials {
  client?: StoredOAuthClientInformation;
  tokens?: SavedTokens;
}

/** Everything kept for one MCP server (its URL is the key). */
export interface ServerCredentials {
  /** Keyed by the authorization server's `issuer`. */
  issuers: Record<string, IssuerCredentials>;
  /** The issuer whose tokens were saved last: the ones sent to the server. */
  lastIssuer?: string;
  /** Protected-resource and authorization-server metadata, so the next run skips discovery. */
  discovery?: OAuthDiscoveryState;
  /** The key pair DPoP-bound tokens are bound to (RFC 9449), the private key as a JWK: as secret as the tokens. */
  dpop?: SavedDpopKey;
}

/**
 * A pluggable store. Keys are MCP server URLs as given to the host. Values hold secrets (tokens,
 * client secrets, DPoP private keys): a store must keep them from other users and never log them.
 */
export interface TokenStore {
  get(server: string): Promise<ServerCredentials | undefined>;
  set(server: string, credentials: ServerCredentials): Promise<void>;
  /** Forgets one server; true if there was something to forget. */
  delete(server: string): Promise<boolean>;
  /** The servers with something stored. */
  servers(): Promise<string[]>;
}

/** A store that lives as long as the process (tests, hosts that never persist). */
export function memoryTokenStore(): TokenStore {
  const saved = new Map<string, string>();
  return {
    async get(server) {
      const text = saved.get(server);
      return text === undefined ? undefined : (JSON.parse(text) as ServerCredentials);
    },
    async set(server, credentials) {
      // Kept as text, so callers never share objects with the store.
      saved.set(server, JSON.stringify(credentials));
    },
    async delete(server) {
      return saved.delete(server);
    },
    async servers() {
      return [...saved.keys()];
    },
  };
}
