// The web components of mcp-elicit: importing this module (the bundle dist/web/elements.js, or
// `mcp-elicit/web/elements`) defines <mcp-elicit-form>, <mcp-elicit-url-consent> and
// <mcp-elicit-sampling-review>. Each takes its request as the `request` property and fires one
// `mcp-elicit-answer` event (bubbling, composed) per decision, with the decision as `detail`.
// Each element also has an entry of its own (./entries/, dist/web/elements/NAME.js) that carries only what
// it uses: a page that shows forms only need not load the link analysis and its public suffix list.
// Only types and the event name are exported: the elements are used through the DOM, and their types
// (./types.ts) do not need Lit, which is inside the bundle.
import "./entries/form.js";
import "./entries/url-consent.js";
import "./entries/sampling-review.js";
import type { ElementAnswer, McpElicitFormElement, McpElicitSamplingReviewElement, McpElicitUrlConsentElement } from "./types.js";

export { ANSWER_EVENT } from "./answer-event.js";
export type * from "./types.js";

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
