// A file name as the person's browser sent it, made safe to show back (on the upload page, in a tool's
// result): every character that could hide, reorder or break the text is replaced by a visible mark, and
// the name can no longer be read as a path. It is for showing only: files are stored under generated ids.
//
//   - control characters (C0, DEL, C1), line and paragraph separators, invisible format characters
//     (general category Cf: bidi embeddings, overrides and isolates U+202A-U+202E and U+2066-U+2069, the
//     marks U+200E/U+200F/U+061C, zero-width space and joiners, word joiner, BOM, soft hyphen, ...) and
//     lone surrogates become "[U+XXXX]", so "invoice\u202Efdp.exe" shows as "invoice[U+202E]fdp.exe"; so do
//     the Hangul fillers U+3164 and U+FFA0, letters that draw as blanks;
//   - a stack of more than 4 combining marks is cut to 4 (piles draw over the text around them);
//   - "/" and "\" become "_", and a run of two or more dots becomes "…", so no ".." or separator is left;
//   - surrounding white space is trimmed, an empty name becomes "(no name)";
//   - the result is at most MAX_SHOWN_NAME code points, the cut in the middle so the extension stays.

/** The longest name shownName returns, in code points. */
export const MAX_SHOWN_NAME = 120;

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u3164\uFFA0]/u;
const EXTRA_MARKS = /(?<=\p{M}{4})\p{M}/gu;
const SEPARATORS = /[/\\]/g;
const DOTS = /\.{2,}/g;
const END_KEPT = 24;

export function shownName(name: string): string {
  let given = String(name);
  // A name of megabytes is cut before the work below, keeping its start and its end.
  if (given.length > 4 * MAX_SHOWN_NAME) given = `${given.slice(0, 2 * MAX_SHOWN_NAME)}…${given.slice(-MAX_SHOWN_NAME)}`;
  let shown = "";
  for (const char of given.trim()) {
    shown += HIDDEN.test(char) ? `[U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}]` : char;
  }
  shown = shown.replace(EXTRA_MARKS, "").replace(SEPARATORS, "_").replace(DOTS, "…").trim();
  if (shown === "") return "(no name)";
  const points = [...shown];
  if (points.length <= MAX_SHOWN_NAME) return shown;
  return `${points.slice(0, MAX_SHOWN_NAME - END_KEPT - 1).join("")}…${points.slice(-END_KEPT).join("")}`;
}
