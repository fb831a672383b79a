// `elicit serve NAME [--http [HOST:]PORT] [--auth]`: run one of the bundled servers over stdio
// (default) or Streamable HTTP, serving every protocol revision; with --auth, behind a local OpenID
// provider started with it.
import { hkdfSync } from "node:crypto";
import type { McpServer } from "@modelcontextprotocol/server";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { createConformanceServer } from "../servers/conformance/index.js";
import { createTravelServer } from "../servers/travel/server.js";
import { loadOpenIdProvider, startTravelUrlMode } from "../servers/travel/url-mode.js";
import { serveHttp } from "../server/http/serve.js";
import { screenedStdin } from "../server/transport/screen.js";
import { createElicitation } from "../server/kit/elicitation.js";
import { isLoopbackHost, type UrlKit } from "../server/url/url-kit.js";
import { parseKeyRing, VAULT_KEY_ENV } from "../server/url/keys.js";
import type { KeyValueStore } from "../store/types.js";
import { listenPages } from "./serve-pages.js";
import { SERVER_NAMES, type ServerName } from "./constants.js";
import { HostError } from "./exit.js";

export { SERVER_NAMES };

type Era = "legacy" | "modern";

/** What a bundled server is started with. */
export interface ServerSetup {
  /** URL mode is possible: the pages can be served on a loopback origin (or behind --auth's sign-in). */
  urlMode: false | { identity: "loopback" | { issuer: string } };
  /** --store: flows, the vault, the call ledger and bookings survive a restart. */
  store?: KeyValueStore;
  /** With --store: the requestState key ring (newest first), stable across restarts. */
  stateKey?: Uint8Array[];
  onerror: (error: Error) => void;
  /** --passport (travel): book_trip asks for the passport's photo page on the URL kit's upload page. */
  passport?: boolean;
}

export interface StartedServer {
  factory: (ctx: { era: Era }) => McpServer;
  /** URL mode's kit, whose pages the HTTP server (or, on stdio, a listener of its own) serves. */
  urlKit?: UrlKit;
  close(): Promise<void>;
}

/**
 * The servers `elicit serve` knows, by name. `start` starts what one needs (URL mode's provider, a
 * durable store) and makes a factory for a fresh McpServer per era; `factory` is the plain one, in
 * memory and without URL mode, for embedding in a test or another server.
 */
export const SERVERS: Record<
  ServerName,
  { description: string; factory: () => (ctx: { era: Era }) => McpServer; start: (setup: ServerSetup) => Promise<StartedServer> }
> = {
  conformance: {
    description: "every tool, resource and prompt the official MCP conformance suite's server scenarios call",
    factory: () => {
      const kit = createElicitation();
      return ({ era }) => createConformanceServer(kit, { era });
    },
    start: async () => ({ factory: SERVERS.conformance!.factory(), close: async () => {} }),
  },
  travel: {
    description:
      "the travel-booking demo: search_flights, find_best_flight (sampling), book_trip (elicitation), save_itinerary (roots), pay_for_booking and connect_frequent_flyer (URL mode)",
    factory: () => {
      const create = createTravelServer(createElicitation());
      return () => create();
    },
    start: async (setup) => {
      const durable = setup.store ? { store: setup.store, ...(setup.stateKey ? { stateKey: setup.stateKey } : {}) } : {};
      const bookings = setup.store ? (await import("../servers/travel/durable.js")).durableTravelStores(setup.store) : undefined;
      if (!setup.urlMode) {
        const create = createTravelServer(createElicitation(durable), bookings ? { store: bookings.bookings } : {});
        return { factory: () => create(), close: async () => {} };
      }
      const url = await startTravelUrlMode({
        identity: setup.urlMode.identity,
        ...(setup.store ? { store: setup.store } : {}),
        onerror: setup.onerror,
        ...(setup.passport ? { uploads: true } : {}),
      });
      const create = createTravelServer(createElicitation({ ...durable, urlKit: url.kit }), {
        ...(bookings ? { store: bookings.bookings } : {}),
        ...(setup.passport ? { passport: true } : {}),
        url: { kit: url.kit, skymilesIssuer: url.skymilesIssuer, ...(bookings ? { payments: bookings.payments } : {}) },
      });
      return { factory: () => create(), urlKit: url.kit, close: () => url.close() };
    },
  },
};

