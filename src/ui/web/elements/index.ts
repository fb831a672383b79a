// The web components of mcp-elicit: importing this module (the bundle dist/web/elements.js, or
// `mcp-elicit/web/elements`) defines <mcp-elicit-form>, <mcp-elicit-url-consent> and
// <mcp-elicit-sampling-review>. Each takes its request as the `request` property and fires one
// `mcp-elicit-answer` event (bubbling, composed) per decision, with the decision as `detail`.
// Only types and the event name are exported: the elements are used through the DOM, and their types
// (./types.ts) do not need Lit, which is inside the bundle.
import { McpElicitForm } from "./form.js";
import { McpElicitSamplingReview } from "./sampling-review.js";
import { McpElicitUrlConsent } from "./url-consent.js";
import type { ElementAnswer, McpElicitFormElement, McpElicitSamplingReviewElement, McpElicitUrlConsentElement } from "./types.js";

export { ANSWER_EVENT } from "./answer-event.js";
export type * from "./types.js";

// A page that loads the bundle twice (or defines a name first) keeps its definition instead of throwing.
for (const [name, element] of [
  ["mcp-elicit-form", McpElicitForm],
  ["mcp-elicit-url-consent", McpElicitUrlConsent],
  ["mcp-elicit-sampling-review", McpElicitSamplingReview],
] as const) {
  if (typeof customElements !== "undefined" && !customElements.get(name)) customElements.define(name, element);
}

declare global {
  interface HTMLElementTagNameMap {
    "mcp-elicit-form": McpElicitFormElement;
    "mcp-elicit-url-consent": McpElicitUrlConsentElement;
    "mcp-elicit-sampling-review": McpElicitSamplingReviewElement;
  }
  interface HTMLElementEventMap {
    "mcp-elicit-answer": CustomEvent<ElementAnswer>;
  }
}
