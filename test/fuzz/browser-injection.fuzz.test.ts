// Fuzzing the web elements in real headless Chromium: generated HTML and script injection payloads in
// every server text of <mcp-elicit-form>, <mcp-elicit-url-consent> and <mcp-elicit-sampling-review>.
// The page has no Content-Security-Policy, so markup made from server text would run: inert means no
// payload ran (each sets window.__pwned, a trap that records it), no element outside the components'
// templates exists, no element carries an event-handler attribute or a javascript: link, and a payload
// given as a whole text is shown literally. Many cases run per page evaluation (set a request, await the
// render, check, next), in batches that fast-check generates and shrinks.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import type { Browser, Page } from "playwright-core";
import { buildWeb } from "../../scripts/build-web.mjs";
import { launchChromium } from "../helpers/chromium.js";
import { needs } from "../helpers/needs.js";
import { hostileText, INJECTIONS } from "../helpers/fuzz/arbitraries.js";
import { fcParams, measured, runs } from "../helpers/fuzz/settings.js";
import { removeOnExit } from "../helpers/cleanup.js";

// The page records any payload that runs, and checks one element per case.
const HARNESS = `
window.__hits = [];
Object.defineProperty(window, "__pwned", { configurable: false, get() { return undefined; }, set(v) { window.__hits.push(String(v)); } });
// Tags the components' own templates use; custom elements of the package are allowed too.
const TEMPLATE = new Set("P BUTTON DT DD DIV LABEL H2 H3 CODE INPUT DL SPAN TEXTAREA PRE UL LI OPTION SELECT MARK LEGEND FIELDSET FORM".split(" "));
function walk(root, out) {
  for (const el of root.querySelectorAll("*")) {
    out.push(el);
    if (el.shadowRoot) walk(el.shadowRoot, out);
  }
  return out;
}
async function settle(el) {
  for (let i = 0; i < 3; i++) {
    const all = [el, ...walk(el.shadowRoot, [])].filter((e) => e.updateComplete);
    await Promise.all(all.map((e) => e.updateComplete));
  }
}
// A control: an element that does what the package's must never do (server text as HTML), so a test can
// show the checks catch it.
customElements.define("fuzz-unsafe", class extends HTMLElement {
  connectedCallback() { this.attachShadow({ mode: "open" }).innerHTML = "<p>" + this.request.message + "</p>"; }
});
window.__run = async (cases) => {
  const failures = [];
  const root = document.querySelector("#root");
  for (const c of cases) {
    const el = document.createElement(c.tag);
    Object.assign(el, c.props);
    root.replaceChildren(el);
    await settle(el);
    const problems = [];
    for (const e of walk(el.shadowRoot, [])) {
      if (!TEMPLATE.has(e.tagName) && !e.tagName.startsWith("MCP-ELICIT-")) problems.push("element " + e.tagName);
      for (const a of e.attributes) {
        if (a.name.startsWith("on")) problems.push("attribute " + a.name + " on " + e.tagName);
        if (/^\\s*javascript:/i.test(a.value) && (a.name === "href" || a.name === "src" || a.name === "action" || a.name === "formaction")) problems.push("javascript: in " + a.name);
      }
    }
    const shown = [...el.shadowRoot.children].map((c) => c.innerText ?? "").join("\\n");
    for (const literal of c.literals) if (!shown.includes(literal)) problems.push("not shown literally: " + literal);
    if (window.__hits.length) problems.push("a payload ran: " + window.__hits.splice(0).join(", "));
    if (problems.length) failures.push({ index: cases.indexOf(c), problems });
  }
  // Payloads that would run late (an image's onerror after its load fails) are caught by the next batch's check.
  return failures;
};
`;

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>fuzz</title>
<script src="/harness.js"></script><script type="module" src="/elements.js"></script></head>
<body><div id="root"></div></body></html>`;

let browser: Browser;
let server: Server;
let scratch: string;
let page: Page;
const errors: string[] = [];
// Without Chromium the whole file is skipped, and its hooks set nothing up (test/helpers/needs.ts).
const skip = needs("chromium");

before(async () => {
  if (skip) return;
  scratch = mkdtempSync(join(tmpdir(), "mcp-elicit-fuzz-web-"));
  removeOnExit(scratch); // also when the file is cut before its after hooks
  await buildWeb({ outdir: scratch });
  const files: Record<string, [string, string | Buffer]> = {
    "/": ["text/html", PAGE],
    "/harness.js": ["text/javascript", HARNESS],
    "/elements.js": ["text/javascript", readFileSync(join(scratch, "elements.js"))],
  };
  server = createServer((req, res) => {
    const file = files[new URL(req.url ?? "/", "http://x").pathname];
    res.writeHead(file ? 200 : 404, { "content-type": file?.[0] ?? "text/plain" });
    res.end(file?.[1] ?? "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  browser = await launchChromium();
  page = await browser.newPage();
  page.on("pageerror", (e) => errors.push(e.message));
  // Every request the page makes besides its own files (an <img src=x> made from server text would ask for /x).
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (!(path in files)) errors.push(`the page requested ${r.url()}`);
  });
  await page.goto(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`);
  await page.waitForFunction(() => customElements.get("mcp-elicit-sampling-review") !== undefined);
});

