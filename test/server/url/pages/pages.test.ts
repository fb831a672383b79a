// The URL kit's pages in Chromium against real OpenID providers: the phishing rule (a link made for
// alice, opened by bob, is refused and stays pending; alice then completes it), the third-party connect
// (PKCE, state bound to flow and browser, tokens into the vault), and every refusal leaving nothing stored.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/server";
import { serveHttp } from "../../../../src/server/http/serve.js";
import { createUrlKit } from "../../../../src/server/url/url-kit.js";
import type { OAuthCredential } from "../../../../src/server/url/vault.js";
import { pagesBench, principalOf, signInOnProvider } from "../../../helpers/url-pages.js";
import { needs } from "../../../helpers/needs.js";

const bench = pagesBench();
const alice = () => principalOf(bench, "alice");

describe("connect a third-party account", { skip: needs("chromium") }, () => {
  test("bob opening alice's link is refused and the flow stays pending; alice then connects; a replayed callback stores nothing", async () => {
    const flow = await bench.flow({ kind: "connect", provider: "skymiles" });
    const link = bench.kit.connectUrl(flow.id);

    const bob = await bench.person();
    await bob.page.goto(link);
    await signInOnProvider(bob.page, bench.auth.issuer, "bob");
    await bob.page.getByRole("heading", { name: "This link was made for someone else" }).waitFor();
    const refused = await bob.page.locator("main").innerText();
    assert.match(refused, /Asked by Travel \(test\) through Test host/);
    assert.match(refused, /You are signed in as bob at 127\.0\.0\.1:\d+/);
    assert.ok(!refused.includes("alice"), "the page does not say who the link was for");
    await bob.page.screenshot({ path: join(bench.shots, "url-login-refused.png") });
    assert.equal(await bench.kit.flows.outcome(flow.id), undefined, "the flow stays pending");
    assert.deepEqual(await bench.kit.vault.list(principalOf(bench, "bob")), []);

    // Signing out offers a fresh sign-in (prompt=login), so another account can be used in this browser.
    await bob.page.getByRole("button", { name: "Sign out and use another account" }).click();
    await bob.page.getByLabel("Username").waitFor();
    assert.ok(bob.page.url().startsWith(bench.auth.issuer));
    await bob.context.close();

    const ana = await bench.person();
    const callbacks: string[] = [];
    ana.page.on("request", (r) => r.url().startsWith(new URL("callback", bench.base).href) && callbacks.push(r.url()));
    await ana.page.goto(link);
    await signInOnProvider(ana.page, bench.auth.issuer, "alice");
    await ana.page.getByRole("heading", { name: "Connect your SkyMiles account" }).waitFor();
    const connect = await ana.page.locator("main").innerText();
    assert.match(connect, /Asked by Travel \(test\) through Test host/);
    assert.match(connect, /Signed in as alice/);
    assert.match(connect, /Connect your frequent-flyer account to collect miles/);
    await ana.page.screenshot({ path: join(bench.shots, "url-connect.png") });
    await ana.page.getByRole("button", { name: "Connect SkyMiles" }).click();
    await signInOnProvider(ana.page, bench.third.issuer, "flyer");
    await ana.page.getByRole("heading", { name: "SkyMiles is connected" }).waitFor();
    await ana.page.screenshot({ path: join(bench.shots, "url-done.png") });

    assert.equal(await bench.kit.flows.outcome(flow.id), "completed");
    const stored = await bench.kit.vault.get<OAuthCredential>(alice(), "skymiles");
    assert.ok(stored?.accessToken && stored.refreshToken, "tokens are in alice's vault");
    assert.equal(await bench.kit.vault.token(alice(), "skymiles"), stored.accessToken);
    assert.deepEqual(await bench.kit.vault.list(principalOf(bench, "bob")), [], "nothing for bob");

    // Once the access token expires, the kit's vault refreshes it at SkyMiles with the refresh token.
    await bench.kit.vault.put(alice(), "skymiles", { ...stored, expiresAt: Date.now() - 1 }, "oauth");
    const fresh = await bench.kit.vault.token(alice(), "skymiles");
    assert.ok(fresh && fresh !== stored.accessToken);
    await bench.kit.vault.put(alice(), "skymiles", stored, "oauth");

    // The provider's answer, replayed in the same browser: refused, nothing changes.
    assert.equal(callbacks.length, 1);
    const replay = await ana.page.goto(callbacks[0]!);
    assert.equal(replay?.status(), 400);
    assert.match(await ana.page.locator("main").innerText(), /cannot be used[\s\S]*Nothing was stored/);
    assert.deepEqual(await bench.kit.vault.get(alice(), "skymiles"), stored);

    // The used link: refused.
    const again = await ana.page.goto(link);
    assert.equal(again?.status(), 410);
    assert.match(await ana.page.locator("h1").innerText(), /already used/);
    await ana.context.close();
    assert.deepEqual(bench.errors, []);
  });
});

describe("served by serveHttp", () => {
  test("with auth and no oidc option, people sign in at the issuer that protects the endpoint", async () => {
    const urlKit = createUrlKit();
    const http = await serveHttp(() => new McpServer({ name: "t", version: "1.0.0" }), { auth: { issuer: bench.auth.issuer }, urlKit });
    try {
      const flow = await urlKit.flows.create({
        kind: "url",
        principal: alice(),
        server: "t",
        client: "c",
        message: "m",
        target: "https://example.com/",
      });
      const connect = await fetch(urlKit.connectUrl(flow.id), { redirect: "manual" });
      assert.equal(connect.status, 303);
      const login = new URL(connect.headers.get("location")!, urlKit.connectUrl(flow.id));
      assert.equal(login.pathname, "/elicit/login");
      const cookie = connect.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const toIssuer = await fetch(login, { redirect: "manual", headers: { cookie } });
      assert.equal(toIssuer.status, 303);
      const authorize = new URL(toIssuer.headers.get("location")!);
      assert.equal(authorize.origin, bench.auth.issuer);
      assert.equal(authorize.searchParams.get("redirect_uri"), new URL("/elicit/login/callback", http.url).href);
      assert.equal(authorize.searchParams.get("code_challenge_method"), "S256");
    } finally {
      await http.close();
      await urlKit.close();
    }
  });
});
