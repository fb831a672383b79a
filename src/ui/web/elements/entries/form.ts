// mcp-elicit/web/elements/form (dist/web/elements/form.js): <mcp-elicit-form> alone, without the link
// analysis (its public suffix list) or the sampling review. See ../index.ts for the whole bundle.
import { McpElicitForm } from "../form.js";
import { defineElement } from "../define.js";
import type { ElementAnswer, McpElicitFormElement } from "../types.js";

export { ANSWER_EVENT } from "../answer-event.js";
export type * from "../types.js";

defineElement("mcp-elicit-form", McpElicitForm);

declare global {
  interface HTMLElementTagNameMap {
    "mcp-elicit-form": McpElicitFormElement;
  }
  interface HTMLElementEventMap {
    "mcp-elicit-answer": CustomEvent<ElementAnswer>;
  }
}
