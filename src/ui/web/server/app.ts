// The HTTP side of webUI (Hono): the page and its bundles, the state stream (SSE) and the answers
// (POST), all under /SECRET/. Nothing answers without the secret, a Host that is not this server
// (DNS rebinding) or an Origin that is not the page's own (another site in the same browser).
//
// The secret is in the path rather than in a cookie or a header: EventSource cannot send headers, and
// a path secret needs no first-load exchange; every address the page uses is relative, so it carries
// the secret by itself, and Referrer-Policy: no-referrer keeps it from leaking to the sites a URL
// request opens.
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { streamSSE, type SSEStreamingApi } from "hono/streaming";
import { jsonObjectBody } from "../../../common/json-body.js";
import { PAGE_PATHS } from "../page/protocol.js";
import type { PageAssets } from "./assets.js";
import type { RequestQueue } from "./requests.js";
import { sameSecret } from "./secret.js";

/** Largest answer body accepted; a form answer is far smaller, a typed sampling answer up to ~100k characters. */
export const MAX_ANSWER_BYTES = 1024 * 1024;
/** How often an idle state stream gets a comment line, so proxies and the browser keep it open. */
const KEEPALIVE_MS = 15_000;
/** How soon the browser reconnects a dropped state stream. */
const RECONNECT_MS = 1_000;

const SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
  "Cross-Origin-Resource-Policy": "same-origin",
};

export interface AppOptions {
  secret: string;
  /** Host headers this server answers to, e.g. "127.0.0.1:53124" (known once it listens). */
  hosts: () => ReadonlySet<string>;
  queue: RequestQueue;
  assets: PageAssets;
}

export interface WebApp {
  app: Hono;
  /** Tells every open page that the session ended and ends their streams. */
  endStreams(): Promise<void>;
}

const empty = (c: Context, status: 400 | 403 | 404) => c.body(null, status);

export function createApp(options: AppOptions): WebApp {
  const { secret, queue, assets } = options;
  const base = `/${secret}/`;
  const streams = new Set<SSEStreamingApi>();
  const app = new Hono();

  app.use("*", async (c, next) => {
    const host = c.req.header("host") ?? "";
    if (!options.hosts().has(host)) return empty(c, 403);
    // Constant-time on the first path segment: the secret must not be guessable byte by byte.
    const path = new URL(c.req.url).pathname;
    const first = path.slice(1).split("/", 1)[0] ?? "";
    if (!sameSecret(first, secret)) return empty(c, 404);
    const origin = c.req.header("origin");
    if (origin !== undefined && origin !== `http://${host}`) return empty(c, 403);
    await next();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
  });

  app.get(`/${secret}`, (c) => c.redirect(base, 308));
  app.get(base, (c) => c.html(assets.html));
  app.get(base + PAGE_PATHS.styles, (c) => c.body(assets.css, 200, { "Content-Type": "text/css; charset=utf-8" }));
  app.get(base + PAGE_PATHS.icon, (c) => c.body(assets.icon, 200, { "Content-Type": "image/svg+xml" }));
  app.get(base + PAGE_PATHS.elements, (c) => c.body(assets.elements, 200, { "Content-Type": "text/javascript; charset=utf-8" }));
  app.get(base + PAGE_PATHS.script, (c) => c.body(assets.script, 200, { "Content-Type": "text/javascript; charset=utf-8" }));

  app.get(base + PAGE_PATHS.events, (c) =>
    streamSSE(c, async (stream) => {
      streams.add(stream);
      const send = (event: string, data: string) => stream.writeSSE({ event, data }).catch(() => stream.abort());
      // The first event only sets how soon the browser reconnects if the stream drops.
      const open = await stream.writeSSE({ event: "hello", data: "{}", retry: RECONNECT_MS }).then(
        () => !stream.aborted,
        () => false,
      );
      if (!open) return void streams.delete(stream);
      const unwatch = queue.watch((state) => void send("state", JSON.stringify(state)));
      const keepalive = setInterval(() => void stream.write(": keepalive\n\n").catch(() => stream.abort()), KEEPALIVE_MS);
      // Until the page goes away (or close() ends the stream); a stream already gone does not wait.
      if (!stream.aborted) await new Promise<void>((resolve) => stream.onAbort(resolve));
      clearInterval(keepalive);
      unwatch();
      streams.delete(stream);
    }),
  );

  app.post(
    base + PAGE_PATHS.answers,
    bodyLimit({
      maxSize: MAX_ANSWER_BYTES,
      // The rest of the body is never read, so the connection cannot carry another request.
      onError: (c) => c.json({ error: `The answer is larger than ${MAX_ANSWER_BYTES} bytes.` }, 413, { Connection: "close" }),
    }),
    async (c) => {
      const body = await jsonObjectBody(c, "{ id, answer }");
      if (body instanceof Response) return body;
      const { id, answer } = body;
      const outcome = queue.answer(id, answer);
      return outcome.status === 204 ? c.body(null, 204) : c.json({ error: outcome.error }, outcome.status);
    },
  );

  app.notFound((c) => empty(c, 404));
  app.onError((_error, c) => c.json({ error: "The host could not handle this request." }, 500));

  return {
    app,
    async endStreams() {
      await Promise.all(
        [...streams].map(async (stream) => {
          await stream.writeSSE({ event: "closed", data: "{}" }).catch(() => {});
          stream.abort();
        }),
      );
    },
  };
}
