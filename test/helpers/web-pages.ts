// The web components under test in real headless Chromium: the bundle is built into a scratch folder with the
// build's own function, served with a strict Content-Security-Policy from a node:http server on 127.0.0.1, and
// a page records every answer event, every CSP violation and every window.open call.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { buildWeb } from "../../scripts/build-web.mjs";
import { has } from "./needs.js";
import { launchChromium } from "./chromium.js";

export { CHROMIUM_ARGS } from "./chromium.js";
import { fileURLToPath } from "node:url";
import { removeOnExit } from "./cleanup.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

export const CSP = "default-src 'self'";

// Recorders the tests read back; a file of its own, since the CSP allows no inline script.
const HARNESS = `
window.__answers = [];
window.__violations = [];
window.__opened = [];
document.addEventListener("mcp-elicit-answer", (e) => window.__answers.push({ tag: e.target.localName, detail: e.detail }));
document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.violatedDirective + " " + e.blockedURI));
const open = window.open;
window.open = (...args) => { window.__opened.push(args); return open.apply(window, args); };
`;

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>mcp-elicit elements</title>
<link rel="stylesheet" href="/page.css">
<script src="/harness.js"></script>
<script type="module" src="/elements.js"></script></head>
<body><main><h1>mcp-elicit elements</h1><div id="root"></div></main></body>
</html>`;

const PAGE_CSS = `body { margin: 0; padding: 12px; } @media (prefers-color-scheme: dark) { body { background: #121212; color: #eee; } }`;

// A host's theme, as in docs/host/theme-the-components.md: a custom property and a ::part rule.
const THEME_CSS = `.themed { --mcp-elicit-accent: rgb(107, 47, 191); } .themed::part(heading) { text-transform: uppercase; }`;

export interface WebBench {
  url: string;
  browser: Browser;
  /** A fresh page on the test page, with the elements defined; console errors are collected in `errors`. */
  open(options?: { width?: number }): Promise<{ page: Page; errors: string[] }>;
  /** Where screenshots go: $MCP_ELICIT_SCREENSHOTS, or a scratch folder removed at the end. */
  shots: string;
  bundleBytes: number;
}

/** Builds the bundle, starts the server and Chromium before the file's tests; stops them after. */
export function webBench(): WebBench {
  const bench = { url: "", shots: "", bundleBytes: 0 } as WebBench;
  let server: Server;
  let scratch: string;
  before(async () => {
    // The file's groups are skipped without Chromium (needs("chromium")): nothing to set up.
    if (!has("chromium")) return;
    scratch = mkdtempSync(join(tmpdir(), "mcp-elicit-web-"));
    removeOnExit(scratch); // also when the file is cut before its after hooks
    const [built] = await buildWeb({ outdir: scratch });
    bench.bundleBytes = built!.bytes;
    const files: Record<string, [string, string | Buffer]> = {
      "/": ["text/html", PAGE],
      "/harness.js": ["text/javascript", HARNESS],
      "/page.css": ["text/css", PAGE_CSS],
      "/favicon.ico": ["image/x-icon", ""],
      "/theme.css": ["text/css", THEME_CSS],
      "/elements.js": ["text/javascript", readFileSync(join(scratch, "elements.js"))],
      "/axe.js": ["text/javascript", readFileSync(join(root, "node_modules/axe-core/axe.min.js"))],
    };
    server = createServer((req, res) => {
      const file = files[new URL(req.url ?? "/", "http://x").pathname];
      res.writeHead(file ? 200 : 404, { "content-type": file?.[0] ?? "text/plain", "content-security-policy": CSP });
      res.end(file?.[1] ?? "not found");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    bench.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
    bench.browser = await launchChromium();
    bench.shots = process.env.MCP_ELICIT_SCREENSHOTS ?? join(scratch, "shots");
    mkdirSync(bench.shots, { recursive: true });
  });
  after(async () => {
    await bench.browser?.close();
    // A before that failed early left no server: closing nothing must not wait forever.
    if (server) await new Promise((resolve) => server.close(resolve));
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });
  bench.open = async ({ width = 800 } = {}) => {
    const page = await bench.browser.newPage({ viewport: { width, height: 900 } });
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(bench.url);
    await page.waitForFunction(() => customElements.get("mcp-elicit-sampling-review") !== undefined);
    return { page, errors };
  };
  return bench;
}

/** Puts one element on the page with the given properties (set before it is attached). */
export async function mount(
  page: Page,
  tag: string,
  props: Record<string, unknown>,
  attributes: Record<string, string> = {},
): Promise<void> {
  await page.evaluate(
    ({ tag, props, attributes }) => {
      const el = document.createElement(tag);
      for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
      Object.assign(el, props);
      document.querySelector("#root")!.replaceChildren(el);
    },
    { tag, props, attributes },
  );
}

/** The text the element shows (its shadow root's rendered text). */
export const shownText = (page: Page) =>
  page.locator("#root > *").evaluate((el) => [...el.shadowRoot!.children].map((c) => (c as HTMLElement).innerText ?? "").join("\n"));

/** Every answer event so far: the element's tag and the event's detail. */
export const answers = (page: Page) =>
  page.evaluate(() => (window as unknown as { __answers: { tag: string; detail: unknown }[] }).__answers);

/** No CSP violation, no console error, no uncaught exception on the page. */
export async function assertClean(page: Page, errors: string[]): Promise<void> {
  const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
  assert.deepEqual(violations, [], "CSP violations");
  assert.deepEqual(errors, [], "console errors");
}

/** Runs axe-core (served from the page's origin, so the CSP allows it) and asserts no violations. */
export async function assertAccessible(page: Page): Promise<void> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ url: "/axe.js" });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (c: unknown) => Promise<{ violations: { id: string; help: string; nodes: { target: unknown }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")})`);
  });
  assert.deepEqual(violations, []);
}

/** Screenshots of the element on the page: light and dark at 800 px, and light at 360 px wide. */
export async function screenshots(bench: WebBench, page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize()!;
  for (const [suffix, scheme, width] of [
    ["light", "light", 800],
    ["dark", "dark", 800],
    ["360", "light", 360],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: viewport.height });
    await page.locator("#root > *").screenshot({ path: join(bench.shots, `${name}-${suffix}.png`), animations: "disabled", caret: "hide" });
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(viewport);
}
