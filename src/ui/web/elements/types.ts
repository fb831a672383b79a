// What a page sees of the elements: their requests, answers and properties. Kept apart from the Lit classes so
// that a host's TypeScript gets these types without Lit installed (Lit is inside the bundle, not a dependency).
import type { FormAnswer } from "../../../common/form-answer.js";
import type { SamplingAnswerReview, SamplingAnswerView, SamplingRequestReview, SamplingRequestView } from "../../../client/ui.js";

export type { SamplingAnswerReview, SamplingAnswerView, SamplingRequestReview, SamplingRequestView };

export interface FormElementRequest {
  /** Why the server asks. */
  message: string;
  /** The form's JSON schema, as the server sent it. */
  requestedSchema: object;
  server: { name: string; version?: string };
  /**
   * A form of the host's own (a menu, a tool's arguments): headed by `title`, with no Decline and no review
   * step: its one button, labelled `submitLabel` (default "Send"), checks and sends.
   */
  own?: { title: string; submitLabel?: string };
  /**
   * The server's own secure page (URL mode's hosted form), where a card number or a password belongs: the
   * warning that a field looks like it asks for a secret (right for forms that pass through an MCP client) is not shown.
   */
  hosted?: boolean;
}

export type FormElementAnswer = FormAnswer;

export interface UrlConsentRequest {
  /** Why the server wants the person to open the link. */
  message: string;
  url: string;
  server: { name: string };
}

export type UrlConsentAnswer = { action: "accept" | "decline" | "cancel" };
export type UrlWaitAnswer = { action: "retry" } | { action: "cancel" };
export type UrlConsentPhase = "consent" | "waiting" | "done";

export type SamplingReviewRequest = SamplingRequestView & { server: { name: string } };
export type SamplingReviewPhase = "request" | "answer";

/** Every `detail` of the `mcp-elicit-answer` event. */
export type ElementAnswer = FormElementAnswer | UrlConsentAnswer | UrlWaitAnswer | SamplingRequestReview | SamplingAnswerReview;

/** <mcp-elicit-form>. */
export interface McpElicitFormElement extends HTMLElement {
  /** The form to show; setting it starts over. */
  request: FormElementRequest | undefined;
}

/** <mcp-elicit-url-consent>. */
export interface McpElicitUrlConsentElement extends HTMLElement {
  request: UrlConsentRequest | undefined;
  /** "consent" (the default), "waiting" (after Open, or set by the host), "done". */
  phase: UrlConsentPhase;
  /** After Open, show the waiting phase (default true); false: the element is done once the link opened. */
  waitAfterOpen: boolean;
  /**
   * Opens the (analysed, normalized) link in place of `window.open(url, "_blank", "noopener,noreferrer")`: for
   * a page that cannot open tabs itself, such as an MCP App, whose host opens links (ui/open-link).
   */
  openLink: ((url: string) => void) | undefined;
  /** Shows that the flow finished (the server's completion notification came). */
  completed(): void;
}

/** <mcp-elicit-sampling-review>. */
export interface McpElicitSamplingReviewElement extends HTMLElement {
  request: SamplingReviewRequest | undefined;
  phase: SamplingReviewPhase;
  /** The model's answer in the answer phase; undefined there means no model: the person writes the answer. */
  answer: SamplingAnswerView | undefined;
}
