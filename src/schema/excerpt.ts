// What a message may quote of an untrusted value: a short excerpt, with anything a terminal would
// act on or that changes how text reads (controls, bidi, zero-width, tags) written as \u escapes.
// Never the whole value: a server or client can send megabytes, and messages travel on.

/** Longest quoted text, in code points. */
export const EXCERPT_LENGTH = 40;

const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff\ufff9-\ufffb]|[\u{e0000}-\u{e007f}]/gu;
const escape = (c: string) => {
  const code = c.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
};

/** A string, quoted, cut to `max` code points, made inert. */
export function quoteText(text: string, max = EXCERPT_LENGTH): string {
  let out = "";
  let n = 0;
  for (const c of text) {
    if (n++ === max) return `"${out}…" (${[...text].length} characters)`;
    out += UNSAFE.test(c) ? escape(c) : c;
    UNSAFE.lastIndex = 0;
  }
  return `"${out}"`;
}

/** Any JSON value, briefly: strings quoted and cut, lists and objects by their first few entries. */
export function excerpt(value: unknown, max = EXCERPT_LENGTH): string {
  if (typeof value === "string") return quoteText(value, max);
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  if (Array.isArray(value)) {
    const shown = value.slice(0, 3).map((v) => (typeof v === "object" && v !== null ? (Array.isArray(v) ? "[…]" : "{…}") : excerpt(v, 20)));
    return `[${shown.join(", ")}${value.length > 3 ? `, … (${value.length} items)` : ""}]`;
  }
  if (typeof value === "object") {
    const keys = Object.keys(value);
    return `{${keys
      .slice(0, 3)
      .map((k) => `${quoteText(k, 20)}: …`)
      .join(", ")}${keys.length > 3 ? `, … (${keys.length} keys)` : ""}}`;
  }
  return value === undefined ? "nothing" : typeof value;
}
