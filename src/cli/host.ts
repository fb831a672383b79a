// The host behind `elicit call`, `connect` and `demo`: one SDK Client with elicitation, sampling and
// roots attached, connected to a server by Streamable HTTP (--url) or stdio (-- command args…).
// Everything it prints goes through host-output.ts, which makes it inert.
import {
  Client,
  type ClientOptions,
  SERVER_INFO_META_KEY,
  StreamableHTTPClientTransport,
  type Implementation,
  type Tool,
  type Transport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import ora from "ora";
import { attachElicitation, type ElicitationHandle, type ElicitationMode } from "../client/attach.js";
import { followTasks, TASKS_EXTENSION, type TaskReport } from "../client/tasks/follow.js";
import type { ModelProvider } from "../client/providers/provider.js";
import { attachRoots, type RootsHandle } from "../client/roots.js";
import type { Forward } from "../client/attached.js";
import { MAX_LABEL_LENGTH, sanitizeText } from "../common/sanitize.js";
import { attachSampling } from "../client/sampling.js";
import { recoveredNotice, resendingFetch, resendNotice, type FetchLike } from "../client/resend.js";
import { screenedFetch } from "../client/screened-fetch.js";
import type { ElicitationUI, SamplingUI } from "../client/ui.js";
import { providerFromEnv } from "../client/providers/openai.js";
import { PROTOCOL_REVISIONS, type ProtocolRevision } from "../schema/types.js";
import { HostError, reportFailure } from "./exit.js";
import { captureConsole, consoleSink, hideSpinner, inertLines, printLine, showSpinner } from "./host-output.js";
import { loginErrorOf } from "../client/oauth/errors.js";
import { signerFor, type HostAuth, type Signer } from "./oauth.js";
import { DEFAULT_CONNECT_TIMEOUT_S } from "./constants.js";

export { DEFAULT_CONNECT_TIMEOUT_S, HostError };

export type ServerTarget = { url: string } | { command: string; args: string[] };
export type ProtocolChoice = ProtocolRevision | "auto";

/** Without a terminal, a connection that takes longer than this gets one line saying what we wait for. */
export const CONNECT_NOTICE_AFTER_MS = 2000;

export interface HostOptions {
  target: ServerTarget;
  ui: ElicitationUI & SamplingUI;
  modes: ElicitationMode[];
  protocol: ProtocolChoice;
  roots: string[];
  provider?: ModelProvider;
  /** Seconds to wait for the server to answer the handshake (default DEFAULT_CONNECT_TIMEOUT_S). */
  connectTimeoutS?: number;
  /** What a stdio server writes on stderr: shown as inert `[server] …` lines (default), or dropped. */
  serverStderr?: "show" | "ignore";
  /** Signing in to a Streamable HTTP server that requires authorization (none: a 401 ends the connection). */
  auth?: HostAuth;
  /** Hands the server's questions to another client first (`elicit gateway`'s host). */
  forward?: Forward;
}

export interface Host {
  client: Client;
  elicitation: ElicitationHandle;
  roots: RootsHandle;
  /** The revision the connection runs on. */
  protocol: string;
  /** Calls `listener` with each report of a task a tool call became (its status and message, as sent: untrusted). */
  onTaskReport(listener: (report: TaskReport) => void): void;
  /** The server's name and version as it gave them (untrusted: make them inert before showing them). */
  serverInfo(): Implementation | undefined;
  /** Every page of tools/list, as the SDK keeps it (tools it excludes are not there; see `excludedTools`). */
  listTools(): Promise<Tool[]>;
  /** Tools the SDK left out of tools/list (an invalid x-mcp-header declaration), with its reason. */
  excludedTools: ReadonlyMap<string, string>;
  close(): Promise<void>;
}

export const CLIENT_INFO = { name: "elicit", version: "0.1.0" };

function clientOptions(protocol: ProtocolChoice): ClientOptions {
  switch (protocol) {
    case "auto":
      return { versionNegotiation: { mode: "auto" } };
    case "2026-07-28":
      return { versionNegotiation: { mode: { pin: "2026-07-28" } } };
    case "2025-11-25":
      return { supportedProtocolVersions: ["2025-11-25"] };
    case "2025-06-18":
      return { supportedProtocolVersions: ["2025-06-18"] };
  }
}

export function parseProtocol(value: string): ProtocolChoice {
  if (value === "auto" || (PROTOCOL_REVISIONS as readonly string[]).includes(value)) return value as ProtocolChoice;
  throw new HostError(`--protocol must be auto or one of ${PROTOCOL_REVISIONS.join(", ")}; got ${JSON.stringify(value)}.`);
}

export function parseModes(value: string): ElicitationMode[] {
  const modes = value
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  const bad = modes.filter((m) => m !== "form" && m !== "url");
  if (bad.length || modes.length === 0) throw new HostError(`--modes takes form, url or form,url; got ${JSON.stringify(value)}.`);
  return [...new Set(modes)] as ElicitationMode[];
}

/** `--connect-timeout SECONDS`, else ELICIT_CONNECT_TIMEOUT, else the default: a number of seconds > 0. */
export function parseConnectTimeout(option: string | undefined, env: string | undefined = process.env.ELICIT_CONNECT_TIMEOUT): number {
  const [value, name] =
    option !== undefined
      ? [option, "--connect-timeout"]
      : env !== undefined && env.trim() !== ""
        ? [env, "ELICIT_CONNECT_TIMEOUT"]
        : [undefined, ""];
  if (value === undefined) return DEFAULT_CONNECT_TIMEOUT_S;
  const seconds = Number(value.trim());
  if (value.trim() === "" || !Number.isFinite(seconds) || seconds <= 0)
    throw new HostError(`${name} takes a number of seconds greater than 0, e.g. 30; got ${JSON.stringify(value)}.`);
  return seconds;
}

/** How a target reads in our messages: the URL, or the command line (ours, but bounded and inert all the same). */
export function describeTarget(target: ServerTarget): string {
  const text = "url" in target ? target.url : [target.command, ...target.args].join(" ");
  return sanitizeText(text, { maxLength: 120, multiline: false });
}

// ---------------------------------------------------------------------------------------------
// Connecting.

/** The --url, checked. */
function targetUrl(target: { url: string }): URL {
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    throw new HostError(`--url is not a URL: ${JSON.stringify(target.url)}.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new HostError(`--url must be http: or https:, got ${url.protocol}`);
  return url;
}

function transportFor(target: ServerTarget, stderr: HostOptions["serverStderr"], signer: Signer | undefined, fetch: FetchLike): Transport {
  if ("url" in target) {
    const url = targetUrl(target);
    // What the SDK's transport would drop is screened first (src/common/screen.ts): a malformed
    // request is refused -32600 through the transport's own send, a malformed reply ends its call.
    const screened = screenedFetch({
      fetch,
      refuse: (reply) => void transport.send(reply).catch(() => {}),
      onerror: (error) => transport.onerror?.(error),
    });
    const transport: StreamableHTTPClientTransport =
      signer && "token" in signer
        ? new StreamableHTTPClientTransport(url, { authProvider: { token: async () => signer.token }, fetch: screened })
        : new StreamableHTTPClientTransport(url, signer ? { authProvider: signer.provider, fetch: screened } : { fetch: screened });
    return transport;
  }
  const transport = new StdioClientTransport({
    command: target.command,
    args: target.args,
    stderr: stderr === "ignore" ? "ignore" : "pipe",
  });
  if (stderr !== "ignore") {
    // The server's stderr, as inert `[server] …` lines; available before start (a PassThrough).
    const lines = inertLines(printLine, "[server] ");
    transport.stderr?.on("data", (chunk: Buffer) => lines.write(chunk));
    transport.stderr?.on("end", () => lines.end());
  }
  return transport;
}

/** What the handshake of `protocol` is called, for the message when it does not come. */
const handshake = (protocol: ProtocolChoice) =>
  protocol === "auto" ? "server/discover or initialize" : protocol === "2026-07-28" ? "server/discover" : "initialize";

/**
 * Connects `client` over `transport`, showing that it waits (a spinner on a terminal, one line after
 * CONNECT_NOTICE_AFTER_MS otherwise) and giving up after `timeoutS` seconds with a message that says
 * what did not answer.
 */
async function connectWithin(client: Client, transport: Transport, options: HostOptions, timeoutS: number): Promise<void> {
  const what = describeTarget(options.target);
  const timeoutMs = Math.round(timeoutS * 1000);
  let timedOut = false;
  const interactive = process.stderr.isTTY === true;
  if (interactive) showSpinner(ora({ text: `Connecting to ${what}…`, stream: process.stderr, discardStdin: false }));
  const notice = interactive
    ? undefined
    : setTimeout(
        () => printLine(`elicit: connecting to ${what}… (gives up after ${timeoutS} s; see --connect-timeout)`),
        Math.min(CONNECT_NOTICE_AFTER_MS, timeoutMs / 2),
      );
  const timer = setTimeout(() => {
    timedOut = true;
    // Closing the transport ends the handshake (and, on stdio, the server process and the SDK's probe sibling).
    transport.close().catch(() => {});
  }, timeoutMs);
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (error) {
    await client.close().catch(() => {});
    if (error instanceof HostError) throw error;
    if (options.auth?.token !== undefined && error instanceof UnauthorizedError)
      throw new HostError(`the server refused the token given with --token or ELICIT_TOKEN (HTTP 401): ${what} was not called.`);
    const login = loginErrorOf(error, options.auth?.machine?.grant.type);
    if (login) throw new HostError(`could not sign in to ${what}: ${login.message}`);
    if (timedOut || isTimeout(error)) {
      const started = "url" in options.target ? what : `${what} started but`;
      throw new HostError(
        `${started} did not answer ${handshake(options.protocol)} within ${timeoutS} s (wait longer with --connect-timeout SECONDS).`,
      );
    }
    throw new HostError(`Could not connect to ${what}: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
    clearTimeout(notice);
    hideSpinner();
  }
}

const isTimeout = (error: unknown) => /timed out|timeout/i.test((error as Error)?.message ?? "");

const isImplementation = (value: unknown): value is Implementation =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Implementation).name === "string" &&
  typeof (value as Implementation).version === "string";

