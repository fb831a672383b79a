// The MCP Apps extension (io.modelcontextprotocol/ui, SEP-1865) as this kit uses it: the names on the wire,
// and which callers get their questions as an app. A caller that declared the extension with the app MIME
// type and no elicitation at all renders apps but cannot be asked (claude.ai, Claude Desktop, ChatGPT): its
// ctx.elicit and ctx.elicitUrl are answered in the kit's form app instead of failing.
import type { ClientCapabilities } from "@modelcontextprotocol/server";

/** The extension's id in `capabilities.extensions`. */
export const UI_EXTENSION = "io.modelcontextprotocol/ui";
/** The MIME type of an MCP App's HTML resource. */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";
/** The kit's form app: the resource each app-answered tool lists in `_meta.ui.resourceUri`. */
export const FORM_APP_URI = "ui://elicit/form-app.html";
/** The app-only tool the form app answers through (`_meta.ui.visibility: ["app"]`). */
export const ANSWER_TOOL = "elicit_answer";
/** The key in a tool result's `_meta` that carries the question and the call's sealed state to the app. */
export const APP_META_KEY = "mcp-elicit.app";

/** Whether `capabilities` declare the UI extension with the MCP App MIME type (the only kind of UI the kit has). */
export function rendersApps(capabilities: ClientCapabilities): boolean {
  const extensions = (capabilities as { extensions?: unknown }).extensions;
  if (!extensions || typeof extensions !== "object") return false;
  const ui = Object.hasOwn(extensions, UI_EXTENSION) ? (extensions as Record<string, unknown>)[UI_EXTENSION] : undefined;
  const mimeTypes = (ui as { mimeTypes?: unknown } | null | undefined)?.mimeTypes;
  return Array.isArray(mimeTypes) && mimeTypes.includes(APP_MIME_TYPE);
}

/** Whether a caller's questions go to the form app: it renders apps and declared no elicitation. */
export function answeredByApp(capabilities: ClientCapabilities): boolean {
  return capabilities.elicitation === undefined && rendersApps(capabilities);
}
