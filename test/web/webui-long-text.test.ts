// A server's long texts through the whole path, in headless Chromium: a real SDK server asks with a
// 9,000-character message and a 1,500-character field description, attachElicitation hands them to webUI,
// and the person reads both in full in the page and answers. Before, the client cut both at 2,000
// characters and the page showed the rest nowhere.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import type { Page } from "playwright-core";
import { attachElicitation } from "../../src/client/attach.js";
import { MAX_LONG_TEXT_LENGTH, sanitizeText } from "../../src/common/sanitize.js";
import { form, text } from "../../src/schema/builders.js";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import { webUI } from "../../src/web/index.js";
import { clientFor, connect } from "../helpers/mcp.js";
import { browserForTests } from "../helpers/webui.js";
import { needs } from "../helpers/needs.js";

const { browser } = browserForTests();
const SLOW = { timeout: 60_000 };

/** `n` characters of numbered clauses, ending with a marker, with markup and a bidi override in them. */
function clauses(n: number, label: string): string {
  const end = ` END OF THE ${label.toUpperCase()}`;
  let out = `${label}: <b>bold?</b>\u202E\n`;
  for (let i = 1; out.length < n; i++) out += `Clause ${i} of the ${label.toLowerCase()}. `;
  return out.slice(0, n - end.length) + end;
}

const MESSAGE = clauses(9_000, "Terms");
const DESCRIPTION = clauses(1_500, "Description");

/** `sign` asks for a city under the long message and description, and returns what it got. */
function termsServer() {
  const kit = createElicitation();
  return () => {
    const server = new McpServer({ name: "terms", version: "1.0.0" });
    kit.registerTool(server, "sign", { description: "Asks to accept the terms" }, async (_args, ctx) => {
      const answer = await ctx.elicit(MESSAGE, form({ city: text({ title: "City", description: DESCRIPTION }) }));
      return { content: [{ type: "text", text: answer.action === "accept" ? `signed in ${answer.content.city}` : answer.action }] };
    });
    return server;
  };
}

/** The text of the element with `id` inside the page's form element, as the browser lays it out. */
const textOf = (page: Page, id: string) =>
  page.locator("mcp-elicit-form").evaluate((el, id) => (el.shadowRoot!.getElementById(id) as HTMLElement).innerText, id);

describe("webUI: long texts read in full", { skip: needs("chromium") }, () => {
  for (const revision of ["2025-11-25", "2026-07-28"] as const) {
    test(`${revision}: a 9,000-character message and a 1,500-character description, whole in the page`, SLOW, async () => {
      const ui = await webUI({ open: false, log: () => {} });
      const client = clientFor(revision, {});
      const handle = attachElicitation(client, { ui });
      const connection = await connect(client, termsServer(), revision, "memory");
      const page = await browser().newPage();
      try {
        const call = handle.callTool({ name: "sign", arguments: {} }) as Promise<CallToolResult>;
        await page.goto(ui.pageUrl);
        await page.getByRole("heading", { name: "Form from terms 1.0.0" }).waitFor(SLOW);
        await page.getByRole("button", { name: "Read in full (8,999 characters)" }).click();
        assert.equal(await textOf(page, "message"), sanitizeText(MESSAGE, { maxLength: MAX_LONG_TEXT_LENGTH }));
        await page.getByRole("button", { name: "Read in full (1,499 characters)" }).click();
        assert.equal(await textOf(page, "f0-help"), sanitizeText(DESCRIPTION, { maxLength: MAX_LONG_TEXT_LENGTH }));
        await page.getByLabel("City", { exact: true }).fill("Lisbon");
        await page.getByRole("button", { name: "Submit" }).click();
        await page.getByRole("button", { name: "Send" }).click();
        assert.deepEqual((await call).content, [{ type: "text", text: "signed in Lisbon" }]);
      } finally {
        await page.close();
        await connection.close();
        await ui.close();
      }
    });
  }
});
