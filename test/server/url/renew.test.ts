// A new link for a URL flow, asked for by the person's client (POST {prefix}renew/ID, what the terminal's
// n sends through linkRenewer): the same checks as the pages, over real HTTP on 127.0.0.1. In local mode
// this machine gets a new link for a live flow; the old link then admits no browser that does not hold
// the flow, the new one does; a page's request from another origin, a non-JSON request, an unknown, ended
// or malformed id are refused; with a sign-in identity (oidc) a request nobody signed in for is refused
// and changes nothing. linkRenewer asks only kit pages, and takes no link that leads elsewhere.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { LinkNotRenewedError, linkRenewer } from "../../../src/client/url-renew.js";
import { pagesBench } from "../../helpers/url-pages.js";

const local = pagesBench({ identity: "loopback" });

const renewUrl = (connectUrl: string) => connectUrl.replace(/\/connect\/([^/]+)$/, "/renew/$1");
const post = (url: string, init: { headers?: Record<string, string>; body?: string } = {}) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/json", ...init.headers }, body: init.body ?? "{}" });
const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

describe("a new link in local mode", () => {
  test("this machine gets a new link; the old link admits no other browser, the new one does, and the first browser keeps it no more", async () => {
    const flow = await local.flow({ kind: "form", principal: undefined, message: "Pay", form: { type: "object", properties: {} } });
    const link = local.kit.connectUrl(flow.id);
    // Someone else's browser opens the link first and holds the flow.
    const first = await fetch(link, { redirect: "manual" });
    assert.equal(first.status, 303);
    const theirs = cookieOf(first);

    const renew = linkRenewer(link)!;
    assert.ok(renew, "a kit page has a renewer");
    const fresh = await renew();
    assert.match(fresh, new RegExp(`^${local.base.origin}/elicit/form/${flow.id}\\?link=[A-Za-z0-9_-]{43}$`));

    const old = await fetch(link, { headers: { cookie: theirs }, redirect: "manual" });
    assert.equal(old.status, 410, "the browser that held the flow lets go of it");
    assert.match(await old.text(), /This link was replaced by a newer one/);
    const stranger = await fetch(link, { redirect: "manual" });
    assert.equal(stranger.status, 410, "the old link admits nobody new");
    const wrongToken = await fetch(fresh.replace(/link=.*/, `link=${"A".repeat(43)}`), { redirect: "manual" });
    assert.equal(wrongToken.status, 410, "a made-up token is no link");

    const opened = await fetch(fresh, { redirect: "manual" });
    assert.equal(opened.status, 200, "the new link opens the page");
    assert.match(await opened.text(), /Secure form from/);
    const mine = cookieOf(opened);
    const again = await fetch(link, { headers: { cookie: mine }, redirect: "manual" });
    assert.notEqual(again.status, 410, "the browser that opened the new link holds the flow (its form posts need no token)");

    const second = await renew();
    assert.notEqual(second, fresh, "each new link is new");
    assert.equal(
      (await fetch(fresh, { headers: { cookie: theirs }, redirect: "manual" })).status,
      410,
      "an older new link is replaced too",
    );
  });

  test("refused: a page's request from another origin, a body that is not JSON, an id that is unknown, malformed or ended", async () => {
    const flow = await local.flow({ kind: "form", principal: undefined, message: "Pay", form: { type: "object", properties: {} } });
    const url = renewUrl(local.kit.connectUrl(flow.id));
    const foreign = await post(url, { headers: { Origin: "https://attacker.example" } });
    assert.equal(foreign.status, 403);
    assert.match(((await foreign.json()) as { error: string }).error, /not by a web page/);
    const form = await fetch(url, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "a=1" });
    assert.equal(form.status, 415, "a form post (no preflight) is refused");
    assert.equal((await post(url.replace(flow.id, "x".repeat(43)))).status, 404);
    assert.equal((await post(url.replace(flow.id, "not-an-id"))).status, 404);
    assert.equal(await local.kit.flows.linkToken(flow.id), undefined, "none of these made a link");

    await local.kit.flows.finish(flow.id, "completed");
    const ended = await post(url);
    assert.equal(ended.status, 410);
    assert.match(((await ended.json()) as { error: string }).error, /already used/);
    await assert.rejects(
      linkRenewer(local.kit.connectUrl(flow.id))!(),
      (e) => e instanceof LinkNotRenewedError && /already used/.test(e.message),
    );
  });
});

describe("a new link with a sign-in identity", () => {
  const signed = pagesBench();
  test("nobody signed in here: refused with the reason, and the link and its browser are untouched", async () => {
    const flow = await signed.flow({ kind: "form", message: "Pay", form: { type: "object", properties: {} } });
    const response = await post(renewUrl(signed.kit.connectUrl(flow.id)));
    assert.equal(response.status, 401);
    assert.match(((await response.json()) as { error: string }).error, /sign in there in a browser, or call the tool again/);
    assert.equal(await signed.kit.flows.linkToken(flow.id), undefined);
  });
});

describe("linkRenewer", () => {
  test("only kit pages have one, and an answer that leads elsewhere is not taken", async () => {
    assert.equal(linkRenewer("https://pay.example.com/checkout"), undefined);
    assert.equal(linkRenewer("not a url"), undefined);
    assert.equal(linkRenewer(`https://pay.example.com/elicit/form/${"a".repeat(43)}/x`), undefined);
    const id = "b".repeat(43);
    const asked: string[] = [];
    const answering = (body: unknown) =>
      (async (url: URL | RequestInfo) => {
        asked.push(String(url));
        return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
      }) as typeof fetch;
    const link = `https://pay.example.com/elicit/connect/${id}`;
    await assert.rejects(linkRenewer(link, answering({ url: "https://evil.example/elicit/form/x" }))!(), LinkNotRenewedError);
    await assert.rejects(linkRenewer(link, answering({ url: "https://pay.example.com/other/form/x" }))!(), LinkNotRenewedError);
    assert.equal(
      await linkRenewer(link, answering({ url: `https://pay.example.com/elicit/form/${id}?link=t` }))!(),
      `https://pay.example.com/elicit/form/${id}?link=t`,
    );
    assert.deepEqual(asked, Array(3).fill(`https://pay.example.com/elicit/renew/${id}`));
    // An answer too large to be a link is not read to its end, nor taken.
    const huge = { url: `https://pay.example.com/elicit/form/${id}?link=${"x".repeat(20_000)}` };
    await assert.rejects(linkRenewer(link, answering(huge))!(), /answered with no link to its own pages/);
    // A refusal's reason is shown made inert (no escape sequence reaches the terminal).
    const refusing = (async () =>
      new Response(JSON.stringify({ error: "No\u001b[2J way" }), {
        status: 403,
        headers: { "Content-Type": "application/json" },
      })) as typeof fetch;
    await assert.rejects(linkRenewer(link, refusing)!(), (e) => e instanceof LinkNotRenewedError && !e.message.includes("\u001b"));
  });
});
