// The server's adapters of the screen (src/common/screen.ts) for what a client sends: over stdio a
// stream between stdin and the SDK's transport, over Streamable HTTP the body serveHttp has read.
import { Transform, type Readable, type Writable } from "node:stream";
import { parseJSONRPCMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/server";
import { screenInbound, type Screened } from "../../common/screen.js";

export type Refusal = Extract<Screened, { kind: "refuse" }>["reply"];

/** Screens one message a client sent (parsed JSON). */
export const screenFromClient = (raw: unknown): Screened => screenInbound(raw, parseJSONRPCMessage, "client");

/**
 * A POST body, screened: `refuse` when it is a malformed request (send it as the reply), else the
 * body to serve (a malformed reply becomes an error reply with its id). Batches pass as they are.
 */
export function screenBody(parsed: unknown): { refuse: Refusal; error: Error } | { parsed: unknown; error?: Error } {
  if (Array.isArray(parsed)) return { parsed };
  const screened = screenFromClient(parsed);
  if (screened.kind === "refuse") return { refuse: screened.reply, error: screened.error };
  return screened.kind === "fail" ? { parsed: screened.message, error: screened.error } : { parsed: screened.message };
}

/**
 * What the SDK's StdioServerTransport reads instead of `stdin`: each line screened, a malformed
 * request answered on `stdout` (one whole line, as the SDK writes its own), a malformed reply
 * rewritten into an error reply with its id; either is reported to `onerror` as the SDK's transport
 * reported it. Lines that are not JSON pass untouched (the SDK skips them).
 */
export function screenedStdin(
  stdin: Readable,
  stdout: Writable,
  options: { onerror?: (error: Error) => void; maxLine?: number } = {},
): Readable {
  const maxLine = options.maxLine ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
  let pending = "";
  const line = (text: string): string => {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return text;
    }
    const screened = screenFromClient(raw);
    if (screened.kind === "pass") return text;
    options.onerror?.(screened.error); // heard as the SDK's transport would have reported it
    if (screened.kind === "fail") return JSON.stringify(screened.message);
    stdout.write(JSON.stringify(screened.reply) + "\n");
    return "";
  };
  const screen = new Transform({
    decodeStrings: true,
    transform(chunk: Buffer, _encoding, done) {
      pending += chunk.toString("utf8");
      let out = "";
      for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n")) {
        const text = line(pending.slice(0, end).replace(/\r$/, ""));
        pending = pending.slice(end + 1);
        if (text) out += text + "\n";
      }
      // A line longer than the SDK allows goes on unscreened: its own limit refuses it.
      if (pending.length > maxLine) {
        out += pending;
        pending = "";
      }
      done(null, out || undefined);
    },
    flush(done) {
      done(null, pending || undefined);
    },
  });
  // stdin is read only while the SDK reads us: when it closes the transport it pauses what it reads
  // (a broken stdout, say), and a paused stdin is what lets the process exit with nothing else to do.
  let piped = false;
  screen.on("resume", () => {
    if (piped) return;
    piped = true;
    stdin.pipe(screen);
  });
  screen.on("pause", () => {
    if (!piped) return;
    piped = false;
    stdin.unpipe(screen);
    stdin.pause();
  });
  return screen;
}