/**
 * The server's name and version. The SDK has them from `initialize` (2025 eras) or from the
 * `server/discover` result's `_meta["io.modelcontextprotocol/serverInfo"]` (2026-07-28, where it is
 * only a SHOULD); servers written to earlier 2026 drafts put `serverInfo` on the discover result
 * itself, and any later result may carry the `_meta` key (we look at tools/list's).
 */
export function serverInfoOf(client: Client, seen?: Implementation): Implementation | undefined {
  const known = client.getServerVersion();
  if (known) return known;
  const discover = client.getDiscoverResult() as (Record<string, unknown> & { _meta?: Record<string, unknown> }) | undefined;
  for (const candidate of [discover?._meta?.[SERVER_INFO_META_KEY], discover?.serverInfo, seen]) {
    if (isImplementation(candidate)) return candidate;
  }
  return undefined;
}

export async function openHost(options: HostOptions): Promise<Host> {
  // elicit takes tasks: a call the server turns into one is followed to its end (followTasks, below).
  const client = new Client(CLIENT_INFO, {
    capabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    ...clientOptions(options.protocol),
  });
  const forward = options.forward ? { forward: options.forward } : {};
  const elicitation = attachElicitation(client, { ui: options.ui, modes: options.modes, ...forward });
  attachSampling(client, { ui: options.ui, ...(options.provider ? { provider: options.provider } : {}), ...forward });
  let roots: RootsHandle;
  try {
    roots = attachRoots(client, options.roots, forward);
  } catch (error) {
    throw new HostError((error as Error).message);
  }
  const excluded = new Map<string, string>();
  const restoreConsole = captureConsole(consoleSink(excluded));
  let signer: Signer;
  try {
    signer = await signerFor(options.auth, "url" in options.target ? targetUrl(options.target) : undefined, options.ui);
    let transport: Transport | undefined;
    let seen: Implementation | undefined;
    const timeoutS = options.connectTimeoutS ?? DEFAULT_CONNECT_TIMEOUT_S;
    // 2026-07-28 rounds are sent again when the server goes away under them; the person is told.
    const server = () => ({ name: serverLabel(serverInfoOf(client, seen), describeTarget(options.target)), version: "" });
    const fetch = resendingFetch({
      onResend: (event) => {
        const notice = resendNotice(event);
        if (notice) options.ui.notice(notice, { server: server() });
      },
      onRecovered: (event) => options.ui.notice(recoveredNotice(event), { server: server() }),
    });
    const connect = () =>
      connectWithin(client, (transport = transportFor(options.target, options.serverStderr, signer, fetch)), options, timeoutS);
    // A sign-in runs outside the connect timeout: the person may take their time in the browser.
    const signedIn = <T>(attempt: () => Promise<T>): Promise<T> =>
      signer && "provider" in signer
        ? signer.provider
            .withSignIn(attempt, (callback) => (transport as StreamableHTTPClientTransport).finishAuth(callback))
            .catch((error: unknown) => {
              const login = loginErrorOf(error, options.auth?.machine?.grant.type);
              throw login ? new HostError(`could not sign in to ${describeTarget(options.target)}: ${login.message}`) : error;
            })
        : attempt();
    await signedIn(connect);
    const taskListeners = new Set<(report: TaskReport) => void>();
    followTasks(client, { onReport: (report) => taskListeners.forEach((listener) => listener(report)) });
    const protocol = client.getNegotiatedProtocolVersion() ?? "unknown";
    if (options.protocol !== "auto" && protocol !== options.protocol) {
      await client.close().catch(() => {});
      throw new HostError(`The server runs ${protocol}, not the pinned ${options.protocol}.`);
    }
    // Later requests may need a sign-in too: more scopes (403 insufficient_scope), or a saved sign-in
    // that could not be renewed. The request is made again once signed in.
    const callTool = elicitation.callTool.bind(elicitation);
    const signedInElicitation: ElicitationHandle = Object.assign(Object.create(elicitation) as ElicitationHandle, {
      callTool: ((...args: Parameters<typeof callTool>) => signedIn(() => callTool(...args))) as typeof callTool,
    });
    return {
      client,
      elicitation: signedInElicitation,
      roots,
      protocol,
      excludedTools: excluded,
      onTaskReport: (listener) => void taskListeners.add(listener),
      serverInfo: () => serverInfoOf(client, seen),
      async listTools() {
        // No cursor: the SDK walks every page and caches the list, which callTool reads for the
        // x-mcp-header declarations it mirrors into Mcp-Param-* headers.
        const result = await signedIn(() => client.listTools());
        const meta = result._meta?.[SERVER_INFO_META_KEY];
        if (isImplementation(meta)) seen = meta;
        return result.tools;
      },
      close: async () => {
        try {
          await client.close();
        } finally {
          if (signer && "provider" in signer) await signer.provider.close();
          restoreConsole();
        }
      },
    };
  } catch (error) {
    if (signer && "provider" in signer) await signer.provider.close();
    restoreConsole();
    throw error;
  }
}

