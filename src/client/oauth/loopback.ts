// The loopback redirect of a native OAuth client (RFC 8252 §7.3): a one-use HTTP listener on
// 127.0.0.1, on a port the OS picks, at the exact path /callback. It takes one redirect whose
// `state` matches, answers the browser with a short page, and closes; anything else on the port is
// 404. Any web page the person has open can send requests here, so a redirect whose `state` is
// wrong or missing, or that carries neither a code nor an error, is answered 400 and ignored: it
// cannot end (or take over) the sign-in. A matching redirect with an `error` ends the wait with a
// LoginError, as do the timeout and an abort: nothing waits forever.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { LoginError, oauthCode } from "./errors.js";

export interface Loopback {
  /** http://127.0.0.1:PORT/callback */
  readonly redirectUrl: string;
  /**
   * Waits for the redirect carrying `state`; resolves with its query (code, iss, state). `what`
   * names the sign-in for messages ("the sign-in at auth.example.com").
   */
  expect(state: string, options: { timeoutMs: number; what: string; signal?: AbortSignal }): Promise<URLSearchParams>;
  /** Stops listening (idempotent). */
  close(): Promise<void>;
  readonly closed: boolean;
}

/** An OAuth error code as the RFC spells them (letters and underscores), or a placeholder: it is printed. */
const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);

// The page the browser shows. Plain text in markup, nothing from the request echoed back, no script.
const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

function answer(res: ServerResponse, status: number, title: string, text: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    // The address holds the authorization code: no page loaded from here may send it on.
    "referrer-policy": "no-referrer",
    "content-security-policy": "default-src 'none'",
    connection: "close",
  });
  res.end(page(title, text));
}

export async function startLoopback(): Promise<Loopback> {
  const listener = new LoopbackListener();
  await listener.listen();
  return listener;
}

type Waiting = { state: string; resolve(params: URLSearchParams): void; reject(error: Error): void };

/** The listener behind a Loopback: at most one sign-in waits at a time (a newer one replaces it). */
class LoopbackListener implements Loopback {
  private waiting: Waiting | undefined;
  private isClosed = false;
  private url = "";
  private readonly server: Server = createServer((req, res) => this.onRequest(req, res));

  get redirectUrl(): string {
    return this.url;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** Listens on 127.0.0.1, on a port the OS picks. */
  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(0, "127.0.0.1", () => {
        this.server.off("error", reject);
        resolve();
      });
    });
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/callback`;
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.waiting?.reject(new LoginError("cancelled", "the sign-in was abandoned: the client stopped listening for the redirect."));
    this.waiting = undefined;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  expect(state: string, { timeoutMs, what, signal }: { timeoutMs: number; what: string; signal?: AbortSignal }): Promise<URLSearchParams> {
    if (this.isClosed) return Promise.reject(new LoginError("cancelled", "the sign-in listener is closed."));
    if (this.waiting) this.waiting.reject(new LoginError("cancelled", "a newer sign-in replaced this one."));
    return new Promise<URLSearchParams>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new LoginError("timeout", `${what} did not finish within ${duration(timeoutMs)} (the browser never reached ${this.url}).`));
      }, timeoutMs);
      const onAbort = () => {
        this.waiting = undefined;
        reject(new LoginError("cancelled", `stopped waiting for ${what}.`));
      };
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      this.waiting = {
        state,
        resolve: (params) => (done(), resolve(params)),
        reject: (error) => (done(), reject(error)),
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Every request on the port: only a redirect to /callback with the waiting sign-in's state can end it. */
  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== "/callback") return answer(res, 404, "Not found", "Nothing here.");
    if (!this.waiting) return answer(res, 410, "Sign-in not expected", "Nothing is waiting for a sign-in here. You can close this tab.");
    const params = url.searchParams;
    const current = this.waiting;
    if (params.get("state") !== current.state) {
      // Not the sign-in we started (a forged or stale redirect, maybe from another page): refused,
      // and the wait goes on, or any page could abort a sign-in by guessing the port.
      return answer(res, 400, "Sign-in refused", "This sign-in was not started here (the state does not match). You can close this tab.");
    }
    const error = params.get("error");
    if (error !== null) {
      answer(res, 400, "Sign-in failed", "The authorization server did not sign you in. You can close this tab and look at the terminal.");
      this.waiting = undefined;
      current.reject(
        new LoginError("error-redirect", `the authorization server refused the sign-in (${oauthCode(error)}).`, oauthCode(error)),
      );
      return;
    }
    if (!params.get("code")) {
      // Neither a code nor an error: not a redirect an authorization server sends; the wait goes on.
      return answer(res, 400, "Sign-in refused", "The redirect carried no authorization code. You can close this tab.");
    }
    answer(res, 200, "Signed in", "You are signed in. You can close this tab and go back to the terminal.");
    this.waiting = undefined;
    current.resolve(params);
  }
}
