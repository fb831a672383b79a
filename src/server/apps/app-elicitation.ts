// App-rendered elicitation (SEP-3118, a draft; ext-apps#733): a form `elicitation/create` whose
// `_meta.ui.resourceUri` names the server's own UI resource, which a host that negotiated it renders instead of
// its flat form; the app answers the request with an ordinary ElicitResult. Negotiated on both sides through
// the UI extension: the server declares `extensions["io.modelcontextprotocol/ui"].elicitation`, the client
// declares form elicitation, the app MIME type and the same nested `elicitation`. Any failure on the host's
// side (the app did not load, did not answer, answered something the form does not accept) falls back to the
// host's native form: the request is an ordinary form request with a hint, so nothing here depends on the app.
// Behind `createElicitation({ appElicitation: true })` until the SEP settles.
import type { ClientCapabilities, McpServer } from "@modelcontextprotocol/server";
import { FORM_APP_URI, UI_EXTENSION, rendersApps } from "./ui-extension.js";

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether a caller renders form elicitations as apps: form elicitation, the app MIME type, and the UI extension's `elicitation`. */
export function rendersElicitationAsApp(capabilities: ClientCapabilities): boolean {
  const elicitation = capabilities.elicitation as Record<string, unknown> | undefined;
  // `elicitation: {}` (no modes named) is form support, as in 2025-06-18.
  const form = isObject(elicitation) && (Object.keys(elicitation).length === 0 || isObject(elicitation.form));
  if (!form || !rendersApps(capabilities)) return false;
  const ui = (capabilities as { extensions?: Record<string, unknown> }).extensions?.[UI_EXTENSION];
  return isObject(ui) && isObject(ui.elicitation);
}

/** A form request to a caller that renders it as an app names the kit's form app in `_meta.ui.resourceUri`; to any other, unchanged. */
export function appElicitationRequest(params: Record<string, unknown>, capabilities: ClientCapabilities): Record<string, unknown> {
  if (!rendersElicitationAsApp(capabilities) || (params.mode !== undefined && params.mode !== "form")) return params;
  const meta = isObject(params._meta) ? params._meta : {};
  const ui = isObject(meta.ui) ? meta.ui : {};
  return { ...params, _meta: { ...meta, ui: { ...ui, resourceUri: FORM_APP_URI } } };
}

// Module-level, keyed by the SDK's McpServer (not ours to add a field to): declared once, by any kit on it.
const declared = new WeakSet<McpServer>();

/**
 * Declares the server side of the negotiation (`extensions["io.modelcontextprotocol/ui"].elicitation`), once per
 * server. Before the server connects, as every capability: the kit's first tool is registered then.
 */
export function declareAppElicitation(server: McpServer): void {
  if (declared.has(server)) return;
  declared.add(server);
  server.server.registerCapabilities({ extensions: { [UI_EXTENSION]: { elicitation: {} } } });
}
