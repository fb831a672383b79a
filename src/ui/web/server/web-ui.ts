// webUI: the UI contract (forms, URL consent and waiting, sampling review, notices) answered in a
// browser tab. A local HTTP server on loopback serves a page whose address carries a random secret;
// requests are pushed to the page over SSE and answered by POST, one at a time in arrival order.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { ElicitationUI, FormAnswer, FormRequest, SamplingUI, UIContext } from "../../../client/ui.js";
import { browserOpener } from "../../../common/open-url.js";
import { MAX_MESSAGE_LENGTH, sanitizeText } from "../../../common/sanitize.js";
import { capConnections, pageServerLimits, pageServerOptions, type PageServerLimits } from "../../../common/http-limits.js";
import type { PageServer } from "../page/protocol.js";
import { readAnswerReview, readFormAnswer, readRequestReview, readUrlAnswer, readUrlWaitAnswer } from "./answers.js";
import { createApp } from "./app.js";
import { loadAssets } from "./assets.js";
import { RequestQueue, type PendingSummary } from "./requests.js";
import { newSecret } from "./secret.js";

export type { PendingSummary } from "./requests.js";

/** How long pending requests survive with no page open, once a page has connected (see WebUIOptions.disconnectGraceMs). */
export const DEFAULT_DISCONNECT_GRACE_MS = 60_000;

export interface WebUIOptions {
  /** Loopback address to listen on (default 127.0.0.1). */
  host?: "127.0.0.1" | "localhost" | "::1";
  /** Port (default 0: a free one). */
  port?: number;
  /** Open the page in the system browser when the server starts (default true), or a function that opens it. */
  open?: boolean | ((url: string) => Promise<void>);
  /**
   * Once a page has connected: if no page is connected for this long while requests are pending, they
   * are cancelled (default 60 s). Before any page has connected nothing is cancelled, since the person
   * may still be opening the browser. A reload reconnects well within it and keeps every request.
   */
  disconnectGraceMs?: number;
  /** Where webUI reports what it did on its own (a browser that would not open, requests cancelled); default stderr. */
  log?: (line: string) => void;
  /** Called whenever the queue changes, with what is pending in order (e.g. for the host's own progress line). */
  onChange?: (pending: readonly PendingSummary[]) => void;
  /** Bounds on slow requests and open connections (defaults: DEFAULT_PAGE_SERVER_LIMITS). */
  limits?: Partial<PageServerLimits>;
}

/** A form of the host's own (e.g. a tool's arguments): headed `title`, no "Form from SERVER", no Decline. */
export interface WebOwnForm {
  title: string;
  /** The submit button's label (default the element's own). */
  submitLabel?: string;
}

export type WebUI = ElicitationUI &
  SamplingUI & {
    waitForUrl: NonNullable<ElicitationUI["waitForUrl"]>;
    /** The page's address, secret included: give it only to the person who answers. (`url` is the contract's URL-consent method.) */
    readonly pageUrl: string;
    /** Asks a form of the host's own in the page (see WebOwnForm); answers accept or cancel. */
    ownForm(request: FormRequest, context: UIContext, own: WebOwnForm): Promise<FormAnswer>;
    /**
     * What the host is doing while nothing is asked, shown in the page instead of "Nothing to answer right
     * now." (e.g. "Connecting to travel…"); undefined clears it. `failed`: shown as an error, and kept in
     * the page once the session ends.
     */
    status(text: string | undefined, options?: { failed?: boolean }): void;
    /** How many requests wait for an answer. */
    readonly pending: number;
    /** Stops the server; pending requests are cancelled, open pages told the session ended. */
    close(): Promise<void>;
  };

const serverOf = (context: Pick<UIContext, "server">): PageServer => ({
  name: context.server.name,
  ...(context.server.version ? { version: context.server.version } : {}),
});

/**
 * Starts the page's server on loopback and returns the UI; see WebUIOptions for the rules.
 *
 * @example
 * ```ts region=examples/web-ui.ts#webUI
 * const person = process.stdout.isTTY === true;
 * const ui = await webUI({
 *   open: person,
 *   onChange(pending) {
 *     if (!person && pending.length > 0) void ui.close();
 *   },
 * });
 * console.error(`Answer in your browser: ${ui.pageUrl}`);
 * ```
 */
export async function webUI(options: WebUIOptions = {}): Promise<WebUI> {
  const { hostname, graceMs, log } = checkedOptions(options);
  const assets = loadAssets();
  const secret = newSecret();
  const queue = new RequestQueue({ graceMs, log, ...(options.onChange ? { onChange: options.onChange } : {}) });
  let hosts: ReadonlySet<string> = new Set();
  const { app, endStreams } = createApp({ secret, hosts: () => hosts, queue, assets });

  const server = await listen(app.fetch, hostname, options.port ?? 0, pageServerLimits(options.limits));
  const port = (server.address() as AddressInfo).port;
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  const pageUrl = `http://${hostname === "::1" ? "[::1]" : hostname}:${port}/${secret}/`;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      queue.close();
      await endStreams();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      });
    })());
  openPage(options.open ?? true, pageUrl, secret, log);

  return {
    pageUrl,
    get pending() {
      return queue.pending;
    },
    close,
    status(text, { failed = false } = {}) {
      // The host's own words, but they may quote a server (an error message): made inert like any.
      const inert = text === undefined ? "" : sanitizeText(text, { maxLength: MAX_MESSAGE_LENGTH });
      queue.setStatus(inert ? { text: inert, ...(failed ? { failed: true } : {}) } : undefined);
    },
    ...questionsInPage(queue),
  };
}

