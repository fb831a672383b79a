// `elicit serve NAME [--http [HOST:]PORT]`: run one of the bundled servers over stdio (default)
// or Streamable HTTP, serving every protocol revision.
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
  http?: string;
}

export interface RunningServer {
  /** The MCP endpoint, for HTTP. */
  url?: URL;
  close(): Promise<void>;
}

/** Starts server `name`; resolves once it is listening (HTTP) or attached to stdio. */
export async function startServer(name: string, options: ServeOptions = {}): Promise<RunningServer> {
  const entry = Object.hasOwn(SERVERS, name) ? SERVERS[name] : undefined;
  if (!entry) throw new UsageError(`unknown server "${name}"; known servers: ${SERVER_NAMES.join(", ")}`);
  const factory = entry.factory();
  if (options.http === undefined) {
    const handle = serveStdio((ctx) => factory({ era: ctx.era }), {
      onerror: (e) => process.stderr.write(`elicit serve ${name}: ${e.message}\n`),
    });
    return { close: () => handle.close() };
  }
  const { host, port } = parseListen(options.http);
  const handle = await serveHttp(factory, { host, port, onerror: (e) => process.stderr.write(`elicit serve ${name}: ${e.message}\n`) });
  return { url: handle.url, close: () => handle.close() };
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
  if (running.url)
    process.stderr.write(
      `elicit serve ${name}: listening on ${running.url.href} (Streamable HTTP, all protocol revisions); Ctrl-C stops it\n`,
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
