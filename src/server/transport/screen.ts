// The server's stdio adapter of the screen (src/common/screen.ts) for what a client sends: a stream
// between stdin and the SDK's transport (Streamable HTTP bodies are screened by screen-body.ts).
import { Transform, type Readable, type Writable } from "node:stream";
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/server";
import { screenFromClient } from "./screen-body.js";

export { screenBody, screenFromClient, type Refusal } from "./screen-body.js";

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
