// What the pages refuse, each with nothing stored and the flow left as it was: a forged state, a state
// from another browser, an expired id, a link already open in another browser, a POST without its CSRF
// token, a POST from a foreign origin (connect page and hosted form); and a "Deny" at the provider,
// which declines the flow.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { form, text } from "../../../../src/schema/index.js";
import { pagesBench, principalOf, signInOnProvider } from "../../../helpers/url-pages.js";
import { needs } from "../../../helpers/needs.js";

const bench = pagesBench();
const alice = () => principalOf(bench, "alice");
let ana: { context: BrowserContext; page: Page };

/** Nothing in alice's vault and the flow still pending. */
async function untouched(flowId: string): Promise<void> {
  assert.equal(await bench.kit.flows.outcome(flowId), undefined, "the flow is still pending");
  assert.deepEqual(await bench.kit.vault.list(alice()), [], "nothing stored");
}

describe("refused, nothing stored", { skip: needs("chromium") }, () => {
  before(async () => {
    // alice signed in once in her browser; every test below uses that session.
    ana = await bench.person();
    const flow = await bench.flow({ kind: "connect", provider: "skymiles" });
    await ana.page.goto(bench.kit.connectUrl(flow.id));
    await signInOnProvider(ana.page, bench.auth.issuer, "alice");
    await ana.page.getByRole("heading", { name: "Connect your SkyMiles account" }).waitFor();
  });

  test("a forged state, and a state taken to another browser", async () => {
    const flow = await bench.flow({ kind: "connect", provider: "skymiles" });
    const forged = await ana.page.goto(new URL(`callback?state=${"A".repeat(43)}&code=stolen`, bench.base).href);
    assert.equal(forged?.status(), 400);
    assert.match(await ana.page.locator("main").innerText(), /not started here[\s\S]*Nothing was stored/);
    const forgedSignIn = await ana.page.goto(new URL(`login/callback?state=${"A".repeat(43)}&code=stolen`, bench.base).href);
    assert.equal(forgedSignIn?.status(), 400);
    assert.match(await ana.page.locator("h1").innerText(), /This sign-in cannot be used/);
    const huge = await ana.page.request.post(bench.kit.connectUrl(flow.id), {
      headers: { origin: bench.base.origin },
      form: { action: "decline", csrf: "x".repeat(20_000) },
    });
    assert.equal(huge.status(), 413);

    // alice starts the connect; the provider's answer is brought back in another browser first.
    await ana.page.goto(bench.kit.connectUrl(flow.id));
    const started = ana.page.waitForResponse((r) => r.url() === bench.kit.connectUrl(flow.id) && r.request().method() === "POST");
    await ana.page.getByRole("button", { name: "Connect SkyMiles" }).click();
    const authorize = new URL((await started).headers()["location"]!);
    assert.ok(authorize.href.startsWith(bench.third.issuer));
    assert.equal(authorize.searchParams.get("code_challenge_method"), "S256");
    const state = authorize.searchParams.get("state")!;
    const other = await bench.person();
    const elsewhere = await other.page.goto(new URL(`callback?state=${state}&code=stolen`, bench.base).href);
    assert.equal(elsewhere?.status(), 403);
    assert.match(await other.page.locator("main").innerText(), /started in another browser[\s\S]*Nothing was stored/);
    await other.context.close();
    // The state is spent: alice's own answer from the provider is refused too, and she starts again from the link.
    await signInOnProvider(ana.page, bench.third.issuer, "flyer");
    assert.match(await ana.page.locator("main").innerText(), /cannot be used/);
    await untouched(flow.id);
  });

  test("an expired id", async () => {
    const flow = await bench.flow({ kind: "connect", provider: "skymiles", ttlMs: 30 });
    await new Promise((r) => setTimeout(r, 60));
    const response = await ana.page.goto(bench.kit.connectUrl(flow.id));
    assert.equal(response?.status(), 410);
    assert.match(await ana.page.locator("h1").innerText(), /This link has expired/);
    assert.equal(await bench.kit.flows.outcome(flow.id), "expired");
    assert.deepEqual(await bench.kit.vault.list(alice()), []);
  });

  test("an unknown id and a malformed one", async () => {
    for (const id of ["B".repeat(43), "../../etc/passwd", "%3Cscript%3E"]) {
      const response = await ana.page.goto(new URL(`connect/${id}`, bench.base).href);
      assert.equal(response?.status(), 404, id);
      assert.match(await ana.page.locator("h1").innerText(), /This link is not valid|Not found/);
    }
  });

  test("a link already open in another browser, even the same person's", async () => {
    const flow = await bench.flow({ kind: "connect", provider: "skymiles" });
    await ana.page.goto(bench.kit.connectUrl(flow.id));
    await ana.page.getByRole("heading", { name: "Connect your SkyMiles account" }).waitFor();
    const second = await bench.person();
    await second.page.goto(bench.kit.connectUrl(flow.id));
    await signInOnProvider(second.page, bench.auth.issuer, "alice");
    await second.page.getByRole("heading", { name: "This link is open in another browser" }).waitFor();
    await second.context.close();
    await untouched(flow.id);
  });

  test("POSTs without the CSRF token or from another origin; the hosted form's too", async () => {
    const connect = await bench.flow({ kind: "connect", provider: "skymiles" });
    const hosted = await bench.flow({ kind: "form", message: "Your API key", form: form({ apiKey: text({ title: "API key" }) }) });
    await ana.page.goto(bench.kit.connectUrl(connect.id));
    const csrf = await ana.page.locator('input[name="csrf"]').first().inputValue();
    const action = new URL(`connect/${connect.id}`, bench.base).href;
    const post = (headers: Record<string, string>, data: Record<string, string>) =>
      ana.page.request.post(action, { headers, form: data, maxRedirects: 0 });

    const noCsrf = await post({ origin: bench.base.origin }, { action: "decline" });
    assert.equal(noCsrf.status(), 403);
    assert.match(await noCsrf.text(), /This form has expired/);
    const wrongCsrf = await post({ origin: bench.base.origin }, { action: "decline", csrf: csrf.slice(1) + "A" });
    assert.equal(wrongCsrf.status(), 403);
    const foreign = await post({ origin: "http://evil.example" }, { action: "decline", csrf });
    assert.equal(foreign.status(), 403);
    assert.match(await foreign.text(), /came from another site/);
    const crossSite = await post({ origin: "null", "sec-fetch-site": "cross-site" }, { action: "decline", csrf });
    assert.equal(crossSite.status(), 403);
    await untouched(connect.id);

    // The hosted form's POST: its token is in the page's data block.
    await ana.page.goto(bench.kit.connectUrl(hosted.id));
    await ana.page.waitForURL((u) => u.pathname.includes("/form/"));
    const data = JSON.parse((await ana.page.locator("#mcp-elicit-flow").textContent())!) as { csrf: string; post: string };
    const answer = { action: "accept", content: { apiKey: "sk-secret-value" } };
    const send = (headers: Record<string, string>, body: unknown) =>
      ana.page.request.post(new URL(data.post, bench.base).href, {
        headers: { "content-type": "application/json", ...headers },
        data: JSON.stringify(body),
      });
    assert.equal((await send({ origin: bench.base.origin }, { answer })).status(), 403, "no CSRF token");
    assert.equal((await send({ origin: "http://evil.example" }, { csrf: data.csrf, answer })).status(), 403, "foreign origin");
    assert.equal((await send({}, { csrf: data.csrf, answer })).status(), 403, "no Origin and no Fetch Metadata");
    const invalid = await send({ origin: bench.base.origin }, { csrf: data.csrf, answer: { action: "accept", content: { apiKey: 42 } } });
    assert.equal(invalid.status(), 422);
    assert.match(((await invalid.json()) as { errors: { message: string }[] }).errors[0]!.message, /API key/);
    await untouched(hosted.id);
  });

  test("Deny at the provider declines the flow; nothing stored", async () => {
    const flow = await bench.flow({ kind: "connect", provider: "skymiles" });
    const denier = await bench.person();
    await denier.page.goto(bench.kit.connectUrl(flow.id));
    await signInOnProvider(denier.page, bench.auth.issuer, "alice");
    await denier.page.getByRole("button", { name: "Connect SkyMiles" }).click();
    await denier.page.waitForURL((u) => u.href.startsWith(bench.third.issuer));
    await denier.page.getByLabel("Username").fill("flyer");
    await denier.page.getByLabel("Password").fill("flyer");
    await denier.page.getByRole("button", { name: "Sign in" }).click();
    await denier.page.getByRole("button", { name: "Deny" }).click();
    await denier.page.getByRole("heading", { name: "You declined" }).waitFor();
    assert.equal(await bench.kit.flows.outcome(flow.id), "declined");
    assert.deepEqual(await bench.kit.vault.list(alice()), []);
    await denier.context.close();
  });
});
