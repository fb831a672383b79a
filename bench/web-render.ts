// The web components as a person meets them: the size of each file a host serves (dist/web/, what `npm run build`
// ships: the whole bundle and each element's own file), and the time from setting a form request on
// <mcp-elicit-form> to the form rendered with its first field focused, in headless Chromium. Each run hands the
// element a fresh copy of the schema, so the field model is built every time (no cache hit). "Fresh page" runs are
// each the first form of a newly loaded page, once it is idle and its heap collected (the code not yet warmed up);
// "same page" runs replace the form on one page. The form is timed from elements/form.js and from elements.js, alternating run by run (the machine is shared:
// a paired comparison); BENCH_WEB_BASELINE=DIR adds DIR/elements.js (another build's dist/web) to the rotation.
// Beside wall time, each render's main-thread CPU time (DevTools' ThreadTime) is read, which load blurs less.
import { createServer } from "node:http";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";
import type { Browser, CDPSession, Page } from "playwright-core";
import { launchChromium } from "../test/helpers/chromium.js";
import { TRIP } from "../test/helpers/trip-form.js";

const RUNS = 20;
const distWeb = fileURLToPath(new URL("../dist/web/", import.meta.url));
/** The files a host may serve, as built into dist/web/ (scripts/build-web.mjs). */
const FILES = ["elements/form.js", "elements/url-consent.js", "elements/sampling-review.js", "elements.js", "page.js", "url-form.js"];

export interface FileSize {
  file: string;
  bytes: number;
  gzip: number;
  brotli: number;
}

export interface FormTiming {
  /** What defined <mcp-elicit-form>: "elements/form.js", "elements.js", or "baseline elements.js". */
  source: string;
  gzip: number;
  /** Median ms from `request` set to the form rendered and focused, to the next frame, and main-thread CPU ms. */
  fresh: Timing;
  same: Timing;
}

export interface Timing {
  focused: number;
  frame: number;
  cpu: number;
}

