// The web components of mcp-elicit: importing this module (the bundle dist/web/elements.js, or
// `mcp-elicit/web/elements`) defines <mcp-elicit-form>, <mcp-elicit-url-consent> and
// <mcp-elicit-sampling-review>. Each takes its request as the `request` property and fires one
// `mcp-elicit-answer` event (bubbling, composed) per decision, with the decision as `detail`.
import { McpElicitForm } from "./form.js";
import { McpElicitSamplingReview } from "./sampling-review.js";
import { McpElicitUrlConsent } from "./url-consent.js";

export { ANSWER_EVENT } from "./answer-event.js";
export { McpElicitForm, type FormElementAnswer, type FormElementRequest } from "./form.js";
export {
  McpElicitUrlConsent,
  type UrlConsentAnswer,
  type UrlConsentPhase,
  type UrlConsentRequest,
  type UrlWaitAnswer,
} from "./url-consent.js";
export { McpElicitSamplingReview, type SamplingReviewPhase, type SamplingReviewRequest } from "./sampling-review.js";
export type { SamplingAnswerReview, SamplingAnswerView, SamplingRequestReview, SamplingRequestView } from "../../../client/ui.js";

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
    "mcp-elicit-form": McpElicitForm;
    "mcp-elicit-url-consent": McpElicitUrlConsent;
    "mcp-elicit-sampling-review": McpElicitSamplingReview;
  }
}