after(async () => {
  await browser?.close();
  // A before that failed early left no server: closing nothing must not wait forever.
  if (server) await new Promise((resolve) => server.close(resolve));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A server text: a payload alone (checked to be shown literally), or payloads mixed with other text. */
const payload = fc.constantFrom(...INJECTIONS);
const serverText = fc.oneof(payload, hostileText(80));

const option = fc.record({ const: fc.string({ minLength: 1, maxLength: 6 }), title: serverText });
const field = fc.oneof(
  fc.record({ type: fc.constant("string"), title: serverText, description: serverText, default: serverText }),
  fc.record({ type: fc.constantFrom("number", "integer"), title: serverText, description: serverText, minimum: fc.constant(0) }),
  fc.record({ type: fc.constant("boolean"), title: serverText, description: serverText }),
  fc.record({ type: fc.constant("string"), title: serverText, enum: fc.array(serverText, { minLength: 1, maxLength: 4 }) }),
  fc.record({ type: fc.constant("string"), title: serverText, enum: fc.constant(["a", "b"]), enumNames: fc.tuple(serverText, serverText) }),
  fc.record({ type: fc.constant("string"), title: serverText, oneOf: fc.array(option, { minLength: 1, maxLength: 4 }) }),
  fc.record({
    type: fc.constant("array"),
    title: serverText,
    items: fc.record({ anyOf: fc.array(option, { minLength: 1, maxLength: 4 }) }),
  }),
  fc.record({
    type: fc.constant("array"),
    title: serverText,
    items: fc.record({ type: fc.constant("string"), enum: fc.array(serverText, { minLength: 1, maxLength: 3 }) }),
  }),
);
const schema = fc
  .array(fc.tuple(fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), payload), field), { minLength: 1, maxLength: 4 })
  .map((entries) => ({ type: "object", properties: Object.fromEntries(entries), required: entries.slice(0, 1).map(([k]) => k) }));

interface Case {
  tag: string;
  props: Record<string, unknown>;
  /** Texts the element must show exactly as they are. */
  literals: string[];
}

/** The payload of a message given alone, which must appear as text (sanitizing leaves markup characters be). */
const literal = (text: string) => (INJECTIONS.includes(text) ? [text] : []);

const formCase = fc
  .record({ message: serverText, schema, name: serverText, version: serverText })
  .map(({ message, schema, name, version }): Case => ({
    tag: "mcp-elicit-form",
    props: { request: { message, requestedSchema: schema, server: { name, version } } },
    literals: literal(message),
  }));
