// webUI as a person meets it, in headless Chromium against the compiled package in ../dist: how long
// webUI() takes to start, how long a server's question (a kit tool's ctx.elicit over an in-memory SDK
// connection) takes to appear in an open page as a form (SSE push, page script, element render), and how
// long an answer takes from the page's event to the tool's result (POST, checks, the SDK round trip).
// BENCH_WEB_UI_BASELINE=DIST (another build's dist/, e.g. an older commit's) times that build's webUI and page too,
// run by run in turn with this one's (the machine is shared: a paired comparison).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { attachElicitation } from "../dist/client/index.js";
import { form, text } from "../dist/schema/index.js";
import { createElicitation } from "../dist/server/index.js";
import { webUI } from "../dist/web/index.js";
import type { Browser } from "playwright-core";
import { launchChromium } from "../test/helpers/chromium.js";

const RUNS = 20;

export interface WebUIRun {
  /** "this build", or "baseline" (BENCH_WEB_UI_BASELINE). */
  build: string;
  /** Median ms of `await webUI()` (assets read, server listening). */
  start: number;
  /** Median ms from callTool to the form element in the page. */
  shown: number;
  /** Median ms from the page's answer event to the tool result in the host. */
  answered: number;
}

export type WebUIResult = WebUIRun[];

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

type WebUIFn = typeof webUI;

/** One run: webUI started, a page open, one question shown and answered. Returns [start, shown, answered] ms. */
async function runOnce(browser: Browser, start: WebUIFn): Promise<[number, number, number]> {
  let t = performance.now();
  const ui = await start({ open: false });
  const started = performance.now() - t;
  const client = new Client({ name: "bench", version: "1.0.0" });
  const { callTool } = attachElicitation(client, { ui });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await askingServer().connect(serverSide);
  await client.connect(clientSide);
  const page = await browser.newPage();
  try {
    await page.goto(ui.pageUrl);
    // The page tells the host the moment a form is mounted (a binding, no polling).
    let mounted!: () => void;
    await page.exposeFunction("__formShown", () => mounted());
    await page.evaluate(() => {
      const notify = (window as unknown as { __formShown: () => void }).__formShown;
      new MutationObserver(() => document.querySelector("#current mcp-elicit-form") && notify()).observe(
        document.querySelector("#current")!,
        { childList: true },
      );
    });
    await page.waitForFunction(() => document.querySelector("#connection")?.textContent === "Connected to the host.");

    const visible = new Promise<void>((resolve) => (mounted = resolve));
    t = performance.now();
    const call = callTool({ name: "ask", arguments: {} });
    await visible;
    const shown = performance.now() - t;

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
    const answered = performance.now() - t;
    if ((result.content[0] as { text: string }).text !== "accept") throw new Error("the answer did not arrive");
    return [started, shown, answered];
  } finally {
    await page.close();
    await client.close();
    await ui.close();
  }
}

export async function benchWebUI(): Promise<WebUIResult> {
  const builds: { build: string; start: WebUIFn }[] = [{ build: "this build", start: webUI }];
  const baseline = process.env.BENCH_WEB_UI_BASELINE;
  if (baseline) {
    const mod = (await import(pathToFileURL(join(baseline, "web/index.js")).href)) as { webUI: WebUIFn };
    builds.push({ build: "baseline", start: mod.webUI });
  }
  const runs = builds.map(() => [] as [number, number, number][]);
  const browser = await launchChromium();
  try {
    for (let i = 0; i < RUNS + 2; i++) {
      // In turn, the order rotating; the first two rounds warm up Chromium and the module graph.
      for (let k = 0; k < builds.length; k++) {
        const b = (i + k) % builds.length;
        const run = await runOnce(browser, builds[b]!.start);
        if (i >= 2) runs[b]!.push(run);
      }
    }
  } finally {
    await browser.close();
  }
  return builds.map((b, i) => ({
    build: b.build,
    start: median(runs[i]!.map((r) => r[0])),
    shown: median(runs[i]!.map((r) => r[1])),
    answered: median(runs[i]!.map((r) => r[2])),
  }));
}

export function formatWebUITable(r: WebUIResult): string {
  const cells = (pick: (run: WebUIRun) => number) => r.map((run) => `${pick(run).toFixed(1)} ms`).join(" | ");
  return [
    `| what, median of ${RUNS} | ${r.map((run) => run.build).join(" | ")} |`,
    `| --- | ${r.map(() => "---").join(" | ")} |`,
    `| \`await webUI()\`: bundles read, server listening on 127.0.0.1 | ${cells((x) => x.start)} |`,
    `| a tool's \`ctx.elicit\` to the form in the open page (SSE push, page script, element) | ${cells((x) => x.shown)} |`,
    `| the page's answer to the tool's result (POST, checks, SDK round trip) | ${cells((x) => x.answered)} |`,
  ].join("\n");
}

if (process.argv[1] === new URL(import.meta.url).pathname) console.log(formatWebUITable(await benchWebUI()));
