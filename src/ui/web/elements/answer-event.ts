// The one event all three elements fire, once per decision a person makes.
/** The name of the event every element fires; its `detail` is the decision. */
export const ANSWER_EVENT = "mcp-elicit-answer";

/** Fires the answer event on `target`: it bubbles and crosses shadow roots, so a page can listen on `document`. */
export function emitAnswer<T>(target: EventTarget, detail: T): void {
  target.dispatchEvent(new CustomEvent<T>(ANSWER_EVENT, { detail, bubbles: true, composed: true }));
}
