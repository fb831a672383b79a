// Every text a server sends goes through sanitizeText before an element shows it, and is then rendered
// with Lit's text bindings only (never as HTML), so markup in it stays literal text.
import { MAX_LABEL_LENGTH, sanitizeText } from "../../../common/sanitize.js";

/** A message, description or other multi-line text, made inert and bounded. */
export const inert = (text: unknown, maxLength?: number): string => sanitizeText(text, maxLength === undefined ? {} : { maxLength });

/** A one-line text (a title, an option's label, a server name), made inert and bounded. */
export const inertLine = (text: unknown): string => sanitizeText(text, { maxLength: MAX_LABEL_LENGTH, multiline: false });
