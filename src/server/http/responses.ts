// The fetch handler's own answers: JSON-RPC errors, and a response whose end is heard.

export function jsonError(
  status: number,
  code: number,
  message: string,
  id: unknown = null,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** The same response, calling `done` once its body has been read to the end, failed or been cancelled (at once without a body). */
export function afterBody(response: Response, done: () => void): Response {
  if (!response.body) {
    done();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          controller.close();
          done();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        done();
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
