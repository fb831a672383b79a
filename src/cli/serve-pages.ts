// The URL kit's pages for a server on stdio (`elicit serve travel`, `elicit demo`): stdio has no HTTP
// origin, so the pages get a listener of their own on 127.0.0.1 (a free port), mounted at /elicit/.
// Loopback only, which is what the kit's "loopback" identity requires.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { capConnections, pageServerLimits, pageServerOptions, type PageServerLimits } from "../common/http-limits.js";
import type { UrlKit } from "../server/url/url-kit.js";
import type { PeerInfo } from "../server/url/pages/index.js";

export async function listenPages(
  kit: UrlKit,
  onerror: (error: Error) => void,
  overrides?: Partial<PageServerLimits>,
): Promise<{ url: URL; close(): Promise<void> }> {
  const limits = pageServerLimits(overrides);
  const { getRequestListener } = await import("@hono/node-server");
  // The peer's address goes along (Hono's env), for the loopback check of the pages.
  const listener = getRequestListener((request, env) => kit.fetch(request, env as PeerInfo), {
    overrideGlobalObjects: false,
    errorHandler: (error) => {
      onerror(error as Error);
      return new Response("Internal error", { status: 500 });
    },
  });
  const server = createServer(pageServerOptions(limits), (req, res) => {
    if (new URL(req.url ?? "/", "http://x").pathname.startsWith("/elicit/")) return void listener(req, res);
    res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
  });
  capConnections(server, limits);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/elicit/`);
  kit.mount(url);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
