// Loopback mode trusts the peer address and the Host header. Behind a reverse proxy on the same machine
// both say "this machine" for every visitor (nginx's proxy_pass sends Host: 127.0.0.1:PORT by default),
// so pages whose public address is not loopback must refuse loopback mode instead of admitting anyone.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { createUrlKit } from "../../../../src/server/url/url-kit.js";

const kit = createUrlKit({ identity: "loopback", baseUrl: "https://mcp.example.com/elicit/", serverName: "Travel (test)" });
let server: Server;
let port: number;

before(async () => {
  const pages = getRequestListener((request, env) => kit.fetch(request, env as { incoming: { socket: { remoteAddress?: string } } }));
  server = createServer((req, res) => void pages(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await kit.close();
});

/** A GET as a local reverse proxy forwards it: from 127.0.0.1, with Host naming the upstream. */
function proxied(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers: { host: `127.0.0.1:${port}` } }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject).end();
  });
}

test("loopback mode with a public (non-loopback) address admits nobody, and the link stays unclaimed", async () => {
  const init = {
    kind: "url" as const,
    server: "Travel (test)",
    client: "Test host",
    message: "Link your calendar",
    target: "https://calendar.example/link",
  };
  const flow = await kit.flows.create(init);
  const visit = await proxied(`/elicit/connect/${flow.id}`);
  assert.equal(visit.status, 403);
  assert.match(visit.body, /runs in local mode, but its pages are published at mcp\.example\.com/);
  assert.doesNotMatch(visit.body, /calendar\.example/, "the author's page is not offered");
  assert.equal(await kit.flows.outcome(flow.id), undefined);
  // Nobody claimed it: the browser-binding claim is still free.
  assert.equal(await kit.flows.claim(flow.id, "B".repeat(43)), true);
});
