// Upload bodies for the file sink tests: bytes handed over a chunk at a time, and read back whole.

/** `bytes` as a stream of `chunk`-byte copies, as a network read hands them over. */
export function fromBytes(bytes: Uint8Array, chunk: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
}

/** Everything `stream` holds, as one Buffer. */
export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}
