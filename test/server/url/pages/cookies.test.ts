// The pages' cookies over real HTTP on 127.0.0.1, as a TLS-terminating proxy hands requests to kits whose
// baseUrl is https: the __Host- prefix (Secure, Path=/, no Domain), so a sibling subdomain cannot set the
// browser id; a name per pages path, so two kits on one origin keep apart; and the sign-in session cookie
// set, read and deleted with the same attributes (a __Host- cookie deleted with another Path is refused).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { createUrlKit } from "../../../../src/server/url/url-kit.js";
import { endSession, signedInPerson, startSession, type CookieScope } from "../../../../src/server/url/pages/browser-session.js";
import { memoryStore } from "../../../../src/store/index.js";

const issuer = "https://accounts.travel.example";
const alice = { issuer, sub: "alice" };

/** A cookie from one Set-Cookie line: its name, value and attributes (names lowercased). */
function parseSetCookie(line: string): { name: string; value: string; attributes: Map<string, string> } {
  const [pair, ...rest] = line.split("; ");
  const at = pair!.indexOf("=");
  const attributes = new Map(
    rest.map((a) => {
      const eq = a.indexOf("=");
      return eq < 0 ? [a.toLowerCase(), ""] : [a.slice(0, eq).toLowerCase(), a.slice(eq + 1)];
    }),
  );
  return { name: pair!.slice(0, at), value: pair!.slice(at + 1), attributes };
}

