// Raw JSON-RPC over real transports, for tests that send what no SDK peer would: a line peer on a
// child's stdio and a raw Streamable HTTP session. Also the malformed shapes the SDK's transports drop.
import type { ChildProcess } from "node:child_process";
import { within } from "./deferred.js";

type Message = Record<string, any>;

/** Requests the SDK would drop: each has an id and a method, so it can be answered -32600. */
export const MALFORMED_REQUESTS: [string, (id: number | string, method: string) => string][] = [
  ["params null", (id, method) => JSON.stringify({ jsonrpc: "2.0", id, method, params: null })],
  ["params []", (id, method) => JSON.stringify({ jsonrpc: "2.0", id, method, params: [] })],
  ["params a string", (id, method) => JSON.stringify({ jsonrpc: "2.0", id, method, params: "a string" })],
  ["_meta not an object", (id, method) => JSON.stringify({ jsonrpc: "2.0", id, method, params: { _meta: 5 } })],
];

/** Replies the SDK would drop, written as raw text (the deep one is deeper than JSON.stringify goes). */
export const MALFORMED_REPLIES: [string, (id: unknown) => string][] = [
  ['"result": null', (id) => JSON.stringify({ jsonrpc: "2.0", id, result: null })],
  ['"jsonrpc": "1.0"', (id) => JSON.stringify({ jsonrpc: "1.0", id, result: { action: "cancel" } })],
  ["a result and an error together", (id) => JSON.stringify({ jsonrpc: "2.0", id, result: {}, error: { code: 1, message: "m" } })],
  [
    "a 20,000-deep result",
    (id) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"deep":${"[".repeat(20_000)}${"]".repeat(20_000)}}}`,
  ],
];

/** Waits for messages matching a predicate, with a deadline; messages that arrive early are kept. */
class Inbox {
  private seen: Message[] = [];
  private waiters: { match: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];

  push(m: Message): void {
    const i = this.waiters.findIndex((w) => w.match(m));
    if (i === -1) return void this.seen.push(m);
    this.waiters.splice(i, 1)[0]!.resolve(m);
  }

  next(match: (m: Message) => boolean, timeoutMs: number, what: string): Promise<Message> {
    const i = this.seen.findIndex(match);
    if (i !== -1) return Promise.resolve(this.seen.splice(i, 1)[0]!);
    return within(new Promise<Message>((resolve) => this.waiters.push({ match, resolve })), timeoutMs, what);
  }
}

/** JSON lines on a child's stdin and stdout. */
export function linePeer(child: ChildProcess) {
  const inbox = new Inbox();
  let pending = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n")) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      try {
        inbox.push(JSON.parse(line) as Message);
      } catch {
        // not a message
      }
    }
  });
  return {
    write: (line: string) => void child.stdin!.write(line + "\n"),
    send: (m: Message) => void child.stdin!.write(JSON.stringify(m) + "\n"),
    next: (match: (m: Message) => boolean, timeoutMs: number, what: string) => inbox.next(match, timeoutMs, what),
  };
}

/** The `data` of each message event in an SSE body, as it comes. */
async function readSse(body: ReadableStream<Uint8Array>, onMessage: (m: Message) => void): Promise<void> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true });
    for (let end = pending.indexOf("\n\n"); end !== -1; end = pending.indexOf("\n\n")) {
      const event = pending.slice(0, end);
      pending = pending.slice(end + 2);
      const data = event
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trimStart())
        .join("\n");
      if (data) onMessage(JSON.parse(data) as Message);
    }
  }
}

/** A raw 2025-11-25 Streamable HTTP session: every answer, JSON or SSE, lands in one inbox. */
export async function httpPeer(url: URL | string, capabilities: Record<string, unknown> = { elicitation: { form: {} } }) {
  const inbox = new Inbox();
  let session: string | undefined;
  const post = async (body: string): Promise<number> => {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        ...(session ? { "mcp-session-id": session } : {}),
      },
      body,
    });
    session ??= res.headers.get("mcp-session-id") ?? undefined;
    const type = res.headers.get("content-type") ?? "";
    if (type.startsWith("text/event-stream") && res.body) void readSse(res.body, (m) => inbox.push(m)).catch(() => {});
    else if (type.startsWith("application/json")) inbox.push((await res.json()) as Message);
    else await res.body?.cancel();
    return res.status;
  };
  await post(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1.0.0" } },
    }),
  );
  await inbox.next((m) => m.id === 0, 30_000, "the answer to initialize");
  await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return {
    post,
    send: (m: Message) => post(JSON.stringify(m)),
    next: (match: (m: Message) => boolean, timeoutMs: number, what: string) => inbox.next(match, timeoutMs, what),
  };
}
