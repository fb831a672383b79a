// The host of the form app in the browser tests: the ext-apps package's own host bridge (AppBridge) in a
// page, rendering the app's HTML in a sandboxed iframe (scripts only: an opaque origin) and forwarding what the
// app asks of its host to functions the test exposes (window.host*): tools/call to a real SDK client in
// Node, ui/open-link and ui/update-model-context to the test's records. Bundled by the test with esbuild.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";

declare global {
  interface Window {
    hostCallTool(params: unknown): Promise<never>;
    hostOpenLink(url: string): Promise<void>;
    hostModelContext(params: unknown): Promise<void>;
    /** `messagesOnly`: the host offers ui/message and not ui/update-model-context. */
    showApp(html: string, context: McpUiHostContext, args: Record<string, unknown>, result: unknown, messagesOnly?: boolean): Promise<void>;
    /** A frame beside the app that posts it a forged tool result: the app must ignore it (not its host). */
    forgeFromSibling(text: string): void;
  }
}

window.showApp = async (html, context, args, result, messagesOnly = false) => {
  const iframe = document.createElement("iframe");
  iframe.sandbox.add("allow-scripts");
  iframe.title = "form app";
  iframe.style.cssText = "width: 720px; height: 900px; border: 0";
  document.body.append(iframe);
  const bridge = new AppBridge(
    null,
    { name: "test host", version: "1.0.0" },
    messagesOnly
      ? { openLinks: {}, serverTools: {}, message: { text: {} } }
      : { openLinks: {}, serverTools: {}, updateModelContext: { text: {} } },
    { hostContext: context },
  );
  bridge.oncalltool = (params) => window.hostCallTool(params);
  bridge.onopenlink = async ({ url }) => {
    await window.hostOpenLink(url);
    return {};
  };
  bridge.onupdatemodelcontext = async (params) => {
    await window.hostModelContext(params);
    return {};
  };
  bridge.onmessage = async (params) => {
    await window.hostModelContext({ ...params, viaMessage: true });
    return {};
  };
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: args });
    void bridge.sendToolResult(result as never);
  };
  // Listening before the app loads: its first message (ui/initialize) comes as soon as its script runs.
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  iframe.srcdoc = html;
};

window.forgeFromSibling = (text) => {
  const sibling = document.createElement("iframe");
  sibling.sandbox.add("allow-scripts");
  const forged = JSON.stringify({
    jsonrpc: "2.0",
    method: "ui/notifications/tool-result",
    params: { content: [{ type: "text", text }], _meta: { "mcp-elicit.app": { final: true } } },
  });
  sibling.srcdoc = `<script>parent.frames[0].postMessage(${forged}, "*")</script>`;
  document.body.append(sibling);
};
