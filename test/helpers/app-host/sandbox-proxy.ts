// The sandbox proxy of the test host (the MCP Apps spec, "Sandbox proxy"): served from another origin than
// the host page, with the View's Content-Security-Policy as an HTTP header (test/helpers/app-host.ts builds
// it from the resource's _meta.ui.csp). It loads the View's HTML into an inner sandboxed iframe (srcdoc,
// which inherits this page's CSP) and relays messages both ways, hearing only its parent (at the host's
// origin) and its own inner frame.
// The two method names are written out (the spec's own), so this page loads no library.
const SANDBOX_PROXY_READY_METHOD = "ui/notifications/sandbox-proxy-ready";
const SANDBOX_RESOURCE_READY_METHOD = "ui/notifications/sandbox-resource-ready";

const hostOrigin = new URL(document.referrer).origin;
const inner = document.createElement("iframe");
inner.title = "MCP App";
inner.style.cssText = "display:block;width:100%;height:100%;border:0";
document.body.append(inner);

window.addEventListener("message", (event) => {
  if (event.source === window.parent && event.origin === hostOrigin) {
    const data = event.data as { method?: string; params?: Record<string, unknown> } | undefined;
    if (data?.method === SANDBOX_RESOURCE_READY_METHOD) {
      const { html, sandbox, permissions } = data.params ?? {};
      if (typeof sandbox === "string") inner.setAttribute("sandbox", sandbox);
      const allow = Object.keys((permissions as object) ?? {})
        .map((p) => p.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))
        .join("; ");
      if (allow) inner.setAttribute("allow", allow);
      if (typeof html === "string") inner.srcdoc = html;
      return;
    }
    // Nothing else named ui/notifications/sandbox-* is for the View.
    if (typeof data?.method === "string" && data.method.startsWith("ui/notifications/sandbox-")) return;
    inner.contentWindow?.postMessage(event.data, "*");
  } else if (event.source === inner.contentWindow && event.source !== null) {
    window.parent.postMessage(event.data, hostOrigin);
  }
});

window.parent.postMessage({ jsonrpc: "2.0", method: SANDBOX_PROXY_READY_METHOD, params: {} }, hostOrigin);