/** The options webUI checks before it starts anything: a loopback host, a grace of 0 ms or more; and the log. */
function checkedOptions(options: WebUIOptions) {
  const hostname = options.host ?? "127.0.0.1";
  if (!["127.0.0.1", "localhost", "::1"].includes(hostname))
    throw new TypeError(`webUI: host must be a loopback address (127.0.0.1, localhost or ::1); got ${JSON.stringify(hostname)}.`);
  const graceMs = options.disconnectGraceMs ?? DEFAULT_DISCONNECT_GRACE_MS;
  if (!(graceMs >= 0)) throw new TypeError(`webUI: disconnectGraceMs must be a number of milliseconds >= 0; got ${String(graceMs)}.`);
  const log = options.log ?? ((line: string) => void process.stderr.write(line + "\n"));
  return { hostname, graceMs, log };
}

/** Starts the page's server with its limits and resolves once it listens. */
async function listen(fetch: (request: Request) => Response | Promise<Response>, hostname: string, port: number, limits: PageServerLimits) {
  // serve() on Node's default (createServer) gives a node:http Server, typed as any of Node's servers.
  const server = serve({ fetch, hostname, port, serverOptions: pageServerOptions(limits) }) as import("node:http").Server;
  capConnections(server, limits);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  return server;
}

/** Opens the page in a browser, unless told not to; a failure is logged without the address. */
function openPage(opener: NonNullable<WebUIOptions["open"]>, pageUrl: string, secret: string, log: (line: string) => void) {
  if (opener === false) return;
  const go = opener === true ? browserOpener() : opener;
  go(pageUrl).catch((error: unknown) => {
    // The reason, never the address: it carries the secret, and logs are read by others.
    const reason = (error instanceof Error ? error.message : String(error)).split(secret).join("…");
    log(`Could not open a browser (${reason}); open the address yourself.`);
  });
}

/** Each question of the UI contract as a card in the page, answered through the queue. */
function questionsInPage(queue: RequestQueue): Omit<WebUI, "pageUrl" | "pending" | "close" | "status"> {
  const form = (request: FormRequest, context: UIContext, own?: WebOwnForm) =>
    queue.ask(
      {
        kind: "form",
        server: serverOf(context),
        message: request.message,
        requestedSchema: request.schema,
        ...(own ? { own: { title: own.title, ...(own.submitLabel ? { submitLabel: own.submitLabel } : {}) } } : {}),
      },
      (raw) => readFormAnswer(raw, request.schema, context.protocol, own !== undefined),
      { action: "cancel" } as FormAnswer,
      context.signal,
    );
  return {
    form: (request, context) => form(request, context),
    ownForm: (request, context, own) => form(request, context, own),
    async url(request, context) {
      // attachElicitation refuses these before any UI; one given anyway is never offered.
      if (!request.analysis.ok) return "decline";
      return queue.ask(
        { kind: "url", server: serverOf(context), message: request.message, url: request.analysis.url },
        readUrlAnswer,
        "cancel",
        context.signal,
      );
    },
    waitForUrl: (wait, context) => waitForUrlInPage(queue, wait, context),
    notice(message, context) {
      queue.notice(context.server.name, message);
    },
    reviewRequest: (request, context) =>
      queue.ask(
        { kind: "sampling-request", server: serverOf(context), request },
        (raw) => readRequestReview(raw, request.messages.length),
        { action: "deny" },
        context.signal,
      ),
    reviewAnswer: (answer, request, context) =>
      queue.ask(
        { kind: "sampling-answer", server: serverOf(context), request, ...(answer ? { answer } : {}) },
        (raw) => readAnswerReview(raw, answer !== undefined),
        { action: "reject" },
        context.signal,
      ),
  };
}

/** The waiting card of a URL flow: gone when the flow completes (a notice says so), as when the server withdraws it. */
async function waitForUrlInPage(queue: RequestQueue, ...[wait, context]: Parameters<WebUI["waitForUrl"]>) {
  const completion = new AbortController();
  let completed = false;
  wait.completed.then(
    () => ((completed = true), completion.abort()),
    () => completion.abort(),
  );
  const outcome = await queue.ask(
    { kind: "url-wait", server: serverOf(context), message: wait.message, host: wait.host },
    readUrlWaitAnswer,
    "cancel",
    AbortSignal.any([context.signal, completion.signal]),
  );
  if (completed && outcome === "cancel" && !context.signal.aborted) {
    queue.notice(context.server.name, `Finished at ${wait.host}.`);
    return "completed" as const;
  }
  return outcome;
}
