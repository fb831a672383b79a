// A real host of MCP Apps for browser tests: ext-apps' own host bridge (AppBridge) runs in a page that
// plays a web host in headless Chromium (test/helpers/app-host/host-page.ts). A tool's UI resource, read
// from the server with resources/read, is rendered through a sandbox proxy on another origin into a
// sandboxed iframe; the tool's input and result are passed to the View; the View's tools/call and
// resources/read reach the server through a real SDK client here in Node, over Streamable HTTP, that
// declares the UI extension and no elicitation. What the View sends the host (ui/update-model-context,
// ui/message, ui/open-link) is recorded; the test decides what opening a link does.
//
//   const host = await appHost({ browser, server: http.url, revision: "2026-07-28" });
//   const view = await host.callTool("greet", { name: "Ada" });
//   await view.frame.getByRole("button", { name: "Count" }).click();
//   const context = await view.next("ui/update-model-context");
import { Client, StreamableHTTPClientTransport, type CallToolResult, type Tool } from "@modelcontextprotocol/client";
import {
  RESOURCE_MIME_TYPE,
  getToolUiResourceUri,
  type McpUiHostContext,
  type McpUiResourceMeta,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import type { Browser, Frame, FrameLocator, Page } from "playwright-core";
import type { ProtocolRevision } from "../../src/schema/types.js";
import { within } from "./deferred.js";
import { clientFor, tap, type WireMessage } from "./mcp.js";
import type { RenderRequest } from "./app-host/host-page.js";
import { startOrigins, viewCsp, type HostOrigins } from "./app-host/pages.js";
import { hostContextFor, type Theme } from "./app-host/theme.js";

export { viewCsp } from "./app-host/pages.js";
export type { Theme };

/** The capabilities of a host that renders MCP Apps and cannot be asked (claude.ai's): the UI extension only. */
export const UI_ONLY_CAPABILITIES = {
  extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } },
};

/** What a View sent the host, in order. */
export interface Sent {
  view: number;
  method: "ui/update-model-context" | "ui/message" | "ui/open-link";
  params: Record<string, any>;
}

/** A tools/call a View sent through the host, and what the server answered (or why the host refused it). */
export interface AppToolCall {
  view: number;
  params: { name: string; arguments?: Record<string, unknown> };
  result?: CallToolResult;
  error?: string;
}

export interface AppHostOptions {
  browser: Browser;
  /** The MCP endpoint (Streamable HTTP on 127.0.0.1). */
  server: URL;
  revision: ProtocolRevision;
  theme?: Theme;
  /** What the host does with a View's ui/open-link (after recording it); default: nothing more. */
  openLink?: (url: string) => void | Promise<void>;
  /**
   * How the host forwards a View's (allowed) tools/call: `send` sends it to the server once. Default: send and
   * answer. A test can drop the answer (send, then throw) as a host whose connection broke would.
   */
  forward?: (params: AppToolCall["params"], send: () => Promise<CallToolResult>) => Promise<CallToolResult>;
  /** The client's capabilities; default UI_ONLY_CAPABILITIES. */
  capabilities?: Record<string, unknown>;
  /** The View's own iframe sandbox; default "allow-scripts allow-forms" (an opaque origin). */
  viewSandbox?: string;
  viewport?: { width: number; height: number };
}

export interface AppView {
  id: number;
  tool: Tool;
  /** The result of the tool call that opened this View (as the model would get it). */
  result: CallToolResult;
  /** The View's own frame, inside the sandbox proxy: click and type here. */
  frame: Frame;
  /** The same frame as a locator from the host page (for screenshots of the iframe element: `element`). */
  locator: FrameLocator;
  /** The iframe element in the host page that holds the proxy and the View. */
  element: ReturnType<Page["locator"]>;
  /** Everything this View sent the host so far. */
  sent(method?: Sent["method"]): Record<string, any>[];
  /** The params of the next `method` this View sent that no earlier next() returned, waiting for it if need be. */
  next(method: Sent["method"], options?: { timeoutMs?: number }): Promise<Record<string, any>>;
  /** A ping from the host through the proxy to the View and back: everything posted to the View before it was handled. */
  ping(): Promise<void>;
  /**
   * Posts `message` from a frame of another origin in the host page (not the host): to the View, or to the
   * sandbox proxy that holds it (as if it came from the host).
   */
  postFromAnotherFrame(message: unknown, to?: "view" | "proxy"): Promise<void>;
  /** Sends the View a new host context (theme and its variables) and switches the page's color scheme. */
  setTheme(theme: Theme): Promise<void>;
}