/** Parses `PORT`, `HOST:PORT` or `[IPv6]:PORT`; the host defaults to 127.0.0.1. */
export function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]:|([^:]+):)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || !Number.isInteger(port) || port > 65535) {
    throw new HostError(`--http expects [HOST:]PORT (e.g. 3000, 127.0.0.1:3000 or [::1]:3000), got "${value}"`);
  }
  return { host: match[1] ?? match[2] ?? "127.0.0.1", port };
}

export interface ServeOptions {
  /** `[HOST:]PORT`; `true` (the flag alone) picks a free port on 127.0.0.1. */
  http?: string | boolean;
  /** Require sign-in: start the local OpenID provider and accept only its tokens. */
  auth?: boolean;
  /** A SQLite file for what must outlive the process (URL flows, the vault, 2026-07-28 calls, bookings); needs $MCP_ELICIT_VAULT_KEY. */
  store?: string;
  /** travel: book_trip asks for the passport's photo page before an international booking (URL mode). */
  passport?: boolean;
}

/** The scope `--auth` requires of every token. */
export const SERVE_AUTH_SCOPE = "mcp:tools";

export interface RunningServer {
  /** The MCP endpoint, for HTTP. */
  url?: URL;
  /** With --auth: where to sign in, and as whom. */
  signIn?: { issuer: string; users: ReadonlyArray<{ id: string; password: string }> };
  /** On stdio: settles when the connection to the client ended (stdin closed, or stdout broke). */
  disconnected?: Promise<void>;
  close(): Promise<void>;
}

/**
 * The durable store of --store, and the requestState key ring derived from the vault key ring (both must
 * survive a restart; rotating the vault key, newest first, rotates the state key with it).
 */
async function openStore(file: string): Promise<{ store: KeyValueStore; stateKey: Uint8Array[] }> {
  const key = process.env[VAULT_KEY_ENV];
  if (!key)
    throw new HostError(
      `--store keeps credentials, encrypted with $${VAULT_KEY_ENV} (32 random bytes, e.g. node -e "console.log(crypto.randomBytes(32).toString('base64url'))"); set it, and keep it for restarts`,
    );
  const stateKey = parseKeyRing(key, VAULT_KEY_ENV).map(
    (root) => new Uint8Array(hkdfSync("sha256", root, Buffer.alloc(0), "mcp-elicit elicit-serve requestState", 32)),
  );
  const { sqliteStore } = await import("../store/sqlite.js");
  return { store: sqliteStore(file), stateKey };
}

