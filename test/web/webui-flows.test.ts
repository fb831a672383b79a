// webUI in headless Chromium for the other requests of the contract: a -32042 URL flow (consent, the link
// opened in a new tab, the wait ended by the server's completion or by the person's Retry) and a sampling
// review with no model (the request approved or denied, the answer typed), with real SDK peers (2025-11-25).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpServer, UrlElicitationRequiredError, type CallToolResult } from "@modelcontextprotocol/server";
import type { Page } from "playwright-core";
import { attachElicitation } from "../../src/client/attach.js";
import { attachSampling } from "../../src/client/sampling.js";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import { webUI, type WebUI } from "../../src/web/index.js";
import { clientFor, connect } from "../helpers/mcp.js";
import { browserForTests } from "../helpers/webui.js";
import { needs } from "../helpers/needs.js";

const { browser } = browserForTests();
const PAY_URL = "https://xn--pypal-4ve.com/checkout?order=42"; // pаypal.com with a Cyrillic а

/** `pay` answers -32042 for PAY_URL until called a second time; `servers` keeps each server made, to send completions. */
function shop(servers: McpServer[]) {
  let calls = 0;
  return () => {
    const server = new McpServer({ name: "shop", version: "2.0.0" });
    servers.push(server);
    server.registerTool("pay", {}, async (): Promise<CallToolResult> => {
      if (++calls > 1) return { content: [{ type: "text", text: "paid, order 42" }] };
      throw new UrlElicitationRequiredError([{ mode: "url", message: "Pay for order 42.", url: PAY_URL, elicitationId: "pay-1" }]);
    });
    return server;
  };
}

/** `name_it` asks the client's model (the person, with no model) for a project name. */
function namer() {
  const kit = createElicitation();
  return () => {
    const server = new McpServer({ name: "namer", version: "1.0.0" });
    kit.registerTool(server, "name_it", { description: "Names a project" }, async (_args, ctx) => {
      const reply = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "Name my project" } }], maxTokens: 20 });
      return { content: [{ type: "text", text: `${reply.content.type === "text" ? reply.content.text : "?"} (${reply.model})` }] };
    });
    return server;
  };
}

async function openPage(ui: WebUI): Promise<Page> {
  const page = await browser().newPage();
  // The link never reaches the network: the new tab gets this page.
  await page
    .context()
    .route("https://xn--pypal-4ve.com/**", (route) => route.fulfill({ contentType: "text/html", body: "<title>pay</title>" }));
  await page.goto(ui.pageUrl);
  return page;
}

describe("webUI: URL flows in Chromium", { skip: needs("chromium") }, () => {
  for (const end of ["completion", "retry"] as const) {
    test(`consent opens the link in a new tab, then the wait ends by ${end === "completion" ? "the server's completion" : "the person's Retry"}`, async () => {
      const ui = await webUI({ open: false });
      const servers: McpServer[] = [];
      const client = clientFor("2025-11-25", {});
      const handle = attachElicitation(client, { ui });
      const connection = await connect(client, shop(servers), "2025-11-25", "memory");
      try {
        const page = await openPage(ui);
        const call = handle.callTool({ name: "pay", arguments: {} });
        await page.getByRole("heading", { name: "Link from shop" }).waitFor();
        await page.getByText("Pay for order 42.").waitFor();
        await page
          .getByText(/internationalized name/)
          .first()
          .waitFor();
        const open = page.getByRole("button", { name: "Open link" });
        assert.equal(await open.isDisabled(), true, "not before the person ticks the box");
        await page.getByLabel("I checked the address and want to open it").check();
        const [popup] = await Promise.all([page.waitForEvent("popup"), open.click()]);
        assert.equal(popup.url(), PAY_URL);

        await page.getByRole("heading", { name: "Waiting for shop" }).waitFor();
        await page.getByText("Request 1 of 1, from shop 2.0.0").waitFor();
        if (end === "completion") {
          await servers[0]!.server.notification({ method: "notifications/elicitation/complete", params: { elicitationId: "pay-1" } });
          await page.getByText("shop: Finished at pаypal.com (xn--pypal-4ve.com).").waitFor();
        } else {
          await page.getByRole("button", { name: "Retry" }).click();
        }
        assert.deepEqual((await call).content, [{ type: "text", text: "paid, order 42" }]);
        await page.getByText("Nothing to answer right now.").waitFor();
        assert.equal(ui.pending, 0);
      } finally {
        await connection.close();
        await ui.close();
      }
    });
  }
});

describe("webUI: sampling review in Chromium, with no model", { skip: needs("chromium") }, () => {
  test("the request approved, the answer typed by the person: the server gets it", async () => {
    const ui = await webUI({ open: false });
    const client = clientFor("2025-11-25", {});
    const handle = attachElicitation(client, { ui });
    attachSampling(client, { ui });
    const connection = await connect(client, namer(), "2025-11-25", "memory");
    try {
      const page = await openPage(ui);
      const call = handle.callTool({ name: "name_it", arguments: {} });
      await page.getByRole("heading", { name: "Model request from namer" }).waitFor();
      await page.getByText("Name my project").waitFor();
      await page.getByRole("button", { name: "Approve" }).click();
      await page.getByRole("heading", { name: "Write the answer for namer" }).waitFor();
      await page.getByLabel("Answer").fill("Bluebird");
      await page.getByRole("button", { name: "Send" }).click();
      assert.deepEqual((await call).content, [{ type: "text", text: "Bluebird (typed-by-person)" }]);
    } finally {
      await connection.close();
      await ui.close();
    }
  });

  test("the request denied: no answer is asked for, the server is told no", async () => {
    const ui = await webUI({ open: false });
    const client = clientFor("2025-11-25", {});
    const handle = attachElicitation(client, { ui });
    attachSampling(client, { ui });
    const connection = await connect(client, namer(), "2025-11-25", "memory");
    try {
      const page = await openPage(ui);
      const call = handle.callTool({ name: "name_it", arguments: {} });
      await page.getByRole("button", { name: "Deny" }).click();
      const result = await call;
      assert.equal(result.isError, true);
      assert.match((result.content[0] as { text: string }).text, /rejected/i);
      await page.getByText("Nothing to answer right now.").waitFor();
      assert.equal(await page.getByRole("heading", { name: "Write the answer for namer" }).count(), 0);
    } finally {
      await connection.close();
      await ui.close();
    }
  });
});