export interface AppHost {
  page: Page;
  client: Client;
  /** Every JSON-RPC message between the SDK client and the server. */
  wire: WireMessage[];
  sent: Sent[];
  appToolCalls: AppToolCall[];
  /** Console errors and uncaught exceptions of the page and its frames. */
  errors: string[];
  /** Console messages of every frame, as "type: text". */
  console: string[];
  origins: HostOrigins;
  /** Calls a tool as the model would, then renders its UI resource and gives the View the input and the result. */
  callTool(name: string, args?: Record<string, unknown>): Promise<AppView>;
  /** The tools of the server as the host holds them (visibility included). */
  tools(): Promise<Tool[]>;
  close(): Promise<void>;
}

const visibility = (tool: Tool): string[] => (tool._meta?.ui as { visibility?: string[] } | undefined)?.visibility ?? ["model", "app"];

/** Starts the host: its origins, its page in `browser`, and an SDK client connected to `server`. */
export async function appHost(options: AppHostOptions): Promise<AppHost> {
  const origins = await startOrigins();
  const wire: WireMessage[] = [];
  const client = clientFor(options.revision, options.capabilities ?? UI_ONLY_CAPABILITIES);
  await client.connect(tap(new StreamableHTTPClientTransport(options.server), wire));
  const page = await options.browser.newPage({ viewport: options.viewport ?? { width: 720, height: 900 } });
  page.setDefaultTimeout(15_000);
  let theme = options.theme ?? "light";
  await page.emulateMedia({ colorScheme: theme });
  const sent: Sent[] = [];
  const appToolCalls: AppToolCall[] = [];
  const errors: string[] = [];
  const consoleLines: string[] = [];
  const waiters = new Set<() => void>();
  const changed = () => waiters.forEach((w) => w());
  page.on("console", (m) => {
    consoleLines.push(`${m.type()}: ${m.text()}`);
    if (m.type() === "error") errors.push(m.text());
    changed();
  });
  page.on("pageerror", (e) => errors.push(e.message));

  let listed: Tool[] | undefined;
  const tools = async () => (listed ??= (await client.listTools()).tools);

  await page.exposeFunction("__appHostCallTool", async (view: number, params: AppToolCall["params"]) => {
    const call: AppToolCall = { view, params };
    appToolCalls.push(call);
    try {
      const tool = (await tools()).find((t) => t.name === params?.name);
      // The spec: a host MUST reject a View's tools/call of a tool whose visibility leaves out "app".
      if (!tool || !visibility(tool).includes("app")) throw new Error(`tools/call: ${params?.name} is not a tool this app may call`);
      const send = async () =>
        (call.result = (await client.callTool({ name: params.name, arguments: params.arguments ?? {} })) as CallToolResult);
      return await (options.forward ?? ((_params, send) => send()))(params, send);
    } catch (error) {
      call.error = (error as Error).message;
      throw error;
    } finally {
      changed();
    }
  });
  await page.exposeFunction("__appHostReadResource", (_view: number, params: { uri: string }) => client.readResource({ uri: params.uri }));
  await page.exposeFunction("__appHostRecord", async (view: number, method: Sent["method"], params: Record<string, any>) => {
    sent.push({ view, method, params });
    changed();
    if (method === "ui/open-link") await options.openLink?.(String(params.url));
    return {};
  });
  await page.goto(origins.hostUrl.href);
  await page.waitForFunction(() => document.body.dataset.ready === "true");

  let nextId = 0;
  async function callTool(name: string, args: Record<string, unknown> = {}): Promise<AppView> {
    const tool = (await tools()).find((t) => t.name === name);
    if (!tool) throw new Error(`no tool ${name} on the server`);
    const uri = getToolUiResourceUri(tool);
    if (!uri) throw new Error(`tool ${name} names no UI resource (_meta.ui.resourceUri)`);
    const resultPromise = client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
    // The result may fail; the View is rendered either way, and the failure reported after.
    resultPromise.catch(() => {});
    const read = await client.readResource({ uri });
    const content = read.contents[0] as { mimeType?: string; text?: string; blob?: string; _meta?: { ui?: McpUiResourceMeta } };
    if (read.contents.length !== 1 || content.mimeType !== RESOURCE_MIME_TYPE) {
      throw new Error(
        `resources/read ${uri}: expected one ${RESOURCE_MIME_TYPE} content, got ${JSON.stringify(read.contents.map((c) => c.mimeType))}`,
      );
    }
    const html = content.text ?? Buffer.from(content.blob ?? "", "base64").toString("utf8");
    const id = nextId++;
    const request: RenderRequest = {
      id,
      html,
      ...(content._meta?.ui?.csp ? { csp: content._meta.ui.csp } : {}),
      ...(content._meta?.ui?.permissions ? { permissions: content._meta.ui.permissions } : {}),
      sandbox: options.viewSandbox ?? "allow-scripts allow-forms",
      sandboxUrl: origins.sandboxUrl.href,
      hostContext: { ...hostContextFor(theme), toolInfo: { tool } } as McpUiHostContext,
      toolInput: args,
    };
    // A declared domain that is no origin is refused here, naming it, before anything is shown.
    viewCsp(request.csp);
    // As JSON: Playwright's typing of an argument this deep does not terminate. A View that never
    // initializes fails the call by name instead of hanging the file.
    await within(
      page.evaluate((json) => (window as any).appHost.render(JSON.parse(json)), JSON.stringify(request)),
      20_000,
      `the View of ${name} (${uri}) to load and initialize`,
    );
    let result: CallToolResult;
    try {
      result = await resultPromise;
    } catch (error) {
      await page.evaluate(([i, reason]) => (window as any).appHost.toolCancelled(i, reason), [id, String(error)] as const);
      throw error;
    }
    await page.evaluate(([i, r]) => (window as any).appHost.toolResult(i, r), [id, result] as const);
    const element = page.locator(`#view-${id}`);
    const proxy = await (await element.elementHandle())!.contentFrame();
    const frame = await (await proxy!.waitForSelector("iframe", { state: "attached" })).contentFrame();
    const mine = () => sent.filter((s) => s.view === id);
    // How many of each method next() has handed out: each call takes the next one, sent before or after.
    const taken = new Map<Sent["method"], number>();
    return {
      id,
      tool,
      result,
      frame: frame!,
      locator: page.frameLocator(`#view-${id}`).frameLocator("iframe"),
      element,
      sent: (method) =>
        mine()
          .filter((s) => !method || s.method === method)
          .map((s) => s.params),
      async next(method, { timeoutMs = 15_000 } = {}) {
        const index = taken.get(method) ?? 0;
        taken.set(method, index + 1);
        const found = () => mine().filter((s) => s.method === method)[index]?.params;
        let wake = () => {};
        const arrived = new Promise<Record<string, any>>((resolve) => {
          wake = () => {
            const params = found();
            if (params) resolve(params);
          };
          waiters.add(wake);
          wake();
        });
        try {
          return await within(arrived, timeoutMs, `the View to send ${method} #${index + 1}`);
        } finally {
          waiters.delete(wake);
        }
      },
      ping: () => page.evaluate((i) => (window as any).appHost.ping(i), id),
      async postFromAnotherFrame(message, to = "view") {
        const other = await otherFrame(page, origins.otherUrl.href);
        const index = await page.evaluate(
          (i) => [...document.querySelectorAll("iframe")].indexOf(document.getElementById(`view-${i}`) as HTMLIFrameElement),
          id,
        );
        // From a frame of a third origin: the proxy's window is frames[index] of the top page, the View's its frames[0].
        await other.evaluate(
          ([i, m, toView]) => {
            const proxy = window.top!.frames[i as number]!;
            (toView ? proxy.frames[0]! : proxy).postMessage(m, "*");
          },
          [index, message, to === "view"] as const,
        );
      },
      async setTheme(next) {
        theme = next;
        await page.emulateMedia({ colorScheme: next });
        const context = JSON.stringify(hostContextFor(next));
        await page.evaluate(([i, c]) => (window as any).appHost.setHostContext(i, JSON.parse(c)), [id, context] as const);
      },
    };
  }

  return {
    page,
    client,
    wire,
    sent,
    appToolCalls,
    errors,
    console: consoleLines,
    origins,
    callTool,
    tools,
    async close() {
      await page.close().catch(() => {});
      await client.close().catch(() => {});
      origins.close();
    },
  };
}

/** The frame of the third origin in the host page, added on first use. */
async function otherFrame(page: Page, url: string): Promise<Frame> {
  const existing = page.frames().find((f) => f.url() === url);
  if (existing) return existing;
  await page.evaluate((src) => {
    const frame = document.createElement("iframe");
    frame.src = src;
    frame.title = "another frame";
    document.querySelector("#others")!.append(frame);
    return new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
  }, url);
  return page.frames().find((f) => f.url() === url)!;
}
