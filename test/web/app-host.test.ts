// The test host of MCP Apps (test/helpers/app-host.ts) proven on a minimal app of its own
// (test/fixtures/mcp-app/): ext-apps' AppBridge in a host page in Chromium renders the tool's UI resource
// through a sandbox proxy on another origin into a sandboxed iframe, forwards the View's tools/call to the
// server through a real SDK client over Streamable HTTP, records what the View sends the host, and the
// View hears only its host.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { serveHttp } from "../../src/server/http/serve.js";
import type { HttpServerHandle } from "../../src/server/http/options.js";
import { appHost, viewCsp, type AppHost, type AppView } from "../helpers/app-host.js";
import { waitFor } from "../helpers/deferred.js";
import { needs } from "../helpers/needs.js";
import { fixtureServer, type FixtureLog } from "../fixtures/mcp-app/server.js";
import { launchChromium } from "../helpers/chromium.js";

for (const revision of ["2025-11-25", "2026-07-28"] as const) {
  describe(`test host of MCP Apps, ${revision}`, { skip: needs("chromium") }, () => {
    let browser: Browser;
    let http: HttpServerHandle;
    let host: AppHost;
    let view: AppView;
    const log: FixtureLog = { clicks: [], modelOnly: 0 };
    const opened: string[] = [];

    before(async () => {
      http = await serveHttp(await fixtureServer(log));
      browser = await launchChromium();
      host = await appHost({ browser, server: http.url, revision, openLink: (url) => void opened.push(url) });
      view = await host.callTool("greet", { name: "Ada" });
    });
    after(async () => {
      await host?.close();
      await browser?.close();
      await http?.close();
    });

    test("the View renders the tool's input and result in a sandboxed iframe behind a proxy of another origin", async () => {
      await view.frame.getByText("Hello, Ada!").waitFor();
      assert.equal(await view.frame.locator("#input").textContent(), 'Input: {"name":"Ada"}');
      assert.equal(view.result.content[0]?.type === "text" && view.result.content[0].text, "Hello, Ada!");
      // The View's frame has an opaque origin and cannot reach the host page; the proxy is on another origin.
      assert.equal(await view.frame.evaluate(() => window.origin), "null");
      assert.equal(
        await view.frame.evaluate(() => {
          try {
            return window.top!.document.title;
          } catch {
            return "blocked";
          }
        }),
        "blocked",
      );
      const proxy = view.frame.parentFrame()!;
      assert.equal(new URL(proxy.url()).origin, host.origins.sandboxUrl.origin);
      assert.notEqual(host.origins.sandboxUrl.origin, host.origins.hostUrl.origin);
      assert.equal(await proxy.locator("iframe").getAttribute("sandbox"), "allow-scripts allow-forms");
      assert.equal(await view.element.getAttribute("sandbox"), "allow-scripts allow-same-origin allow-forms");
      // The resource declared no CSP: the spec's restrictive default was enforced.
      assert.deepEqual(host.origins.cspServed, [viewCsp()]);
      assert.match(host.origins.cspServed[0]!, /connect-src 'none'/);
    });

    test("the button's tools/call reaches the server through the SDK client, and the model context is recorded", async () => {
      await view.frame.getByRole("button", { name: "Count" }).click();
      const context = await view.next("ui/update-model-context");
      assert.deepEqual(context.structuredContent, { clicks: 1 });
      assert.deepEqual(context.content, [{ type: "text", text: "The person clicked 1 time(s)." }]);
      await view.frame.getByText("Clicks: 1").waitFor();
      assert.deepEqual(log.clicks, [{ from: "button" }]);
      assert.deepEqual(
        host.appToolCalls.map((c) => [c.params.name, c.result?.structuredContent]),
        [["count_click", { clicks: 1 }]],
      );
      // On the wire between the SDK client and the server: the View's call, from a client that declared the
      // UI extension and not elicitation.
      const calls = host.wire.filter((m) => m.dir === "out" && m.message.method === "tools/call");
      assert.deepEqual(
        calls.map((m) => m.message.params.name),
        ["greet", "count_click"],
      );
      const declared = declaredCapabilities(host, revision);
      assert.deepEqual(declared.extensions, { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } });
      assert.equal(declared.elicitation, undefined);
    });

    test("the host refuses the View a tool whose visibility leaves out the app", async () => {
      await view.frame.getByRole("button", { name: "Call a model-only tool" }).click();
      await view.frame.getByText(/^Refused: .*model_only is not a tool this app may call/).waitFor();
      assert.equal(log.modelOnly, 0);
      assert.match(host.appToolCalls.at(-1)!.error!, /model_only/);
    });

    test("ui/open-link and ui/message are recorded, and the test decides what opening a link does", async () => {
      await view.frame.getByRole("button", { name: "Open receipt" }).click();
      assert.deepEqual(await view.next("ui/open-link"), { url: "https://example.com/receipt" });
      assert.deepEqual(opened, ["https://example.com/receipt"]);
      await view.frame.getByRole("button", { name: "Ask the model" }).click();
      const message = await view.next("ui/message");
      assert.deepEqual(message, { role: "user", content: [{ type: "text", text: "Show my receipt" }] });
    });

    test("a message posted to the View from another frame is ignored, and so is one posted to the proxy", async () => {
      const forged = { jsonrpc: "2.0", method: "ui/notifications/tool-result", params: { content: [{ type: "text", text: "FORGED" }] } };
      const seen = host.console.length;
      await view.postFromAnotherFrame(forged);
      // ext-apps' App logs each message it drops; wait for that, then for a ping from the host to come back.
      await waitFor(() => host.console.slice(seen).some((l) => l.includes("Ignoring message from unknown source")), {
        what: "the View to drop the forged message",
      });
      await view.postFromAnotherFrame(forged, "proxy");
      await view.postFromAnotherFrame(
        { jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready", params: { html: "FORGED" } },
        "proxy",
      );
      await view.ping();
      assert.equal(await view.frame.locator("#result").textContent(), "Hello, Ada!");
      assert.equal(await view.frame.getByText("FORGED").count(), 0);
      assert.equal(host.sent.filter((s) => JSON.stringify(s.params).includes("FORGED")).length, 0);
    });

    test("the host enforces the domains a resource declares, and refuses one that is no origin", async () => {
      const api = await host.callTool("greet_api");
      await api.frame.getByText("Hello, CSP!").waitFor();
      assert.match(host.origins.cspServed.at(-1)!, /connect-src https:\/\/api\.example\.com;/);
      await assert.rejects(
        host.callTool("greet_smuggle"),
        /_meta\.ui\.csp\.connectDomains: "https:\/\/a\.example; script-src \*" is not an origin/,
      );
    });

    test("the View follows the host's theme", async () => {
      await view.setTheme("dark");
      await waitFor(async () => (await view.frame.evaluate(() => document.documentElement.dataset.theme)) === "dark", {
        what: "the View to take the dark theme",
      });
      assert.deepEqual(host.errors, []);
    });
  });
}

/** The client capabilities the server was told: in initialize (2025), in each request's _meta (2026-07-28). */
function declaredCapabilities(host: AppHost, revision: string): Record<string, unknown> {
  const out = host.wire.filter((m) => m.dir === "out");
  if (revision !== "2026-07-28") return out.find((m) => m.message.method === "initialize")!.message.params.capabilities;
  const call = out.find((m) => m.message.method === "tools/call")!.message;
  const meta = call.params._meta as Record<string, any>;
  const key = Object.keys(meta).find((k) => k.endsWith("clientCapabilities"));
  assert.ok(key, `no client capabilities in ${JSON.stringify(meta)}`);
  return meta[key];
}
