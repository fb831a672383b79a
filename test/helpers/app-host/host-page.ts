// The page that plays a web host of MCP Apps, bundled for Chromium by test/helpers/app-host.ts. It runs
// ext-apps' own host bridge (AppBridge) as the ext-apps docs prescribe for a web host: the View's HTML goes
// to a sandbox proxy on another origin (sandbox-proxy.ts), which loads it in an inner sandboxed iframe, and
// every message between View and host crosses that proxy. Requests the View sends to the server (tools/call,
// resources/read) go to Node through bindings, where a real SDK client sends them over Streamable HTTP.
import {
  AppBridge,
  PostMessageTransport,
  SANDBOX_PROXY_READY_METHOD,
  type McpUiHostContext,
  type McpUiResourceCsp,
  type McpUiResourcePermissions,
} from "@modelcontextprotocol/ext-apps/app-bridge";

/** What Node gives the page to render one View (everything JSON). */
export interface RenderRequest {
  id: number;
  html: string;
  csp?: McpUiResourceCsp;
  permissions?: McpUiResourcePermissions;
  /** The inner iframe's sandbox attribute (the View's own frame). */
  sandbox: string;
  sandboxUrl: string;
  hostContext: McpUiHostContext;
  toolInput: Record<string, unknown>;
}

/** The bindings test/helpers/app-host.ts exposes (page.exposeFunction); each returns the answer for the View. */
interface NodeSide {
  __appHostCallTool(id: number, params: unknown): Promise<unknown>;
  __appHostReadResource(id: number, params: unknown): Promise<unknown>;
  __appHostRecord(id: number, method: string, params: unknown): Promise<unknown>;
}

const node = window as unknown as NodeSide & Window;
const HOST_INFO = { name: "mcp-elicit test host", version: "1.0.0" };
const bridges = new Map<number, AppBridge>();

/** The proxy frame posts sandbox-proxy-ready once it listens; resolved for exactly that frame. */
function proxyReady(frame: HTMLIFrameElement): Promise<void> {
  return new Promise((resolve) => {
    const listener = (event: MessageEvent) => {
      if (event.source === frame.contentWindow && event.data?.method === SANDBOX_PROXY_READY_METHOD) {
        window.removeEventListener("message", listener);
        resolve();
      }
    };
    window.addEventListener("message", listener);
  });
}

async function render(request: RenderRequest): Promise<void> {
  const frame = document.createElement("iframe");
  frame.id = `view-${request.id}`;
  frame.title = `MCP App ${request.id}`;
  // The spec's sandbox for the proxy: scripts, and its own (other) origin.
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  const ready = proxyReady(frame);
  const url = new URL(request.sandboxUrl);
  if (request.csp) url.searchParams.set("csp", JSON.stringify(request.csp));
  frame.src = url.href;
  document.querySelector("#views")!.append(frame);
  await ready;

  const bridge = new AppBridge(
    null,
    HOST_INFO,
    {
      openLinks: {},
      serverTools: {},
      serverResources: {},
      updateModelContext: { text: {}, structuredContent: {} },
      message: { text: {} },
      logging: {},
    },
    { hostContext: request.hostContext },
  );
  const { id } = request;
  bridge.oncalltool = (params) => node.__appHostCallTool(id, params) as never;
  bridge.onreadresource = (params) => node.__appHostReadResource(id, params) as never;
  bridge.onupdatemodelcontext = (params) => node.__appHostRecord(id, "ui/update-model-context", params) as never;
  bridge.onmessage = (params) => node.__appHostRecord(id, "ui/message", params) as never;
  bridge.onopenlink = (params) => node.__appHostRecord(id, "ui/open-link", params) as never;
  bridge.addEventListener("sizechange", ({ height }) => {
    if (height !== undefined) frame.style.height = `${height}px`;
  });
  const initialized = new Promise<void>((resolve) => bridge.addEventListener("initialized", () => resolve()));
  // Both target and source are the proxy's window: the bridge hears no other frame.
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  bridges.set(id, bridge);
  await bridge.sendSandboxResourceReady({
    html: request.html,
    sandbox: request.sandbox,
    ...(request.csp ? { csp: request.csp } : {}),
    ...(request.permissions ? { permissions: request.permissions } : {}),
  });
  await initialized;
  await bridge.sendToolInput({ arguments: request.toolInput });
}

const host = {
  render,
  async toolResult(id: number, result: unknown) {
    await bridges.get(id)!.sendToolResult(result as never);
  },
  async toolCancelled(id: number, reason: string) {
    await bridges.get(id)!.sendToolCancelled({ reason });
  },
  async setHostContext(id: number, context: McpUiHostContext) {
    bridges.get(id)!.setHostContext(context);
  },
  /** A ping through the proxy and back: every message posted to the View before it has been handled. */
  async ping(id: number) {
    await bridges.get(id)!.request({ method: "ping" });
  },
  async teardown(id: number) {
    await bridges.get(id)!.teardownResource({});
  },
};

(window as unknown as { appHost: typeof host }).appHost = host;
document.body.dataset.ready = "true";
