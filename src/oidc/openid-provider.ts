// The local OpenID provider mcp-elicit/oidc ships, which the demo and the tests start too: oidc-provider (a
// certified OpenID Connect and OAuth 2.0 server) on 127.0.0.1, with demo accounts, our own sign-in and
// consent pages, dynamic client registration (public clients included), PKCE S256 always, loopback
// redirects on any port for native clients (RFC 8252), JWT access tokens for MCP resources (resource
// indicators, RFC 8707), rotating refresh tokens and revocation. Keys live in memory and are new on every start.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { OpenIdProvider, OpenIdProviderOptions } from "./options.js";
import type { RequestHandler } from "./provider-app.js";
import { DEFAULT_USERS } from "./users.js";

export { DEFAULT_USERS, type DemoUser } from "./users.js";
export { DEFAULT_RESOURCE_SCOPES, type OpenIdProvider, type OpenIdProviderOptions } from "./options.js";

/**
 * oidc-provider's module (koa and the rest: about half a second of CPU). It prints a notice on every Node
 * before 22 when it loads, which in the demo's output would only mislead: kept out of the console.
 */
export async function loadProviderApp(): Promise<typeof import("./provider-app.js")> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].startsWith("oidc-provider WARNING: Unsupported runtime")) return;
    warn(...args);
  };
  try {
    return await import("./provider-app.js");
  } finally {
    console.warn = warn;
  }
}

/**
 * Starts the provider on 127.0.0.1; resolves once it listens.
 *
 * @example
 * ```ts region=examples/protected-server.ts#startOpenIdProvider
 * // A local OpenID provider stands in for yours; it knows one machine client (no person signs in).
 * const provider = await startOpenIdProvider({ clients: [{ clientId: "nightly-report", clientSecret: "example-only-secret" }] });
 * ```
 */
export async function startOpenIdProvider(options: OpenIdProviderOptions = {}): Promise<OpenIdProvider> {
  const users = options.users ?? DEFAULT_USERS;
  const hint =
    options.signInHint ?? (options.users ? undefined : `Demo accounts: ${users.map((u) => `${u.id} / ${u.password}`).join(", ")}.`);
  const onerror = options.onerror ?? (() => {});

  // The issuer holds the port, so listen first and attach the provider once the port is known.
  let handle: RequestHandler = (_req, res) => {
    res.writeHead(503).end();
  };
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const build = async () => (await loadProviderApp()).providerHandler(issuer, options, users, hint, onerror);
  try {
    if (options.lazy) {
      let built: Promise<RequestHandler> | undefined;
      handle = (req, res) => {
        built ??= build();
        built.then(
          (handler) => handler(req, res),
          (error: Error) => {
            onerror(error);
            if (!res.headersSent) res.writeHead(500).end();
          },
        );
      };
    } else handle = await build();
    return {
      issuer,
      users,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  } catch (error) {
    server.close();
    throw error;
  }
}
