// Hostile server text in the kit's form app, shown by a real host of MCP Apps in Chromium
// (test/helpers/app-host.ts): a server whose name, question (20,000 characters), field titles,
// descriptions, option labels and final result carry markup, scripts and bidirectional controls. In the
// app all of it is inert text: no script runs, no element is made from it, no bidi control reaches the
// screen, and the buttons stay reachable and answer.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Frame } from "playwright-core";
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { choice, form, text } from "../../src/schema/builders.js";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import { appHost, type AppHost } from "../helpers/app-host.js";
import { needs } from "../helpers/needs.js";
import { ensurePageBundles } from "../helpers/url-pages.js";
import { launchChromium } from "../helpers/chromium.js";
import type { Browser } from "playwright-core";

const EVIL = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><a href="javascript:window.__pwned = 3">here</a> \u202Edesrever\u2066 &lt;b&gt;&amp;`;

/** 20,000 characters: EVIL first, numbered clauses, and an end marker. */
function longMessage(): string {
  let message = `${EVIL}\n`;
  const end = " END OF THE QUESTION";
  for (let i = 1; message.length < 20_000; i++) message += `Clause ${i} of the terms. `;
  return message.slice(0, 20_000 - end.length) + end;
}
const MESSAGE = longMessage();

function hostileServer(): () => McpServer {
  const kit = createElicitation();
  return () => {
    const server = new McpServer({ name: `travel ${EVIL}`, version: "1.0.0" });
    kit.registerTool(
      server,
      "hostile_question",
      { description: "Asks with hostile text", inputSchema: z.object({}) },
      async (_args, ctx) => {
        const answer = await ctx.elicit(
          MESSAGE,
          form({
            note: text({ title: `Note ${EVIL}`, description: EVIL }).optional(),
            pick: choice({ a: `Option ${EVIL}` }, { title: `Pick ${EVIL}` }).optional(),
          }),
          { key: "hostile" },
        );
        return { content: [{ type: "text", text: `Ended with ${answer.action} ${EVIL}` }] };
      },
    );
    return server;
  };
}

/** Elements markup in the text would have made, in the document and every shadow root; and whether anything ran. */
const damage = (frame: Frame) =>
  frame.evaluate(() => {
    const found: string[] = [];
    const roots: ParentNode[] = [document];
    for (let root = roots.pop(); root; root = roots.pop()) {
      for (const el of root.querySelectorAll("img, a, b, iframe, script")) {
        // The app's own script is the one in the page it came in.
        if (el.tagName !== "SCRIPT" || el.textContent?.includes("__pwned")) found.push(el.tagName);
      }
      for (const el of root.querySelectorAll("*")) if (el.shadowRoot) roots.push(el.shadowRoot);
    }
    return { found, pwned: (window as unknown as { __pwned?: number }).__pwned };
  });

/** Everything the app shows, shadow roots included, as laid out. */
const shown = (frame: Frame) =>
  frame.evaluate(() => {
    const parts: string[] = [];
    const roots: ParentNode[] = [document.body];
    for (let root = roots.pop(); root; root = roots.pop()) {
      for (const el of root.querySelectorAll("*")) if (el.shadowRoot) roots.push(el.shadowRoot);
      if (root instanceof ShadowRoot) parts.push([...root.children].map((c) => (c as HTMLElement).innerText ?? "").join("\n"));
    }
    return [document.body.innerText, ...parts].join("\n");
  });

let browser: Browser;
let http: HttpServerHandle;

describe("hostile server text in the form app", { skip: needs("chromium") }, () => {
  before(async () => {
    await ensurePageBundles();
    http = await serveHttp(hostileServer());
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await http?.close();
  });

  for (const revision of ["2025-11-25", "2026-07-28"] as const) {
    test(`${revision}: markup, scripts, bidi and 20,000 characters are inert, and the buttons answer`, async () => {
      const host: AppHost = await appHost({ browser, server: http.url, revision });
      try {
        const view = await host.callTool("hostile_question");
        const f = view.frame;
        const decline = f.getByRole("button", { name: "Decline" });
        await decline.waitFor();
        assert.deepEqual(await damage(f), { found: [], pwned: undefined });
        let text = await shown(f);
        assert.ok(text.includes("<script>window.__pwned = 1</script>"), "the markup shown as text");
        assert.ok(!/[\u202A-\u202E\u2066-\u2069]/.test(text), "no bidi control on screen");
        // The whole question can be read, to its last words.
        const more = f.getByRole("button", { name: /^Read in full/ });
        if (await more.count()) await more.first().click();
        text = await shown(f);
        assert.ok(text.includes("END OF THE QUESTION"), "the end of the 20,000 characters is reachable");
        // The buttons are in the frame, on top (nothing covers them), and they answer.
        await decline.scrollIntoViewIfNeeded();
        await decline.click({ trial: true });
        await f.getByRole("button", { name: "Submit" }).click({ trial: true });
        await decline.click();
        const context = await view.next("ui/update-model-context");
        assert.match(JSON.stringify(context), /Ended with decline/);
        assert.deepEqual(await damage(f), { found: [], pwned: undefined });
        assert.ok(!/[\u202A-\u202E\u2066-\u2069]/.test(await shown(f)));
        assert.deepEqual(host.errors, []);
      } finally {
        await host.close();
      }
    });
  }
});