export interface WebRenderResult {
  files: FileSize[];
  fields: number;
  forms: FormTiming[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** A page and its DevTools session, which reads the page's main-thread CPU time (Performance.getMetrics' ThreadTime). */
interface Tab {
  page: Page;
  cdp: CDPSession;
}

const threadTime = async (cdp: CDPSession) =>
  (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "ThreadTime")!.value * 1000;

/**
 * One timed render: [ms to rendered + focused, ms to the next animation frame, main-thread CPU ms over both].
 * The CPU time is what a shared machine blurs least: other processes delay the page but do not add to it.
 */
async function renderOnce({ page, cdp }: Tab, schemaJson: string): Promise<Run> {
  const cpu = await threadTime(cdp);
  const [ready, frame] = await page.evaluate(async (schemaJson) => {
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
  return [ready, frame, (await threadTime(cdp)) - cpu];
}

type Run = [focused: number, frame: number, cpu: number];

function sizeOf(file: string, path: string): FileSize {
  const bytes = readFileSync(path);
  return { file, bytes: bytes.length, gzip: gzipSync(bytes).length, brotli: brotliCompressSync(bytes).length };
}

/** Serves each source's script at /N.js and a page that loads it at /N/ (a strict CSP, as a host would). */
async function serve(scripts: Buffer[]) {
  const server = createServer((req, res) => {
    const m = /^\/(\d+)(\/|\.js)$/.exec(req.url ?? "");
    const script = m ? scripts[Number(m[1])] : undefined;
    const js = m?.[2] === ".js";
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title><script type="module" src="/${m?.[1]}.js"></script></head><body><main></main></body></html>`;
    res.writeHead(script ? 200 : 404, {
      "content-type": js ? "text/javascript" : "text/html",
      "content-security-policy": "default-src 'self'",
    });
    res.end(script ? (js ? script : page) : "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return { server, base: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` };
}

async function open(browser: Browser, url: string): Promise<Tab> {
  const page = await browser.newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
  await page.goto(url);
  await page.waitForFunction(() => customElements.get("mcp-elicit-form") !== undefined);
  // The page settles first (Chromium's own work after a script runs, such as caching its compiled code, lands in
  // idle time); otherwise a smaller file, defined sooner, would have that work counted in its first render.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2000 })));
  // And starts from a collected heap: the whole bundle allocates enough while loading to set off a collection
  // before the render, the form's file not, so where the first collection falls would be timed instead of the form.
  await cdp.send("HeapProfiler.collectGarbage");
  return { page, cdp };
}

export async function benchWebRender(): Promise<WebRenderResult> {
  const files = FILES.map((f) => sizeOf(f, join(distWeb, f)));
  const sources = [
    { source: "elements/form.js", path: join(distWeb, "elements/form.js") },
    { source: "elements.js", path: join(distWeb, "elements.js") },
  ];
  const baseline = process.env.BENCH_WEB_BASELINE;
  if (baseline) {
    const path = join(baseline, "elements.js");
    if (!existsSync(path)) throw new Error(`BENCH_WEB_BASELINE: ${path} does not exist (point it at another build's dist/web)`);
    sources.push({ source: "baseline elements.js", path });
  }
  const scripts = sources.map((s) => readFileSync(s.path));
  const { server, base } = await serve(scripts);
  const browser = await launchChromium();
  const schema = JSON.stringify(TRIP);
  const fresh: Run[][] = sources.map(() => []);
  const same: Run[][] = sources.map(() => []);
  try {
    // Fresh pages: each round opens one page per source, in an order that rotates, so load drifts hit all alike.
    for (let i = 0; i < RUNS; i++) {
      for (let k = 0; k < sources.length; k++) {
        const s = (i + k) % sources.length;
        const tab = await open(browser, `${base}/${s}/`);
        fresh[s]!.push(await renderOnce(tab, schema));
        await tab.page.close();
      }
    }
    // Same page: one warm page per source, the renders alternating between them.
    const pages = await Promise.all(sources.map((_, s) => open(browser, `${base}/${s}/`)));
    for (const p of pages) for (let i = 0; i < 5; i++) await renderOnce(p, schema); // warm-up
    for (let i = 0; i < RUNS; i++) for (let s = 0; s < pages.length; s++) same[s]!.push(await renderOnce(pages[s]!, schema));
  } finally {
    await browser.close();
    server.close();
  }
  const timing = (runs: Run[]): Timing => ({
    focused: median(runs.map((r) => r[0])),
    frame: median(runs.map((r) => r[1])),
    cpu: median(runs.map((r) => r[2])),
  });
  return {
    files,
    fields: Object.keys(TRIP.properties).length,
    forms: sources.map((s, i) => ({
      source: s.source,
      gzip: gzipSync(scripts[i]!).length,
      fresh: timing(fresh[i]!),
      same: timing(same[i]!),
    })),
  };
}

export function formatWebRenderTable(r: WebRenderResult): string {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  // Ratios against the last source: the baseline build when given, else the whole bundle of this build.
  const ref = r.forms.at(-1)!;
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  return [
    "| file in dist/web/ | minified | gzip | brotli |",
    "| --- | --- | --- | --- |",
    ...r.files.map((f) => `| \`${f.file}\` | ${kb(f.bytes)} | ${kb(f.gzip)} | ${kb(f.brotli)} |`),
    "",
    `| <mcp-elicit-form>, ${r.fields} fields, median of ${RUNS}, defined by | gzip | fresh page: focused (next frame), CPU | same page: focused (next frame), CPU | vs ${ref.source}: fresh, same (wall); fresh, same (CPU) |`,
    "| --- | --- | --- | --- | --- |",
    ...r.forms.map(
      (f) =>
        `| \`${f.source}\` | ${kb(f.gzip)} | ${ms(f.fresh.focused)} (${ms(f.fresh.frame)}), ${ms(f.fresh.cpu)} | ` +
        `${ms(f.same.focused)} (${ms(f.same.frame)}), ${ms(f.same.cpu)} | ` +
        `${ratio(f.fresh.focused, ref.fresh.focused)}, ${ratio(f.same.focused, ref.same.focused)}; ` +
        `${ratio(f.fresh.cpu, ref.fresh.cpu)}, ${ratio(f.same.cpu, ref.same.cpu)} |`,
    ),
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(formatWebRenderTable(await benchWebRender()));
