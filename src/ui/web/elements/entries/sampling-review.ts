// mcp-elicit/web/elements/sampling-review (dist/web/elements/sampling-review.js): <mcp-elicit-sampling-review>
// alone, without the form's schema engine or the link analysis.
import { McpElicitSamplingReview } from "../sampling-review.js";
import { defineElement } from "../define.js";
import type { ElementAnswer, McpElicitSamplingReviewElement } from "../types.js";

export { ANSWER_EVENT } from "../answer-event.js";
export type * from "../types.js";

defineElement("mcp-elicit-sampling-review", McpElicitSamplingReview);

declare global {
  interface HTMLElementTagNameMap {
    "mcp-elicit-sampling-review": McpElicitSamplingReviewElement;
  }
  interface HTMLElementEventMap {
    "mcp-elicit-answer": CustomEvent<ElementAnswer>;
  }
}