/** `handler` served on 127.0.0.1; resolves to its origin and a close function. */
async function serve(handler: (request: Request) => Response | Promise<Response>): Promise<{ origin: string; close(): Promise<void> }> {
  const listener = getRequestListener(handler);
  const server: Server = createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function assertHostCookie(line: string, base: string): { name: string; value: string } {
  const cookie = parseSetCookie(line);
  assert.match(cookie.name, new RegExp(`^__Host-${base}-[\\w-]{8}$`), line);
  assert.equal(cookie.attributes.get("path"), "/", `${line}: __Host- needs Path=/`);
  assert.ok(cookie.attributes.has("secure"), `${line}: __Host- needs Secure`);
  assert.ok(!cookie.attributes.has("domain"), `${line}: __Host- forbids Domain`);
  assert.ok(cookie.attributes.has("httponly"), line);
  assert.equal(cookie.attributes.get("samesite"), "Lax", line);
  return cookie;
}

describe("https kits behind a proxy: the browser cookie", () => {
  // Two kits on one origin, under different paths, each with its own store and key.
  const identity = {
    identify: async (request: Request) =>
      request.headers.get("x-demo-user") ? { issuer, sub: request.headers.get("x-demo-user")! } : undefined,
  };
  const kitA = createUrlKit({ baseUrl: "https://travel.example/a/elicit/", identity });
  const kitB = createUrlKit({ baseUrl: "https://travel.example/b/elicit/", identity });
  let server: Awaited<ReturnType<typeof serve>>;
  before(async () => {
    server = await serve((request) => (new URL(request.url).pathname.startsWith("/a/") ? kitA : kitB).fetch(request));
  });
  after(async () => {
    await server?.close();
    await Promise.all([kitA.close(), kitB.close()]);
  });

  const flowOf = (kit: typeof kitA) =>
    kit.flows.create({
      kind: "url",
      principal: alice,
      server: "Travel",
      client: "Host",
      message: "Go",
      target: "https://travel.example/pay",
    });
  const open = (path: string, cookie?: string) =>
    fetch(`${server.origin}${path}`, { headers: { "x-demo-user": "alice", ...(cookie ? { cookie } : {}) } });

  test("carries __Host-, Path=/, Secure and no Domain", async () => {
    const flow = await flowOf(kitA);
    const response = await open(`/a/elicit/connect/${flow.id}`);
    assert.equal(response.status, 200);
    const lines = response.headers.getSetCookie();
    assert.equal(lines.length, 1, "only the browser id (identify() keeps no session of its own)");
    const cookie = assertHostCookie(lines[0]!, "mcp_elicit_browser");
    assert.match(cookie.value, /^[A-Za-z0-9_-]{43}$/);
  });

  test("two kits on one origin under different paths keep their own browser ids", async () => {
    const [flowA, flowB] = await Promise.all([flowOf(kitA), flowOf(kitB)]);
    const a = parseSetCookie((await open(`/a/elicit/connect/${flowA.id}`)).headers.getSetCookie()[0]!);
    // The browser sends both kits' cookies everywhere on the origin (Path=/).
    const first = await open(`/b/elicit/connect/${flowB.id}`, `${a.name}=${a.value}`);
    assert.equal(first.status, 200);
    const b = assertHostCookie(first.headers.getSetCookie()[0] ?? "(kit B set no cookie: it took kit A's)", "mcp_elicit_browser");
    assert.notEqual(b.name, a.name);
    assert.notEqual(b.value, a.value, "kit B minted its own id");
    const again = await open(`/b/elicit/connect/${flowB.id}`, `${a.name}=${a.value}; ${b.name}=${b.value}`);
    assert.equal(again.status, 200, "kit B knows its browser again: the claim holds");
    assert.deepEqual(again.headers.getSetCookie(), [], "and sets nothing new");
    const aAgain = await open(`/a/elicit/connect/${flowA.id}`, `${b.name}=${b.value}; ${a.name}=${a.value}`);
    assert.equal(aAgain.status, 200, "kit A still reads its own id");
    assert.deepEqual(aAgain.headers.getSetCookie(), []);
  });
});

describe("the sign-in session cookie is set, read and deleted with the same attributes", () => {
  for (const scope of [
    { path: "/elicit/", secure: true },
    { path: "/elicit/", secure: false },
  ] satisfies CookieScope[]) {
    test(scope.secure ? "https: __Host-, Path=/" : "http loopback: unprefixed, Path=/elicit/, no Secure", async () => {
      const store = memoryStore();
      const app = new Hono()
        .get("/elicit/start", async (c) => {
          await startSession(c, scope, store, alice);
          return c.text("signed in");
        })
        .get("/elicit/who", async (c) => c.json((await signedInPerson(c, scope, store)) ?? null))
        .post("/elicit/end", async (c) => {
          await endSession(c, scope, store);
          return c.text("signed out");
        });
      const server = await serve((request) => app.fetch(request));
      try {
        const started = await fetch(`${server.origin}/elicit/start`);
        assert.equal(started.status, 200);
        const [line] = started.headers.getSetCookie();
        const cookie = scope.secure ? assertHostCookie(line!, "mcp_elicit_session") : parseSetCookie(line!);
        if (!scope.secure) {
          assert.equal(cookie.name, "mcp_elicit_session");
          assert.equal(parseSetCookie(line!).attributes.get("path"), "/elicit/");
          assert.ok(!parseSetCookie(line!).attributes.has("secure"), line);
        }
        const jar = `${cookie.name}=${cookie.value}`;
        assert.deepEqual(await (await fetch(`${server.origin}/elicit/who`, { headers: { cookie: jar } })).json(), alice);

        const ended = await fetch(`${server.origin}/elicit/end`, { method: "POST", headers: { cookie: jar } });
        assert.equal(ended.status, 200, "the deletion is a valid cookie for its prefix");
        const deleted = parseSetCookie(ended.headers.getSetCookie()[0]!);
        assert.equal(deleted.name, cookie.name);
        assert.equal(deleted.attributes.get("max-age"), "0");
        assert.equal(deleted.attributes.get("path"), scope.secure ? "/" : "/elicit/", "the Path it was set with, or browsers keep it");
        assert.equal(deleted.attributes.has("secure"), scope.secure);
        assert.equal(await (await fetch(`${server.origin}/elicit/who`, { headers: { cookie: jar } })).json(), null, "the session is gone");
      } finally {
        await server.close();
        await store.close();
      }
    });
  }
});
