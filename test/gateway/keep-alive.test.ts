// The gateway keeps its host waiting while the person answers on its page: an SDK host whose request
// timeout is 2 s, reset on progress (resetTimeoutOnProgress, as the SDK client offers), calls a tool
// whose form waits on the gateway's page (the host declares no elicitation), and the person there takes
// 10 s. The call must complete with the person's answer: the gateway sends the host progress on its
// token while the form waits, and the page says that it does. A plain SDK server (2025-11-25, in this
// process, over Streamable HTTP) asks the question.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpServer } from "@modelcontextprotocol/server";
import { KEEP_ALIVE_MESSAGE } from "../../src/cli/gateway/host-progress.js";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { BIN } from "../helpers/cli.js";
import { needs } from "../helpers/needs.js";
import { NO_MODEL_ENV } from "../helpers/pty.js";
import { watchText } from "../helpers/stream-text.js";
import { browserForTests } from "../web/webui-helpers.js";
import { GATEWAY_PAGE } from "./travel-page.js";

const SLOW_MS = 90_000;
/** The host's request timeout, reset by each progress notification. */
const HOST_TIMEOUT_MS = 2000;
/** How long the person takes on the page. */
const PERSON_MS = 10_000;
const ENV = { ...process.env, ...NO_MODEL_ENV } as Record<string, string>;

let server: HttpServerHandle | undefined;
after(() => server?.close());
const { browser } = browserForTests();

describe("elicit gateway: the host is kept waiting while the person answers", { skip: needs("chromium"), timeout: 180_000 }, () => {
  test("a host with a 2 s timeout reset on progress gets the answer of a person who took 10 s", async () => {
    server = await serveHttp(() => {
      const mcp = new McpServer({ name: "slow-person", version: "1.0.0" });
      mcp.registerTool("book", { description: "asks a form, then books" }, async (ctx) => {
        const answer = await ctx.mcpReq.elicitInput({
          mode: "form",
          message: "Your booking",
          requestedSchema: { type: "object", properties: { email: { type: "string", title: "Email" } }, required: ["email"] },
        });
        return { content: [{ type: "text", text: JSON.stringify(answer) }] };
      });
      return mcp;
    });
    const host = new Client({ name: "impatient-host", version: "1.0.0" }, { supportedProtocolVersions: ["2025-11-25"] } as never);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "gateway", "--no-browser", "--no-notify", "--url", server.url.href],
      env: ENV,
      stderr: "pipe",
    });
    const stderr = watchText(transport.stderr as Readable, SLOW_MS);
    await host.connect(transport);
    const page = await browser().newPage();
    try {
      const address = (await stderr.waitFor(GATEWAY_PAGE))[1]!;
      // The person answers once the host has heard the gateway's progress for PERSON_MS (each progress is an event).
      let shownAt = Infinity;
      let waited!: () => void;
      const tookLong = new Promise<void>((resolve) => (waited = resolve));
      const heard: Array<{ progress: number; message?: string }> = [];
      const call = host.callTool(
        { name: "book", arguments: {} },
        {
          timeout: HOST_TIMEOUT_MS,
          resetTimeoutOnProgress: true,
          onprogress: (progress) => {
            heard.push(progress);
            if (Date.now() - shownAt >= PERSON_MS) waited();
          },
        },
      );
      const failed = call.then(
        () => undefined,
        (error: Error) => error,
      );
      await page.goto(address);
      await page.getByText("Your booking").waitFor({ timeout: SLOW_MS });
      shownAt = Date.now();
      await page
        .getByText(/The host asked for progress: the gateway tells it every 1 s that you are answering/)
        .waitFor({ timeout: SLOW_MS });
      // The call ending first (its timeout) ends this wait too, and the test fails below with its error.
      await Promise.race([tookLong, failed]);
      assert.equal(await Promise.race([failed, Promise.resolve("still open")]), "still open", "the host still waits after 10 s");
      await page.getByLabel("Email").fill("ana@example.com");
      await page.getByRole("button", { name: "Submit" }).click();
      await page.getByRole("button", { name: "Send" }).click();
      const result = (await call) as { content: Array<{ text: string }> };
      assert.deepEqual(JSON.parse(result.content[0]!.text), { action: "accept", content: { email: "ana@example.com" } });
      assert.ok(heard.length >= PERSON_MS / 1000 - 2, `progress about every second: ${heard.length}`);
      assert.ok(
        heard.every((p, i) => p.message === KEEP_ALIVE_MESSAGE && (i === 0 || p.progress > heard[i - 1]!.progress)),
        "the gateway's progress, each greater than the last",
      );
    } finally {
      await page.close();
      await host.close();
    }
  });
});
