// A round's streamed answer that survives a cut. A server that sends notifications during a round
// (progress while the person is on a page) answers it as an event stream: the headers come at once, and
// a server that dies later cuts the stream before the round's answer. The SDK would end the call there.
// Instead the stream the transport reads goes on: complete events pass through as they come (a partial
// one of the dead stream is dropped), and once the stream ends or breaks without the answer to the
// round, the round is sent again and the new answer (a stream, or one JSON message as one event)
// continues it. What cannot be delivered ends as a JSON-RPC error for the round, with the reason
// (`data.reason: "server-gone"` when the deadline passed: the transport reads only the stream by then).
import { ServerGoneError } from "./resend-error.js";

type RequestId = string | number;

/** `first`'s stream, continued by `again(reason)` (the same round sent again) until the round's answer passes. */
export function continuedStream(first: Response, id: RequestId, again: (reason: string) => Promise<Response>): Response {
  let reader = first.body!.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = "";
  let answered = false;

  /** The next answer after a cut; false when the stream ended here (closed or errored). */
  async function resume(controller: ReadableStreamDefaultController<Uint8Array>, reason: string): Promise<boolean> {
    buffer = "";
    let response: Response;
    try {
      response = await again(reason);
    } catch (error) {
      if (!(error instanceof ServerGoneError)) {
        controller.error(error);
        return false;
      }
      const data = { reason: "server-gone", server: error.server, attempts: error.attempts, elapsedMs: error.elapsedMs };
      controller.enqueue(encoder.encode(eventOf(errorFor(id, error.message, data))));
      controller.close();
      return false;
    }
    if ((response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream") && response.body) {
      reader = response.body.getReader();
      decoder.decode(); // a fresh stream: nothing of the old one's bytes is pending
      return true;
    }
    const text = await response.text().catch(() => "");
    controller.enqueue(
      encoder.encode(eventOf(answerIn(text, id) ?? errorFor(id, `the server answered the round with HTTP ${response.status}`))),
    );
    controller.close();
    return false;
  }

  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch {
          if (answered) return controller.close();
          if (!(await resume(controller, "the connection closed before the answer"))) return;
          continue;
        }
        if (chunk.done) {
          if (answered) return controller.close();
          if (!(await resume(controller, "the stream ended before the answer"))) return;
          continue;
        }
        buffer += decoder.decode(chunk.value, { stream: true });
        let out = "";
        for (let end = frameEnd(buffer); end > 0; end = frameEnd(buffer)) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end);
          if (!answered && answers(frame, id)) answered = true;
          out += frame;
        }
        if (out) return controller.enqueue(encoder.encode(out));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(stream, { status: first.status, statusText: first.statusText, headers: first.headers });
}

/** Where the first complete event ends (after its blank line), or 0. */
function frameEnd(text: string): number {
  const match = /\r\n\r\n|\n\n|\r\r/.exec(text);
  return match ? match.index + match[0].length : 0;
}

/** Whether an event carries the answer (a result or an error) to request `id`. */
function answers(frame: string, id: RequestId): boolean {
  const data = frame
    .split(/\r\n|\r|\n/)
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
    .join("\n");
  return data !== "" && answerIn(data, id) !== undefined;
}

/** `text` when it is a JSON-RPC answer to `id`. */
function answerIn(text: string, id: RequestId): string | undefined {
  try {
    const message = JSON.parse(text) as Record<string, unknown> | null;
    return message && message.id === id && ("result" in message || "error" in message) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The round's answer when there is none from the server: an error the client makes, marked by `data.reason`. */
const errorFor = (id: RequestId, message: string, data?: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32603, message, ...(data ? { data } : {}) } });

const eventOf = (data: string) => `event: message\ndata: ${data}\n\n`;
