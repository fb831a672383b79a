// `elicit serve NAME [--http [HOST:]PORT] [--auth]`: run one of the bundled servers over stdio
// (default) or Streamable HTTP, serving every protocol revision; with --auth, behind a local OpenID
// provider started with it.
import type { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createConformanceServer } from "../examples/conformance.js";
import { createTravelServer } from "../examples/travel/server.js";
import { serveHttp } from "../server/http.js";
import { createElicitation } from "../server/kit.js";

type Era = "legacy" | "modern";

/** The servers `elicit serve` knows, by name: each makes a factory for a fresh McpServer per era. */
export const SERVERS: Record<string, { description: string; factory: () => (ctx: { era: Era }) => McpServer }> = {
  conformance: {
    description: "every tool, resource and prompt the official MCP conformance suite's server scenarios call",
    factory: () => {
      const kit = createElicitation();
      return ({ era }) => createConformanceServer(kit, { era });
    },
  },
  travel: {
    description: "the travel-booking demo: search_flights, find_best_flight (sampling), book_trip (elicitation), save_itinerary (roots)",
    factory: () => {
      const create = createTravelServer(createElicitation());
      return () => create();
    },
  },
};

export const SERVER_NAMES = Object.keys(SERVERS);

export class UsageError extends Error {}

/** Parses `PORT`, `HOST:PORT` or `[IPv6]:PORT`; the host defaults to 127.0.0.1. */
export function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]:|([^:]+):)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || !Number.isInteger(port) || port > 65535) {
    throw new UsageError(`--http expects [HOST:]PORT (e.g. 3000, 127.0.0.1:3000 or [::1]:3000), got "${value}"`);
  }
  return { host: match[1] ?? match[2] ?? "127.0.0.1", port };
}

export interface ServeOptions {
  /** `[HOST:]PORT`; `true` (the flag alone) picks a free port on 127.0.0.1. */
  http?: string | boolean;
  /** Require sign-in: start the local OpenID provider and accept only its tokens. */
  auth?: boolean;
}

/** The scope `--auth` requires of every token. */
export const SERVE_AUTH_SCOPE = "mcp:tools";

export interface RunningServer {
  /** The MCP endpoint, for HTTP. */
  url?: URL;
  /** With --auth: where to sign in, and as whom. */
  signIn?: { issuer: string; users: ReadonlyArray<{ id: string; password: string }> };
  close(): Promise<void>;
}

/** Starts server `name`; resolves once it is listening (HTTP) or attached to stdio. */
export async function startServer(name: string, options: ServeOptions = {}): Promise<RunningServer> {
  const entry = Object.hasOwn(SERVERS, name) ? SERVERS[name] : undefined;
  if (!entry) throw new UsageError(`unknown server "${name}"; known servers: ${SERVER_NAMES.join(", ")}`);
  const factory = entry.factory();
  if (options.auth && (options.http === undefined || options.http === false))
    throw new UsageError("--auth protects the HTTP endpoint; add --http (e.g. elicit serve travel --http 3000 --auth)");
  if (options.http === undefined || options.http === false) {
    const handle = serveStdio((ctx) => factory({ era: ctx.era }), {
      onerror: (e) => process.stderr.write(`elicit serve ${name}: ${e.message}\n`),
    });
    return { close: () => handle.close() };
  }
  const { host, port } = parseListen(options.http === true ? "0" : options.http);
  const onerror = (e: Error) => process.stderr.write(`elicit serve ${name}: ${e.message}\n`);
  if (!options.auth) {
    const handle = await serveHttp(factory, { host, port, onerror });
    return { url: handle.url, close: () => handle.close() };
  }
  // Loaded only here: the provider (oidc-provider, koa) is a large import nobody else needs.
  const { startOpenIdProvider } = await import("../examples/auth/openid-provider.js");
  const provider = await startOpenIdProvider({ defaultResourceScopes: [SERVE_AUTH_SCOPE], onerror });
  try {
    const auth = { issuer: provider.issuer, scopes: [SERVE_AUTH_SCOPE], resourceName: `elicit serve ${name}` };
    const handle = await serveHttp(factory, { host, port, onerror, auth });
    return {
      url: handle.url,
      signIn: { issuer: provider.issuer, users: provider.users },
      close: async () => {
        await handle.close();
        await provider.close();
      },
    };
  } catch (error) {
    await provider.close();
    throw error;
  }
}

/** The command: runs until SIGINT/SIGTERM (or, on stdio, until the client closes stdin). Returns the exit code. */
export async function serve(name: string, options: ServeOptions = {}): Promise<number> {
  let running: RunningServer;
  try {
    running = await startServer(name, options);
  } catch (error) {
    const message = error instanceof UsageError ? error.message : `cannot start: ${(error as Error).message}`;
    process.stderr.write(`elicit serve: ${message}\n`);
    return 2;
  }
  if (running.signIn) {
    const [first, ...others] = running.signIn.users;
    const also = others.length ? ` (also ${others.map((u) => `${u.id} / ${u.password}`).join(", ")})` : "";
    process.stderr.write(
      `elicit serve ${name}: sign-in required. Local OpenID provider (demo accounts, nothing kept after exit) at ${running.signIn.issuer}\n` +
        `  sign in as ${first ? `${first.id} / ${first.password}` : "one of its users"}${also}\n`,
    );
  }
  if (running.url)
    process.stderr.write(
      `elicit serve ${name}: listening on ${running.url.href} (Streamable HTTP, all protocol revisions${running.signIn ? `, OAuth scope ${SERVE_AUTH_SCOPE}` : ""}); Ctrl-C stops it\n` +
        (running.signIn ? `  connect with: elicit connect --url ${running.url.href}\n` : ""),
    );
  else if (process.stdin.isTTY) {
    // Someone typed the command at a terminal: say what it waits for, and how to talk to it.
    process.stderr.write(
      `elicit serve ${name}: waiting for an MCP client on stdio (standard input is this terminal, not a client).\n` +
        `  Let a client start it instead:  elicit connect -- elicit serve ${name}\n` +
        `  Or serve it over HTTP:          elicit serve ${name} --http 3000, then elicit connect --url http://127.0.0.1:3000/mcp\n` +
        `  Ctrl-C stops it.\n`,
    );
  }
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`elicit serve ${name}: ${signal}, stopping\n`);
      const timer = setTimeout(() => resolve(0), 5000);
      timer.unref();
      running
        .close()
        .catch(() => {})
        .finally(() => {
          clearTimeout(timer);
          resolve(0);
        });
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    if (!running.url) {
      // stdio: the client closing our stdin ends the session (and would otherwise leave this promise
      // unsettled, which Node reports as exit code 13).
      const ended = () => {
        if (stopping) return;
        stopping = true;
        running
          .close()
          .catch(() => {})
          .finally(() => resolve(0));
      };
      process.stdin.once("end", ended);
      process.stdin.once("close", ended);
    }
  });
}
