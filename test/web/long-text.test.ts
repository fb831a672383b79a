// Long server texts in the elements, in headless Chromium: a 9,000-character message and a long field
// description are shown folded with a "Read in full" button that shows every character (made inert, never
// HTML), and the form still submits. Before, both were cut at 2,000 characters with no way to read the rest.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { answers, assertAccessible, assertClean, mount, webBench } from "../helpers/web-pages.js";
import { SERVER } from "../helpers/trip-form.js";
import { MAX_LONG_TEXT_LENGTH, sanitizeText } from "../../src/common/sanitize.js";
import { needs } from "../helpers/needs.js";

const bench = webBench();

/** `n` characters of numbered sentences, with markup, a bidi override and a line break in them. */
function longText(n: number, label: string): string {
  let text = `${label} starts here. <b>bold?</b> <img src=x onerror="window.__pwned=1">\u202E reversed?\n`;
  const end = ` END OF THE ${label.toUpperCase()}`;
  for (let i = 1; text.length < n; i++) text += `Clause ${i} of the ${label.toLowerCase()}. `;
  return text.slice(0, n - end.length) + end;
}

const MESSAGE = longText(9_000, "Terms");
const DESCRIPTION = longText(1_500, "Description");

/** The text of the element with `id` in the mounted element's shadow root, as the browser lays it out. */
const textOf = (page: Page, id: string) =>
  page.locator("#root > *").evaluate((el, id) => (el.shadowRoot!.getElementById(id) as HTMLElement).innerText, id);

/** Elements the markup in the texts would have made, had it been read as HTML. */
const injected = (page: Page) =>
  page.locator("#root > *").evaluate((el) => el.shadowRoot!.querySelectorAll("b, img").length + ("__pwned" in window ? 1 : 0));

describe("long texts in the elements", { skip: needs("chromium") }, () => {
  test("a 9,000-character message and a 1,500-character description read in full, and the form submits", async () => {
    assert.equal(MESSAGE.length, 9_000);
    assert.equal(DESCRIPTION.length, 1_500);
    const { page, errors } = await bench.open();
    const schema = {
      type: "object",
      properties: { city: { type: "string", title: "City", description: DESCRIPTION } },
      required: ["city"],
    };
    await mount(page, "mcp-elicit-form", { request: { message: MESSAGE, requestedSchema: schema, server: SERVER } });

    // Folded: a preview, and a button that says how much there is.
    const readMessage = page.getByRole("button", { name: "Read in full (8,999 characters)" });
    assert.equal(await readMessage.getAttribute("aria-expanded"), "false");
    const preview = await textOf(page, "message");
    assert.ok(preview.startsWith("Terms starts here. <b>bold?</b>"), preview.slice(0, 80));
    assert.ok(preview.length < 1_000 && preview.endsWith("…"), `${preview.length} characters shown folded`);

    // Unfolded: every character, made inert (the bidi override gone: 8,999 of 9,000), the markup as text.
    await readMessage.click();
    const full = sanitizeText(MESSAGE, { maxLength: MAX_LONG_TEXT_LENGTH });
    assert.equal(full.length, 8_999);
    assert.equal(await textOf(page, "message"), full);
    assert.ok(full.endsWith(" END OF THE TERMS"));
    assert.equal(await page.getByRole("button", { name: "Show less" }).getAttribute("aria-expanded"), "true");

    // The description, under its field, likewise; it still describes the control.
    const city = page.getByLabel("City", { exact: true });
    assert.equal(await city.getAttribute("aria-describedby"), "f0-help");
    assert.ok((await textOf(page, "f0-help")).endsWith("…"));
    await page.getByRole("button", { name: "Read in full (1,499 characters)" }).click();
    assert.equal(await textOf(page, "f0-help"), sanitizeText(DESCRIPTION, { maxLength: MAX_LONG_TEXT_LENGTH }));
    assert.equal(await injected(page), 0, "no element was made from the texts' markup, no script ran");
    await assertAccessible(page);

    // Reading in full changes nothing of the form: it checks, reviews and sends as ever.
    await city.fill("Paris");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("button", { name: "Send" }).click();
    assert.deepEqual(
      (await answers(page)).map((a) => a.detail),
      [{ action: "accept", content: { city: "Paris" } }],
    );
    await assertClean(page, errors);
    await page.close();
  });

  test("Show less folds the text again; a short message has no button", async () => {
    const { page, errors } = await bench.open();
    const schema = { type: "object", properties: { ok: { type: "boolean", title: "OK", description: "Short." } } };
    await mount(page, "mcp-elicit-form", { request: { message: MESSAGE, requestedSchema: schema, server: SERVER } });
    const folded = await textOf(page, "message");
    await page.getByRole("button", { name: /^Read in full/ }).click();
    await page.getByRole("button", { name: "Show less" }).click();
    assert.equal(await textOf(page, "message"), folded);
    await mount(page, "mcp-elicit-form", { request: { message: "Ready?", requestedSchema: schema, server: SERVER } });
    assert.equal(await page.getByRole("button", { name: /^Read in full|^Show less/ }).count(), 0);
    assert.equal(await textOf(page, "message"), "Ready?");
    await assertClean(page, errors);
    await page.close();
  });

  test("a link's long message reads in full before consent", async () => {
    const { page, errors } = await bench.open();
    await mount(page, "mcp-elicit-url-consent", {
      request: { message: MESSAGE, url: "https://pay.example.com/checkout", server: SERVER },
    });
    await page.getByRole("button", { name: "Read in full (8,999 characters)" }).click();
    assert.equal(await textOf(page, "message"), sanitizeText(MESSAGE, { maxLength: MAX_LONG_TEXT_LENGTH }));
    assert.equal(await injected(page), 0);
    await page.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Open link" }).click();
    assert.deepEqual(
      (await answers(page)).map((a) => a.detail),
      [{ action: "accept" }],
    );
    await assertClean(page, errors);
    await page.close();
  });
});