/** What a command gives to open its host: the options as typed, checked here. */
export interface HostRequest {
  target: ServerTarget;
  ui: ElicitationUI & SamplingUI;
  modes: string;
  protocol: string;
  roots: string[];
  /** --connect-timeout as typed (seconds); ELICIT_CONNECT_TIMEOUT or the default when absent. */
  connectTimeout?: string;
  /** Signing in to an HTTP server that requires it (see hostAuthOf). */
  auth?: HostAuth;
}

/**
 * Opens a host (with the model from the environment, if any), runs `body`, closes the host; any
 * failure, including in `prepare`, is printed and becomes the exit code.
 */
export async function withHost(
  prepare: () => Promise<HostRequest>,
  body: (host: Host, provider: ModelProvider | undefined) => Promise<number>,
  /** Told why the command failed, before it is printed (the web page shows it too). */
  onFailure?: (error: unknown) => void,
): Promise<number> {
  let host: Host | undefined;
  try {
    const request = await prepare();
    const modes = parseModes(request.modes);
    const protocol = parseProtocol(request.protocol);
    const connectTimeoutS = parseConnectTimeout(request.connectTimeout);
    const provider = providerFromEnv();
    host = await openHost({
      target: request.target,
      ui: request.ui,
      modes,
      protocol,
      roots: request.roots,
      connectTimeoutS,
      ...(provider ? { provider } : {}),
      ...(request.auth ? { auth: request.auth } : {}),
    });
    return await body(host, provider);
  } catch (error) {
    onFailure?.(error);
    return reportFailure(error);
  } finally {
    await host?.close().catch(() => {});
  }
}

/** A server name and version as one inert line, e.g. for "Connected to …". */
export function serverLabel(info: Implementation | undefined, fallback: string): string {
  if (!info) return fallback;
  const line = (text: unknown) => sanitizeText(text, { maxLength: MAX_LABEL_LENGTH, multiline: false });
  return `${line(info.name) || fallback} ${line(info.version)}`.trim();
}

/** What `elicit connect` says once connected: the server and revision, and where sampling requests go. */
export async function announceConnection(host: Host, provider: ModelProvider | undefined, print: (line: string) => void): Promise<void> {
  // The tools first: on 2026-07-28 a server may give its name only in a result's _meta.
  await host.listTools();
  print(`Connected to ${serverLabel(host.serverInfo(), "a server that gave no name")} (protocol ${host.protocol}).`);
  print(
    provider
      ? `Sampling requests go to ${provider.models[0]} after your review.`
      : "No model is configured: you will type the answers to sampling requests yourself (see elicit connect --help).",
  );
}
