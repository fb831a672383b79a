// Server text carrying markup in every element (messages, titles, descriptions, option labels, server names,
// URLs, prompts, answers) shows as literal text: no script runs, and no element is made from it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { assertClean, mount, shownText, webBench } from "../helpers/web-pages.js";
import { needs } from "../helpers/needs.js";

const bench = webBench();
const EVIL = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><a href="javascript:window.__pwned = 3">here</a> &lt;b&gt;&amp;`;

/** Elements that markup in the server's text would have made, in every shadow root on the page; and whether anything ran. */
const damage = (page: Page) =>
  page.evaluate(() => {
    // A loop, not a nested function: the test runner's transform would name a nested one with a helper the page lacks.
    const found: string[] = [];
    const roots: ParentNode[] = [document];
    for (let root = roots.pop(); root; root = roots.pop()) {
      for (const el of root.querySelectorAll("*")) {
        if (["SCRIPT", "IMG", "A", "B", "IFRAME"].includes(el.tagName) && !el.closest("head")) found.push(el.tagName);
        if (el.shadowRoot) roots.push(el.shadowRoot);
      }
    }
    return { found, pwned: (window as unknown as { __pwned?: number }).__pwned };
  });

async function assertInert(page: Page, errors: string[], literals: string[]): Promise<void> {
  const text = await shownText(page);
  for (const literal of literals) assert.ok(text.includes(literal), `not shown literally: ${literal}\n${text}`);
  assert.deepEqual(await damage(page), { found: [], pwned: undefined });
  await assertClean(page, errors);
}

describe("server text is rendered as text", { skip: needs("chromium") }, () => {
  test("<mcp-elicit-form>: message, server name, titles, descriptions, option labels; and in the review", async () => {
    const { page, errors } = await bench.open();
    const schema = {
      type: "object",
      properties: {
        note: { type: "string", title: EVIL, description: EVIL },
        pick: { type: "string", title: "Pick", oneOf: [{ const: "a", title: EVIL }] },
        many: { type: "array", title: "Many", items: { anyOf: [{ const: "b", title: EVIL }] } },
      },
    };
    await mount(page, "mcp-elicit-form", { request: { message: EVIL, requestedSchema: schema, server: { name: EVIL, version: EVIL } } });
    await assertInert(page, errors, [`Form from ${EVIL} ${EVIL}`, EVIL]);
    assert.equal(await page.getByRole("textbox", { name: EVIL, exact: true }).count(), 1, "the field is labelled with its title, as text");
    assert.deepEqual(await page.getByRole("combobox", { name: "Pick" }).locator("option").allInnerTexts(), ["(no answer)", EVIL]);
    await page.getByRole("textbox", { name: EVIL, exact: true }).fill(EVIL);
    await page.getByLabel("Pick").selectOption("a");
    await page.getByText(EVIL, { exact: true }).last().click();
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Review your answers" }).waitFor();
    await assertInert(page, errors, [EVIL]);
    await page.close();
  });

  test("<mcp-elicit-url-consent>: message, server name, a javascript: URL and markup in a URL", async () => {
    const { page, errors } = await bench.open();
    await mount(page, "mcp-elicit-url-consent", { request: { message: EVIL, url: "javascript:window.__pwned=4", server: { name: EVIL } } });
    await assertInert(page, errors, [`Link from ${EVIL}`, EVIL, "javascript:window.__pwned=4"]);
    await mount(page, "mcp-elicit-url-consent", {
      request: { message: "Open", url: `https://example.com/${EVIL}`, server: { name: "s" } },
    });
    await assertInert(page, errors, [`https://example.com/${EVIL}`, "Refused: The URL contains a space"]);
    await mount(page, "mcp-elicit-url-consent", {
      request: { message: "Open", url: "https://example.com/<script>alert(1)</script>", server: { name: "s" } },
    });
    await assertInert(page, errors, ["https://example.com/%3Cscript%3Ealert(1)%3C/script%3E"]);
    await page.close();
  });

  test("<mcp-elicit-sampling-review>: prompts, messages, hints, tools, the answer and its tool calls", async () => {
    const { page, errors } = await bench.open();
    const request = {
      server: { name: EVIL },
      systemPrompt: EVIL,
      messages: [{ role: "user", text: EVIL }],
      maxTokens: 10,
      modelHints: [EVIL],
      priorities: {},
      tools: [EVIL],
      model: EVIL,
    };
    await mount(page, "mcp-elicit-sampling-review", { request });
    await assertInert(page, errors, [`Model request from ${EVIL}`, EVIL]);
    await page.getByRole("button", { name: "Edit" }).click();
    assert.equal(await page.getByLabel("System prompt").inputValue(), EVIL, "an edit starts from the literal text");
    await mount(page, "mcp-elicit-sampling-review", {
      request,
      phase: "answer",
      answer: { model: EVIL, text: EVIL, stopReason: EVIL, toolCalls: [EVIL] },
    });
    await assertInert(page, errors, [`Answer for ${EVIL}`, EVIL]);
    await page.close();
  });

  test("the test page's CSP is enforced, and a violation would be seen", async () => {
    const { page } = await bench.open();
    // What the elements never do: an inline style attribute and an image from another origin.
    await page.evaluate(() => {
      document.querySelector("#root")!.innerHTML = '<div style="color: red">x</div><img alt="" src="http://192.0.2.1/x.png">';
    });
    await page.waitForFunction(() => (window as unknown as { __violations: string[] }).__violations.length >= 2);
    const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    assert.ok(
      violations.some((v) => v.startsWith("style-src")),
      violations.join(", "),
    );
    assert.ok(
      violations.some((v) => v.startsWith("img-src")),
      violations.join(", "),
    );
    await page.close();
  });
});
