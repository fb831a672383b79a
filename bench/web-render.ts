// The web components as a person meets them: the size of the bundle a host serves (dist/web/elements.js, what
// `npm run build` ships), and the time from setting a form request on <mcp-elicit-form> to the form rendered with
// its first field focused, in headless Chromium. Each run hands the element a fresh copy of the schema, so the
// field model is built every time (no cache hit). "Fresh page" runs are each the first form of a newly loaded
// page (the code not yet warmed up); "same page" runs replace the form on one page.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { launchChromium } from "../test/web/chromium.js";
import { TRIP } from "../test/web/trip-form.js";

const RUNS = 20;
const bundlePath = fileURLToPath(new URL("../dist/web/elements.js", import.meta.url));

export interface WebRenderResult {
  bytes: number;
  gzip: number;
  brotli: number;
  fields: number;
  /** Median ms from `request` set to the form rendered and focused, and to the next frame after that. */
  fresh: { focused: number; frame: number };
  same: { focused: number; frame: number };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** One timed render: returns [ms to rendered + focused, ms to the next animation frame]. */
function renderOnce(page: Page, schemaJson: string): Promise<[number, number]> {
  return page.evaluate(async (schemaJson) => {
    const requestedSchema = JSON.parse(schemaJson);
    const started = performance.now();
    const el = document.createElement("mcp-elicit-form") as HTMLElement & { request: unknown; updateComplete: Promise<boolean> };
    el.setAttribute("autofocus", "");
    el.request = { message: "Where are you going?", requestedSchema, server: { name: "travel", version: "1.0.0" } };
    document.querySelector("main")!.replaceChildren(el);
    await el.updateComplete;
    const focused = el.shadowRoot?.activeElement?.localName === "input";
    const ready = performance.now() - started;
    await new Promise((resolve) => requestAnimationFrame(resolve));
    if (!focused) throw new Error("the first field did not take the focus");
    return [ready, performance.now() - started] as [number, number];
  }, schemaJson);
}

export async function benchWebRender(): Promise<WebRenderResult> {
  const bundle = readFileSync(bundlePath);
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title><script type="module" src="/elements.js"></script></head><body><main></main></body></html>`;
  const server = createServer((req, res) => {
    const js = req.url === "/elements.js";
    res.writeHead(req.url === "/" || js ? 200 : 404, {
      "content-type": js ? "text/javascript" : "text/html",
      "content-security-policy": "default-src 'self'",
    });
    res.end(js ? bundle : req.url === "/" ? page : "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
  const browser = await launchChromium();
  const schema = JSON.stringify(TRIP);
  const open = async () => {
    const p = await browser.newPage();
    await p.goto(url);
    await p.waitForFunction(() => customElements.get("mcp-elicit-form") !== undefined);
    return p;
  };
  try {
    const fresh: [number, number][] = [];
    for (let i = 0; i < RUNS; i++) {
      const p = await open();
      fresh.push(await renderOnce(p, schema));
      await p.close();
    }
    const p = await open();
    for (let i = 0; i < 5; i++) await renderOnce(p, schema); // warm-up
    const same: [number, number][] = [];
    for (let i = 0; i < RUNS; i++) same.push(await renderOnce(p, schema));
    return {
      bytes: bundle.length,
      gzip: gzipSync(bundle).length,
      brotli: brotliCompressSync(bundle).length,
      fields: Object.keys(TRIP.properties).length,
      fresh: { focused: median(fresh.map((r) => r[0])), frame: median(fresh.map((r) => r[1])) },
      same: { focused: median(same.map((r) => r[0])), frame: median(same.map((r) => r[1])) },
    };
  } finally {
    await browser.close();
    server.close();
  }
}

export function formatWebRenderTable(r: WebRenderResult): string {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  return [
    `dist/web/elements.js: ${kb(r.bytes)}, ${kb(r.gzip)} gzip, ${kb(r.brotli)} brotli`,
    "",
    `| <mcp-elicit-form>, ${r.fields} fields, median of ${RUNS} | rendered and focused | next frame |`,
    "| --- | --- | --- |",
    `| fresh page (first form) | ${ms(r.fresh.focused)} | ${ms(r.fresh.frame)} |`,
    `| same page (form replaced) | ${ms(r.same.focused)} | ${ms(r.same.frame)} |`,
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(formatWebRenderTable(await benchWebRender()));
