// An HTTP server of a test's own (a proxy, a stand-in) on 127.0.0.1 and a free port, closed with the test.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Listens with `handler` on 127.0.0.1:0; resolves with the server, its URL at `path`, and `close()` (connections cut too). */
export async function listenLocal(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  path = "/mcp",
): Promise<{ server: Server; url: URL; close(): void }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`),
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
