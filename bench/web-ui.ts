// webUI as a person meets it, in headless Chromium against the compiled package in ../dist: how long
// webUI() takes to start, how long a server's question (a kit tool's ctx.elicit over an in-memory SDK
// connection) takes to appear in an open page as a form (SSE push, page script, element render), and how
// long an answer takes from the page's event to the tool's result (POST, checks, the SDK round trip).
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { attachElicitation } from "../dist/client/index.js";
import { form, text } from "../dist/schema/index.js";
import { createElicitation } from "../dist/server/index.js";
import { webUI } from "../dist/web/index.js";
import { launchChromium } from "../test/web/chromium.js";

const RUNS = 20;

export interface WebUIResult {
  /** Median ms of `await webUI()` (assets read, server listening). */
  start: number;
  /** Median ms from callTool to the form element in the page. */
  shown: number;
  /** Median ms from the page's answer event to the tool result in the host. */
  answered: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function askingServer() {
  const kit = createElicitation();
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  kit.registerTool(server, "ask", { description: "Asks a name", inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = await ctx.elicit("Who is travelling?", form({ fullName: text({ title: "Your name" }) }));
    return { content: [{ type: "text", text: answer.action }] };
  });
  return server;
}

export async function benchWebUI(): Promise<WebUIResult> {
  const browser = await launchChromium();
  const starts: number[] = [];
  const shown: number[] = [];
  const answered: number[] = [];
  try {
    for (let i = 0; i < RUNS + 2; i++) {
      let t = performance.now();
      const ui = await webUI({ open: false });
      const start = performance.now() - t;
      const client = new Client({ name: "bench", version: "1.0.0" });
      const { callTool } = attachElicitation(client, { ui });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await askingServer().connect(serverSide);
      await client.connect(clientSide);
      const page = await browser.newPage();
      await page.goto(ui.pageUrl);
      // The page tells the host the moment a form is mounted (a binding, no polling).
      let mounted!: () => void;
      await page.exposeFunction("__formShown", () => mounted());
      await page.evaluate(() => {
        const notify = (window as unknown as { __formShown: () => void }).__formShown;
        new MutationObserver(() => document.querySelector("#current mcp-elicit-form") && notify()).observe(
          document.querySelector("#current")!,
          {
            childList: true,
          },
        );
      });
      await page.waitForFunction(() => document.querySelector("#connection")?.textContent === "Connected to the host.");

      const visible = new Promise<void>((resolve) => (mounted = resolve));
      t = performance.now();
      const call = callTool({ name: "ask", arguments: {} });
      await visible;
      const shownMs = performance.now() - t;

      t = performance.now();
      await page.evaluate(() => {
        const el = document.querySelector("#current mcp-elicit-form")!;
        el.dispatchEvent(
          new CustomEvent("mcp-elicit-answer", {
            detail: { action: "accept", content: { fullName: "Ana" } },
            bubbles: true,
            composed: true,
          }),
        );
      });
      const result = await call;
      const answeredMs = performance.now() - t;
      if ((result.content[0] as { text: string }).text !== "accept") throw new Error("the answer did not arrive");
      // The first two runs warm up Chromium and the module graph.
      if (i >= 2) {
        starts.push(start);
        shown.push(shownMs);
        answered.push(answeredMs);
      }
      await page.close();
      await client.close();
      await ui.close();
    }
  } finally {
    await browser.close();
  }
  return { start: median(starts), shown: median(shown), answered: median(answered) };
}

export function formatWebUITable(r: WebUIResult): string {
  return [
    "| what | median of " + RUNS + " |",
    "| --- | --- |",
    `| \`await webUI()\`: bundles read, server listening on 127.0.0.1 | ${r.start.toFixed(1)} ms |`,
    `| a tool's \`ctx.elicit\` to the form in the open page (SSE push, page script, element) | ${r.shown.toFixed(1)} ms |`,
    `| the page's answer to the tool's result (POST, checks, SDK round trip) | ${r.answered.toFixed(1)} ms |`,
  ].join("\n");
}

if (process.argv[1] === new URL(import.meta.url).pathname) console.log(formatWebUITable(await benchWebUI()));
