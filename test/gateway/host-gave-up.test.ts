// The host gives up: an SDK v1 host (no elicitation, so the gateway's page asks) calls a tool whose
// question waits on the page, and its request timeout (60 s by default, 4 s here) fires first. The
// page must not just drop the form and say "Nothing to answer right now.": it and stderr say that the
// host stopped waiting, and after how long. A plain SDK server (2025-11-25, in this process, over
// Streamable HTTP) asks the question.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Readable } from "node:stream";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpServer } from "@modelcontextprotocol/server";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { BIN } from "../helpers/cli.js";
import { needs } from "../helpers/needs.js";
import { NO_MODEL_ENV } from "../helpers/pty.js";
import { watchText } from "../helpers/stream-text.js";
import { browserForTests } from "../helpers/webui.js";
import { GATEWAY_PAGE } from "../helpers/travel-page.js";

const SLOW_MS = 90_000;
/** The host's request timeout: short, so the test does not wait the SDK's 60 s. */
const HOST_TIMEOUT_MS = 4000;
/** How soon after the host gives up its question leaves the page (the server's own timeout is 60 s). */
const WITHDRAWN_MS = 15_000;
const ENV = { ...process.env, ...NO_MODEL_ENV } as Record<string, string>;

let server: HttpServerHandle | undefined;
after(() => server?.close());
const { browser } = browserForTests();

describe("elicit gateway: the host stops waiting while its question is on the page", { skip: needs("chromium"), timeout: 180_000 }, () => {
  test("the page and stderr say the host stopped waiting, and after how long", async () => {
    let asked!: () => void;
    const questionAsked = new Promise<void>((resolve) => (asked = resolve));
    let answered!: (answer: unknown) => void;
    const serverGot = new Promise<unknown>((resolve) => (answered = resolve));
    server = await serveHttp(() => {
      const mcp = new McpServer({ name: "slow-question", version: "1.0.0" });
      mcp.registerTool("book", { description: "asks a form, then books" }, async (ctx) => {
        asked();
        const answer = await ctx.mcpReq.elicitInput({
          mode: "form",
          message: "Your booking",
          requestedSchema: { type: "object", properties: { email: { type: "string", title: "Email" } }, required: ["email"] },
        });
        answered(answer);
        return { content: [{ type: "text", text: JSON.stringify(answer) }] };
      });
      return mcp;
    });
    const host = new V1Client({ name: "v1-host", version: "1.0.0" });
    const transport = new V1StdioClientTransport({
      command: process.execPath,
      args: [BIN, "gateway", "--no-browser", "--no-notify", "--protocol", "2025-11-25", "--url", server.url.href],
      env: ENV,
      stderr: "pipe",
    });
    const stderr = watchText(transport.stderr as Readable, SLOW_MS);
    await host.connect(transport);
    const page = await browser().newPage();
    try {
      const address = (await stderr.waitFor(GATEWAY_PAGE))[1]!;
      const call = host.callTool({ name: "book", arguments: {} }, undefined, { timeout: HOST_TIMEOUT_MS });
      const gaveUp = call.then(
        () => assert.fail("the host's call was answered"),
        (error: Error) => error,
      );
      await questionAsked;
      await page.goto(address);
      await page.getByText("Your booking").waitFor({ timeout: SLOW_MS });
      assert.match((await gaveUp).message, /timed out/i, "the host's own timeout ended its call");

      const said =
        /The host stopped waiting for book after (\d+(?:\.\d)?) s and cancelled the call: the question it asked is withdrawn, and an answer would no longer reach it\./;
      const line = await stderr.waitFor(new RegExp(`^elicit gateway: ${said.source}$`, "m"));
      const seconds = Number(line[1]);
      assert.ok(
        seconds >= HOST_TIMEOUT_MS / 1000 - 0.5 && seconds < HOST_TIMEOUT_MS / 1000 + 5,
        `after about ${HOST_TIMEOUT_MS / 1000} s: ${line[0]}`,
      );
      const shown = page.getByRole("alert").filter({ hasText: said });
      await shown.waitFor({ timeout: SLOW_MS });
      assert.match(await shown.innerText(), new RegExp(`after ${line[1]!.replace(".", "\\.")} s`), "the page says the same time");
      // Withdrawn at once, not when the server's own request times out (60 s): nobody could take the answer.
      await page.getByText("Your booking").waitFor({ state: "detached", timeout: WITHDRAWN_MS });
      assert.equal(await page.getByText("Nothing to answer right now.").count(), 0, "not the bare idle line");
      assert.deepEqual(await serverGot, { action: "cancel" }, "the server, still asking, is answered cancel");
    } finally {
      await page.close();
      await host.close();
    }
  });
});