/** Starts server `name`; resolves once it is listening (HTTP) or attached to stdio. */
export async function startServer(name: string, options: ServeOptions = {}): Promise<RunningServer> {
  const entry = Object.hasOwn(SERVERS, name) ? SERVERS[name as ServerName] : undefined;
  if (!entry) throw new HostError(`unknown server "${name}"; known servers: ${SERVER_NAMES.join(", ")}`);
  if (options.auth && (options.http === undefined || options.http === false))
    throw new HostError("--auth protects the HTTP endpoint; add --http (e.g. elicit serve travel --http 3000 --auth)");
  if (options.passport && name !== "travel") throw new HostError(`--passport is a travel server option; "${name}" has no passport step`);
  const onerror = (e: Error) => process.stderr.write(`elicit serve ${name}: ${e.message}\n`);
  const stdio = options.http === undefined || options.http === false;
  const listen = stdio ? undefined : parseListen(options.http === true ? "0" : (options.http as string));
  // Stops what was started, last first, when a later step fails or the server stops.
  const cleanups: Array<() => Promise<void>> = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  };
  try {
    const durable = options.store ? await openStore(options.store) : undefined;
    if (durable) cleanups.push(() => durable.store.close());
    let signIn: RunningServer["signIn"];
    let auth: { issuer: string; scopes: string[]; resourceName: string } | undefined;
    if (options.auth) {
      const { startOpenIdProvider } = await loadOpenIdProvider();
      const provider = await startOpenIdProvider({ defaultResourceScopes: [SERVE_AUTH_SCOPE], onerror });
      cleanups.push(() => provider.close());
      signIn = { issuer: provider.issuer, users: provider.users };
      auth = { issuer: provider.issuer, scopes: [SERVE_AUTH_SCOPE], resourceName: `elicit serve ${name}` };
    }
    // The pages take card numbers and sign-ins: plain http only on this computer (the kit refuses it elsewhere).
    const urlMode: ServerSetup["urlMode"] =
      listen && !isLoopbackHost(listen.host) ? false : { identity: auth ? { issuer: auth.issuer } : "loopback" };
    const started = await entry.start({ urlMode, onerror, ...(durable ?? {}), ...(options.passport ? { passport: true } : {}) });
    cleanups.push(() => started.close());
    if (stdio) {
      if (started.urlKit) {
        const pages = await listenPages(started.urlKit, onerror);
        cleanups.push(() => pages.close());
      }
      // Our own transport, to hear it close: besides stdin's end, the SDK closes it when a write to
      // stdout fails (the client is gone) and stops reading stdin, so stdin's end never comes then.
      const transport = new StdioServerTransport(screenedStdin(process.stdin, process.stdout, { onerror }), process.stdout);
      const handle = serveStdio((ctx) => started.factory({ era: ctx.era }), { onerror, transport });
      const disconnected = new Promise<void>((resolve) => {
        const entry = transport.onclose; // serveStdio's, set as it returned
        transport.onclose = () => {
          entry?.();
          resolve();
        };
      });
      cleanups.push(() => handle.close());
      return { disconnected, close: closeAll };
    }
    const handle = await serveHttp(started.factory, {
      host: listen!.host,
      port: listen!.port,
      onerror,
      ...(auth ? { auth } : {}),
      ...(started.urlKit ? { urlKit: started.urlKit } : {}),
    });
    cleanups.push(() => handle.close());
    return { url: handle.url, ...(signIn ? { signIn } : {}), close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** The command: runs until SIGINT/SIGTERM (or, on stdio, until the client closes stdin). Returns the exit code. */
export async function serve(name: string, options: ServeOptions = {}): Promise<number> {
  let running: RunningServer;
  try {
    running = await startServer(name, options);
  } catch (error) {
    const message = error instanceof HostError ? error.message : `cannot start: ${(error as Error).message}`;
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
        (running.signIn ? `  connect with: npx elicit connect --url ${running.url.href}\n` : ""),
    );
  else if (process.stdin.isTTY) {
    // Someone typed the command at a terminal: say what it waits for, and how to talk to it.
    process.stderr.write(
      `elicit serve ${name}: waiting for an MCP client on stdio (standard input is this terminal, not a client).\n` +
        `  Let a client start it instead:  npx elicit connect -- npx elicit serve ${name}\n` +
        `  Or serve it over HTTP:          npx elicit serve ${name} --http 3000, then npx elicit connect --url http://127.0.0.1:3000/mcp\n` +
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
    if (running.disconnected) {
      // stdio: the client going away (stdin closed, or stdout broken by a client that died before it
      // read our answer) ends the session; the pages' listeners would otherwise keep this process alive
      // with no client, and an unsettled promise is exit code 13.
      void running.disconnected.then(() => {
        if (stopping) return;
        stopping = true;
        running
          .close()
          .catch(() => {})
          .finally(() => resolve(0));
      });
    }
  });
}
