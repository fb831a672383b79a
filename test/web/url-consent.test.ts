// <mcp-elicit-url-consent> in headless Chromium: the address analysed in the browser (punycode shown both ways,
// the registrable domain marked, the warnings), Open only after consent, opened with noopener and noreferrer and
// never loaded before, then the waiting phase with Retry and Cancel.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { analyzeUrl } from "../../src/client/url-safety/analyze.js";
import { sanitizeText } from "../../src/common/sanitize.js";
import { answers, assertAccessible, assertClean, mount, screenshots, shownText, webBench } from "../helpers/web-pages.js";
import { needs } from "../helpers/needs.js";

const bench = webBench();
const SERVER = { name: "payments" };
const PUNY = "https://xn--pypal-4ve.com/login?next=1";

const consent = (page: Page, url: string, extra: Record<string, unknown> = {}) =>
  mount(page, "mcp-elicit-url-consent", { request: { message: "Sign in to pay for the trip.", url, server: SERVER }, ...extra });
const opened = (page: Page) => page.evaluate(() => (window as unknown as { __opened: unknown[][] }).__opened);

describe("<mcp-elicit-url-consent>", { skip: needs("chromium") }, () => {
  test("a punycode host: both forms shown, Open disabled until consent, opened without opener or referrer, then the wait", async () => {
    const { page, errors } = await bench.open();
    const requested: string[] = [];
    page.context().on("request", (r) => requested.push(r.url()));
    // The new tab's load is answered here: the test machine has no network, and the element's part ends at window.open.
    await page.context().route("https://xn--pypal-4ve.com/**", (route) => route.fulfill({ contentType: "text/plain", body: "signed in" }));
    await consent(page, PUNY);
    const text = await shownText(page);
    for (const shown of [PUNY, "xn--pypal-4ve.com", "pаypal.com", "Warning: The address uses an internationalized name", "mixes alphabets"])
      assert.ok(text.includes(shown), `missing ${shown}`);
    const open = page.getByRole("button", { name: "Open link" });
    assert.equal(await open.isDisabled(), true, "Open is disabled before consent");
    await assertAccessible(page);
    await screenshots(bench, page, "url-consent");
    await page.getByLabel("I checked the address and want to open it").check();
    assert.equal(await open.isDisabled(), false);
    assert.ok(!requested.some((u) => u.includes("xn--pypal-4ve")), "nothing is loaded from the link before Open");
    const popup = page.context().waitForEvent("page");
    await open.click();
    const tab = await popup;
    await tab.waitForLoadState();
    assert.equal(tab.url(), PUNY);
    assert.equal(await tab.evaluate(() => window.opener), null, "the new tab has no opener");
    assert.deepEqual(await opened(page), [[PUNY, "_blank", "noopener,noreferrer"]]);
    await tab.close();

    await page.getByRole("heading", { name: "Waiting for payments" }).waitFor();
    assert.ok((await shownText(page)).includes("pаypal.com (xn--pypal-4ve.com)"));
    await assertAccessible(page);
    await screenshots(bench, page, "url-waiting");
    await page.getByRole("button", { name: "Retry" }).click();
    await page.locator("mcp-elicit-url-consent").evaluate((el) => (el as HTMLElement & { completed(): void }).completed());
    await page.getByRole("status").filter({ hasText: "Done: payments has your answer." }).waitFor();
    assert.deepEqual(
      (await answers(page)).map((a) => a.detail),
      [{ action: "accept" }, { action: "retry" }],
    );
    await assertClean(page, errors);
    await page.close();
  });

  test("the registrable domain is marked; http:, credentials and IP addresses warn", async () => {
    const { page, errors } = await bench.open();
    await consent(page, "https://login.example.co.uk/a");
    assert.deepEqual(await page.locator("mark").allInnerTexts(), ["example.co.uk", "example.co.uk"]);
    assert.equal(await page.locator(".warning").count(), 0);
    await consent(page, "http://user:pw@192.168.0.1:8080/");
    const warnings = await page.locator(".warning").allInnerTexts();
    for (const w of ["IPv4 address (192.168.0.1)", "the user name “user” and a password", "not encrypted (http:", "port 8080"])
      assert.ok(
        warnings.some((line) => line.includes(w)),
        `no warning with ${w}: ${warnings.join(" | ")}`,
      );
    await consent(page, `https://example.com/${"a".repeat(2100)}`);
    assert.ok((await page.locator(".warning").allInnerTexts()).some((w) => w.includes("characters long; long addresses can hide")));
    await assertClean(page, errors);
    await page.close();
  });

  test("a refused link has no Open button; Decline and Cancel answer", async () => {
    const { page, errors } = await bench.open();
    await consent(page, "javascript:alert(1)");
    assert.equal(await page.getByRole("button", { name: "Open link" }).count(), 0);
    assert.match(await page.getByRole("alert").innerText(), /^Refused: Only https: \(or http:\) links can be opened/);
    await page.getByRole("button", { name: "Decline" }).click();
    await consent(page, "https://example.com/");
    await page.getByRole("button", { name: "Cancel" }).click();
    await consent(page, "https://example.com/", { phase: "waiting" });
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("status").filter({ hasText: "Cancelled: stopped waiting" }).waitFor();
    await consent(page, "https://example.com/", { waitAfterOpen: false });
    await page.getByRole("checkbox").check();
    await page.context().route("https://example.com/**", (route) => route.fulfill({ body: "ok" }));
    const popup = page.context().waitForEvent("page");
    await page.getByRole("button", { name: "Open link" }).click();
    await (await popup).close();
    await page.getByRole("status").filter({ hasText: "Opened https://example.com/ in a new tab." }).waitFor();
    assert.deepEqual(
      (await answers(page)).map((a) => a.detail),
      [{ action: "decline" }, { action: "cancel" }, { action: "cancel" }, { action: "accept" }],
    );
    await assertClean(page, errors);
    await page.close();
  });

  test("the analysis in the page is the client's: the same warnings and Unicode forms as in Node", async () => {
    const { page, errors } = await bench.open();
    const urls = [
      "https://xn--mnchen-3ya.de/",
      PUNY,
      "https://xn--r8jz45g.xn--zckzah/",
      "https://www.xn--80ak6aa92e.com/",
      "http://127.0.0.1.nip.io:8080/x@example.com",
    ];
    for (const url of urls) {
      await consent(page, url);
      const node = analyzeUrl(url);
      const line = (t: string) => sanitizeText(t, { maxLength: 200, multiline: false });
      assert.deepEqual(
        await page.locator(".warning").allInnerTexts(),
        node.warnings.map((w) => `Warning: ${line(w.message)}`),
        url,
      );
      const reads = await page.locator("[part=unicode-host]").allInnerTexts();
      assert.deepEqual(reads, node.unicodeHost ? [node.unicodeHost] : [], url);
    }
    // Invalid punycode: Node's URL parser refuses it; Chromium's accepts it, and the page refuses it as well.
    await consent(page, "https://xn--zz.com/");
    assert.match(
      await page.getByRole("alert").innerText(),
      /^Refused: The host xn--zz\.com has a label that is not a valid internationalized name/,
    );
    assert.equal(await page.getByRole("button", { name: "Open link" }).count(), 0);
    await assertClean(page, errors);
    await page.close();
  });
});
