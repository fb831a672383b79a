// mcp-elicit/web/elements/url-consent (dist/web/elements/url-consent.js): <mcp-elicit-url-consent> alone. It
// carries the link analysis and tldts' public suffix list (most of its size), which the other elements do not.
import { McpElicitUrlConsent } from "../url-consent.js";
import { defineElement } from "../define.js";
import type { ElementAnswer, McpElicitUrlConsentElement } from "../types.js";

export { ANSWER_EVENT } from "../answer-event.js";
export type * from "../types.js";

defineElement("mcp-elicit-url-consent", McpElicitUrlConsent);

declare global {
  interface HTMLElementTagNameMap {
    "mcp-elicit-url-consent": McpElicitUrlConsentElement;
  }
  interface HTMLElementEventMap {
    "mcp-elicit-answer": CustomEvent<ElementAnswer>;
  }
}
