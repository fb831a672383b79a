// The pages' other identities and what every response carries: loopback mode (a local server: only this
// machine, by peer address and Host), a deployment's own identify(request), a "url" flow's Continue to the
// author's page, the security headers, and the cookies' attributes on http loopback and on https.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { form, text } from "../../../../src/schema/index.js";
import { kitKeys } from "../../../../src/server/url/keys.js";
import { createUrlKit } from "../../../../src/server/url/url-kit.js";
import { createPages } from "../../../../src/server/url/pages/index.js";
import { memoryStore } from "../../../../src/store/index.js";
import { pagesBench } from "../../../helpers/url-pages.js";
import { needs } from "../../../helpers/needs.js";

const bench = pagesBench({ identity: "loopback" });
const root = fileURLToPath(new URL("../../../..", import.meta.url));

/** A GET with a Host header of our choosing (fetch does not let one set it). */
function getWithHost(url: URL, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { host } }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject).end();
  });
}

describe("loopback mode", { skip: needs("chromium") }, () => {
  test("a flow without a principal: this machine continues to the author's page, which ends the flow; headers on every page", async () => {
    const flow = await bench.flow({
      kind: "url",
      principal: undefined,
      message: "Link your calendar",
      target: (id) => new URL(`/author/${id}`, bench.base).href,
    });
    bench.authorPage = async (url) => {
      const id = url.pathname.split("/").pop()!;
      await bench.kit.flows.finish(id, "completed");
      return { status: 200, body: "<h1>Calendar linked</h1>" };
    };
    const response = await fetch(bench.kit.connectUrl(flow.id));
    assert.equal(response.status, 200);
    const csp = response.headers.get("content-security-policy")!;
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, new RegExp(`form-action 'self' ${bench.base.origin}`), "Continue may lead to the author's origin only");
    assert.equal(response.headers.get("referrer-policy"), "no-referrer");
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    assert.equal(response.headers.get("cache-control"), "no-store");
    const cookie = response.headers.getSetCookie().join("\n");
    assert.match(
      cookie,
      /^mcp_elicit_browser=[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/elicit\/; HttpOnly; SameSite=Lax$/m,
      "no Secure on http loopback",
    );
    const body = await response.text();
    assert.match(body, /Local mode: this page answers only this computer, and anyone using it can open this link/);

    // That first look bound the flow to its browser; Chromium gets a flow of its own.
    const linked = await bench.flow({
      kind: "url",
      principal: undefined,
      message: "Link your calendar",
      target: (id) => new URL(`/author/${id}`, bench.base).href,
    });
    const { page, context } = await bench.person();
    await page.goto(bench.kit.connectUrl(linked.id));
    assert.match(await page.locator("main").innerText(), /Continue takes you to:\s*http:\/\/127\.0\.0\.1:\d+\/author\//);
    await page.getByRole("button", { name: /^Continue to 127\.0\.0\.1/ }).click();
    await page.getByRole("heading", { name: "Calendar linked" }).waitFor();
    assert.equal(await bench.kit.flows.outcome(linked.id), "completed");
    await context.close();
  });

  test("another Host (DNS rebinding) and another machine's address are refused", async () => {
    const flow = await bench.flow({ kind: "url", principal: undefined, target: "https://calendar.example/link" });
    const rebound = await getWithHost(new URL(bench.kit.connectUrl(flow.id)), "attacker.example");
    assert.equal(rebound.status, 403);
    assert.match(rebound.body, /Open this link on the computer that runs the server/);
    const pages = createPages({ kit: bench.kit, keys: kitKeys(randomBytes(32)), store: bench.store, baseUrl: bench.base });
    const remote = await pages(new Request(bench.kit.connectUrl(flow.id), { headers: { host: bench.base.host } }), {
      remoteAddress: "192.0.2.7",
    });
    assert.equal(remote.status, 403);
    assert.equal(await bench.kit.flows.outcome(flow.id), undefined);
  });

  test("the pages pass axe-core: connect, Continue, hosted form, done and a refusal", async () => {
    // axe is injected as a script, which the pages' CSP forbids; this browser ignores the CSP to run it.
    const context = await bench.browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const audit = async (url: string, ready: string) => {
      await page.goto(url);
      await page.getByRole("heading", { name: ready }).first().waitFor();
      await page.addScriptTag({ path: join(root, "node_modules/axe-core/axe.min.js") });
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (c: unknown) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } })
          .axe;
        return (await axe.run(document)).violations.map((v) => `${v.id} (${v.nodes.length})`);
      });
      assert.deepEqual(violations, [], url);
    };
    const connect = await bench.flow({ kind: "connect", provider: "skymiles", principal: undefined });
    await audit(bench.kit.connectUrl(connect.id), "Connect your SkyMiles account");
    const link = await bench.flow({ kind: "url", principal: undefined, target: "https://calendar.example/link" });
    await audit(bench.kit.connectUrl(link.id), "Continue to calendar.example");
    const hosted = await bench.flow({
      kind: "form",
      principal: undefined,
      message: "Your API key",
      form: form({ apiKey: text({ title: "API key" }) }),
    });
    await audit(bench.kit.connectUrl(hosted.id), "Form from Travel (test)");
    await bench.kit.flows.finish(hosted.id, "completed");
    await audit(new URL(`done/${hosted.id}`, bench.base).href, "Done");
    await audit(bench.kit.connectUrl(hosted.id), "This link was already used");
    await context.close();
  });

  test("a target that is not https (or loopback http) is never opened", async () => {
    const flow = await bench.flow({ kind: "url", principal: undefined, target: "javascript:alert(1)" });
    const response = await fetch(bench.kit.connectUrl(flow.id));
    assert.equal(response.status, 500);
    assert.match(await response.text(), /cannot be opened safely/);
  });
});

