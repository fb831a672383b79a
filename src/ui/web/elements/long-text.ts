// Long texts in an element (a server's message, a field's description): shown folded, as a preview and a
// "Read in full" button that shows the whole text in place, as the terminal offers "Read the request in
// full". The text is already inert (sanitizeText) and goes through Lit's text bindings only, folded or not.
import { html, type TemplateResult } from "lit";
import { truncate } from "../../../common/sanitize.js";

export interface Fold {
  /** Longer than this (code points) is folded. */
  chars: number;
  /** More lines than this is folded. */
  lines: number;
}

/** A server's message: a few paragraphs show whole; a page of terms is folded. */
export const MESSAGE_FOLD: Fold = { chars: 800, lines: 12 };
/** A field's description sits between the label and the control: folded sooner. */
export const HELP_FOLD: Fold = { chars: 300, lines: 4 };

/** The preview of `text`, or undefined when it is short enough to show whole. */
export function previewOf(text: string, fold: Fold): string | undefined {
  const lines = text.split("\n");
  const length = [...text].length;
  if (length <= fold.chars && lines.length <= fold.lines) return undefined;
  const head = lines.slice(0, fold.lines).join("\n");
  return truncate(head, fold.chars, head.length < text.length);
}

export interface LongTextView {
  /** The inert text. */
  text: string;
  fold: Fold;
  /** Id of the text's element (the button controls it; aria-describedby may name it). */
  id: string;
  className: string;
  part: string;
  /** A paragraph (a message) or a span (a description inside a field). */
  tag: "p" | "span";
  /** The person asked to read it in full. */
  open: boolean;
  toggle: () => void;
}

const count = (text: string) => [...text].length.toLocaleString("en-US");

/** The text, folded when long, with the button that unfolds it (and folds it again). */
export function longText(v: LongTextView): TemplateResult {
  const preview = previewOf(v.text, v.fold);
  const shown = preview === undefined || v.open ? v.text : preview;
  const body =
    v.tag === "p"
      ? html`<p class=${v.className} id=${v.id} part=${v.part}>${shown}</p>`
      : html`<span class=${v.className} id=${v.id} part=${v.part}>${shown}</span>`;
  if (preview === undefined) return body;
  return html`${body}<button
      type="button"
      class="more"
      part="button more"
      aria-expanded=${v.open ? "true" : "false"}
      aria-controls=${v.id}
      @click=${v.toggle}
    >
      ${v.open ? "Show less" : `Read in full (${count(v.text)} characters)`}
    </button>`;
}

/** A server's message as every element shows it: the inert text as a paragraph, folded when long. */
export const messageText = (text: string, open: boolean, toggle: () => void): TemplateResult =>
  longText({ text, fold: MESSAGE_FOLD, id: "message", className: "message", part: "message", tag: "p", open, toggle });