const urlCase = fc
  .record({
    message: serverText,
    url: fc.oneof(
      payload,
      payload.map((p) => `https://example.com/${p}`),
      fc.webUrl().map((u) => `${u}#${INJECTIONS[0]}`),
      serverText.map((t) => `https://example.com/?q=${t}`),
    ),
    name: serverText,
    phase: fc.constantFrom("consent", "waiting", "done"),
  })
  .map(({ message, url, name, phase }): Case => ({
    tag: "mcp-elicit-url-consent",
    props: { request: { message, url, server: { name } }, phase },
    literals: phase === "consent" ? literal(message) : [],
  }));
const samplingCase = fc
  .record({
    name: serverText,
    systemPrompt: serverText,
    messages: fc.array(fc.record({ role: fc.constantFrom("user", "assistant"), text: serverText }), { minLength: 1, maxLength: 3 }),
    modelHints: fc.array(serverText, { maxLength: 2 }),
    tools: fc.array(serverText, { maxLength: 2 }),
    model: serverText,
    answer: fc.option(
      fc.record({ model: serverText, text: serverText, stopReason: serverText, toolCalls: fc.array(serverText, { maxLength: 2 }) }),
      {
        nil: undefined,
      },
    ),
  })
  .map(({ name, systemPrompt, messages, modelHints, tools, model, answer }): Case => ({
    tag: "mcp-elicit-sampling-review",
    props: {
      request: { server: { name }, systemPrompt, messages, maxTokens: 100, modelHints, priorities: {}, tools, model },
      ...(answer ? { phase: "answer", answer } : {}),
    },
    literals: answer ? [] : literal(systemPrompt),
  }));

const BATCH = 50;

test("server text in the three elements stays text: no payload runs, no element is made from it", { skip }, async () => {
  const n = runs(1000);
  const batches = Math.max(1, Math.round(n / BATCH));
  let cases = 0;
  await measured("browser injection", batches * BATCH, () =>
    fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(formCase, urlCase, samplingCase), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        cases += batch.length;
        const failures = await page.evaluate((c) => (window as unknown as { __run(c: Case[]): Promise<unknown[]> }).__run(c), batch);
        assert.deepEqual(failures, []);
        assert.deepEqual(errors.splice(0), [], "errors or requests on the page");
      }),
      fcParams(batches),
    ),
  );
  // One more check for payloads that would have run late, after the last batch.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
  assert.deepEqual(await page.evaluate(() => (window as unknown as { __hits: string[] }).__hits), []);
  assert.ok(cases >= batches * BATCH);
});

test("the checks catch an element that renders server text as HTML", { skip }, async () => {
  const cases: Case[] = [
    { tag: "fuzz-unsafe", props: { request: { message: "<img src=x onerror=window.__pwned=1>" } }, literals: [] },
    { tag: "fuzz-unsafe", props: { request: { message: '<a href="javascript:void 0">x</a><b onclick="x">y</b>' } }, literals: [] },
    { tag: "fuzz-unsafe", props: { request: { message: "<i>literal</i>" } }, literals: ["<i>literal</i>"] },
  ];
  const failures = (await page.evaluate((c) => (window as unknown as { __run(c: Case[]): Promise<unknown[]> }).__run(c), cases)) as {
    index: number;
    problems: string[];
  }[];
  const late = await page.waitForFunction(() => (window as unknown as { __hits: string[] }).__hits.length > 0).then(() => true);
  assert.ok(late, "the image's onerror ran on the control page");
  await page.evaluate(() => (window as unknown as { __hits: string[] }).__hits.splice(0));
  assert.deepEqual(
    failures.map((f) => f.problems.map((p) => p.split(":")[0]!.split(" ").slice(0, 2).join(" "))),
    [
      ["element IMG", "attribute onerror"],
      ["element A", "javascript", "element B", "attribute onclick"],
      ["element I", "not shown"],
    ],
  );
  errors.splice(0);
});