describe("identify(request) and https", () => {
  const base = new URL("https://travel.example/elicit/");
  const issuer = "https://accounts.travel.example";
  const kit = createUrlKit({
    baseUrl: base,
    identity: {
      identify: async (request) => (request.headers.get("x-demo-user") ? { issuer, sub: request.headers.get("x-demo-user")! } : undefined),
    },
  });
  const vaultKey = randomBytes(32);
  const pages = createPages({ kit, keys: kitKeys(vaultKey), store: memoryStore(), baseUrl: base });
  const open = (id: string, user?: string) =>
    pages(new Request(new URL(`connect/${id}`, base), { headers: user ? { "x-demo-user": user } : {} }));

  test("the identified person is compared with the flow's principal; nobody identified is asked to sign in", async () => {
    const flow = await kit.flows.create({
      kind: "url",
      principal: { issuer, sub: "alice" },
      server: "Travel",
      client: "Host",
      message: "Go",
      target: "https://travel.example/pay",
    });
    const nobody = await open(flow.id);
    assert.equal(nobody.status, 401);
    assert.match(await nobody.text(), /Sign in to Travel&#39;s site in this browser/);
    const bob = await open(flow.id, "bob");
    assert.equal(bob.status, 403);
    const refused = await bob.text();
    assert.match(refused, /This link was made for someone else/);
    assert.ok(!refused.includes("Sign out"), "no sign-out: the deployment's own sessions are not the pages' to end");
    assert.equal(await kit.flows.outcome(flow.id), undefined);
    const alice = await open(flow.id, "alice");
    assert.equal(alice.status, 200);
    assert.match(await alice.text(), /Continue to travel\.example/);
  });

  test("on https the cookies are Secure with the __Host- prefix, for the whole origin (more in url-pages-cookies.test.ts)", async () => {
    const flow = await kit.flows.create({
      kind: "url",
      principal: { issuer, sub: "alice" },
      server: "Travel",
      client: "Host",
      message: "Go",
      target: "https://travel.example/pay",
    });
    const response = await open(flow.id, "alice");
    assert.match(
      response.headers.getSetCookie().join("\n"),
      /^__Host-mcp_elicit_browser-[\w-]{8}=[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/m,
    );
  });

  test("text from the server and the client is escaped and made inert", async () => {
    const flow = await kit.flows.create({
      kind: "url",
      principal: { issuer, sub: "alice" },
      server: "<img src=x onerror=alert(1)>",
      client: "Host\u202e\u001b[31m",
      message: "</script><script>alert(1)</script>",
      target: "https://travel.example/pay",
    });
    const body = await (await open(flow.id, "alice")).text();
    assert.ok(!body.includes("<img"), "no markup from the server");
    assert.ok(!body.includes("<script>alert"), "no script from the message");
    assert.ok(!/[\u202e\u001b]/.test(body), "no bidi override or escape sequence");
    assert.match(body, /&lt;img src=x onerror=alert\(1\)&gt;/);
  });
});
