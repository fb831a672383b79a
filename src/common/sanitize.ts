// Makes server-supplied text inert for any renderer (terminal or HTML) and bounds its length.
//
// Every text a server sends (messages, labels, help, option titles, server names) is untrusted. A terminal
// would execute escape sequences in it (move the cursor, rewrite what was shown, set the clipboard with
// OSC 52, make hidden hyperlinks with OSC 8), and invisible or direction-changing characters can make it
// read differently from what it is. After `sanitizeText` the text has no C0/C1 control characters other
// than "\n", no DEL, no lone surrogates, no bidirectional controls and no invisible formatting characters
// (except the two emoji uses below), and at most `maxLength` code points.
//
// HTML escaping is not done here: a web renderer still escapes `<`, `&` and quotes itself.
//
// Passes, in order (the order matters):
//   1. control strings (OSC, DCS, SOS, PM, APC, screen titles), 7-bit and 8-bit introducers, terminated
//      or not: our own pass, because strip-ansi leaves unterminated ones (and reads an unterminated
//      `ESC P`/`ESC k` as a two-byte escape, leaving the payload as text), and its fast path skips
//      strings that have no ESC or CSI byte, such as an 8-bit OSC (0x9D) or DCS (0x90);
//   2. strip-ansi for CSI sequences (7-bit `ESC [` and 8-bit 0x9B) and the other escapes (`ESC c`, `ESC 7`,
//      `ESC ( 0`, ...);
//   3. an introducer and parameters of a CSI left without its final byte (a terminal would swallow the
//      next character);
//   4. line breaks and tabs are normalized, every remaining control character is removed;
//   5. invisible/format characters, lone surrogates, piles of variation selectors and combining marks;
//   6. blank-line runs, surrounding whitespace, length.
// Step 4 alone disarms every escape sequence (no ESC, no C1 introducer survives it); steps 1-3 make the
// result clean, so that a sequence's parameters or payload do not show up as garbage like "[31m".
import stripAnsi from "strip-ansi";

/** Default bound for messages and help texts, in code points. */
export const MAX_MESSAGE_LENGTH = 2000;
/** Bound for messages and descriptions a renderer shows folded, with a way to read them in full. */
export const MAX_LONG_TEXT_LENGTH = 20_000;
/** Default bound for one-line texts: labels, option titles, server names. */
export const MAX_LABEL_LENGTH = 200;

export interface SanitizeOptions {
  /** Bound in code points, counting the "…" that marks a cut (default MAX_MESSAGE_LENGTH; Infinity: none). */
  maxLength?: number;
  /** Keep line breaks (default true); when false every line break becomes a space. */
  multiline?: boolean;
}

const ELLIPSIS = "…";

// Linux console palette controls (`ESC ] P rrggbb`, `ESC ] R`) have no terminator: matched first so that
// the OSC pass below does not read the visible text after them as their payload.
const LINUX_PALETTE = String.raw`\u001B\](?:P[\dA-Fa-f]{7}|R)(?:\u0007|\u001B\\|\u009C)?`;
// OSC (ESC ] / 0x9D), DCS (ESC P / 0x90), SOS (ESC X / 0x98), PM (ESC ^ / 0x9E), APC (ESC _ / 0x9F),
// screen's title (ESC k). The payload runs up to BEL, ST (ESC \ or 0x9C), or, as in a terminal's parser,
// up to whatever aborts the string (CAN, SUB, ESC, another C1) or the end of the text. The payload class
// excludes every character that can start a terminator, so there is no backtracking: linear time.
const CONTROL_STRING = String.raw`(?:\u001B[\]PX^_k]|[\u0090\u0098\u009D\u009E\u009F])[^\u0007\u0018\u001A\u001B\u0080-\u009F]*(?:\u0007|\u001B\\|\u009C)?`;
const CONTROL_STRINGS = new RegExp(`${LINUX_PALETTE}|${CONTROL_STRING}`, "g");
// A CSI that strip-ansi did not take because it has no final byte.
const PARTIAL_CSI = /(?:\u001B\[|\u009B)[\u0030-\u003F]*[\u0020-\u002F]*/g;
// Every control character left: C0 except "\n" (tabs are already spaces), DEL, C1.
const CONTROLS = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/g;
// Invisible and format characters (general category Cf: bidi embeddings/overrides/isolates/marks,
// U+061C, zero-width space/joiners, word joiner, BOM, U+180E, soft hyphen, invisible operators, tag
// characters, interlinear annotations, ...) plus the Hangul fillers used as "blank" letters.
// Two emoji uses are kept, as they are what makes the emoji: a ZWJ between two emoji (👩‍💻, 🏳️‍🌈) and the
// tag sequence of a subdivision flag (🏴 + lower-case/digit tags + CANCEL TAG, e.g. 🏴󠁧󠁢󠁳󠁣󠁴󠁿).
// Everything else in Cf goes, which also covers "ASCII smuggling" through tag characters.
const INVISIBLE =
  /((?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F])\u200D(?=\p{Extended_Pictographic}))|((?<=\u{1F3F4})[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,8}\u{E007F})|[\p{Cf}\u3164\uFFA0]/gu;
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// A character takes at most one variation selector: a run of them hides data ("emoji smuggling").
// (No unbounded quantifier over astral classes in these: on megabytes of input they overflow the stack.)
const EXTRA_VARIATION_SELECTORS = /(?<=[\uFE00-\uFE0F\u{E0100}-\u{E01EF}])[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu;
// Stacks of combining marks ("Zalgo" text) draw over the lines around them; real text needs only a few.
const MAX_MARKS = 8;
const EXTRA_MARKS = new RegExp(`(?<=\\p{M}{${MAX_MARKS}})\\p{M}`, "gu");

/** The bound as a whole number of code points; anything not a number ≥ 0 is the default. */
function bound(maxLength: number | undefined, fallback: number): number {
  if (maxLength === undefined || Number.isNaN(maxLength) || maxLength < 0) return fallback;
  return maxLength === Infinity ? Infinity : Math.floor(maxLength);
}

/**
 * Cuts `text` to at most `maxLength` Unicode code points, the last of which is "…" when anything was cut.
 * The cut falls between two graphemes, so it never splits a surrogate pair (nor an emoji sequence); a
 * dangling zero-width joiner or whitespace before the "…" is dropped.
 * `force` marks the text as cut even when it fits (used when the input was cut before sanitizing).
 */
export function truncate(text: string, maxLength: number, force = false): string {
  const max = bound(maxLength, 0);
  if (max === Infinity) return force ? text + ELLIPSIS : text;
  if (max <= 0) return "";
  // Walk at most max + 1 code points: the cost is bounded by the result, not the input.
  let index = 0;
  let count = 0;
  let keepEnd = -1; // end (in code units) of the first max - 1 code points
  while (index < text.length) {
    if (count === max - 1) keepEnd = index;
    if (count === max) break;
    const cp = text.codePointAt(index)!;
    index += cp > 0xffff ? 2 : 1;
    count++;
  }
  const fits = index >= text.length;
  if (fits && !force) return text;
  if (fits && count < max) return text + ELLIPSIS;
  // Keep at most max - 1 code points and the ellipsis, cutting between two graphemes (so that an emoji
  // sequence, a flag or a letter with its accents is kept whole or not at all).
  let kept = text.slice(0, graphemeBoundaryAtOrBefore(text, keepEnd < 0 ? 0 : keepEnd));
  kept = kept.replace(/\u200D+$/, "").replace(/[ \t\n]+$/, "");
  return kept + ELLIPSIS;
}

/** Keeps at most two blank lines in a row, emptied (a line of spaces is blank). A loop, not a regex: see above. */
function collapseBlankLines(s: string): string {
  if (!s.includes("\n")) return s;
  const out: string[] = [];
  let blanks = 0;
  for (const line of s.split("\n")) {
    if (!/^[ \u00A0]*$/.test(line)) {
      blanks = 0;
      out.push(line);
    } else if (++blanks <= 2) out.push("");
  }
  return out.join("\n");
}

let segmenter: Intl.Segmenter | undefined;

/** The last grapheme boundary at or before code unit `end` (`end` itself when it is one). */
function graphemeBoundaryAtOrBefore(text: string, end: number): number {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  // A little text after `end` is enough to tell whether a grapheme runs across it.
  let boundary = 0;
  for (const { index, segment } of segmenter.segment(text.slice(0, end + 64))) {
    if (index + segment.length > end) break;
    boundary = index + segment.length;
  }
  return boundary;
}

/**
 * Returns `text` made inert for a terminal or an HTML renderer (before HTML escaping) and bounded.
 * Numbers, booleans and bigints become their `String()`; any other non-string becomes "".
 */
export function sanitizeText(text: unknown, options: SanitizeOptions = {}): string {
  let s: string;
  if (typeof text === "string") s = text;
  else if (typeof text === "number" || typeof text === "boolean" || typeof text === "bigint") s = String(text);
  else return "";
  const max = bound(options.maxLength, MAX_MESSAGE_LENGTH);
  const multiline = options.multiline ?? true;

  // Work on a bounded prefix: stripping only shortens a text, and no legitimate text spends more than
  // 16 code units of markup per visible character. This keeps the cost proportional to `maxLength`
  // whatever the input's size; a cut made here is still marked with "…". A sequence or surrogate pair
  // split by this cut is removed by the passes below like any unterminated one.
  let cut = false;
  if (max !== Infinity) {
    const budget = max * 16 + 1024;
    if (s.length > budget) {
      s = s.slice(0, budget);
      cut = true;
    }
  }

  s = s.replace(CONTROL_STRINGS, "");
  s = stripAnsi(s);
  s = s.replace(PARTIAL_CSI, "");
  // A lone CR would move the cursor back over what was printed: it becomes a line break, like CRLF.
  s = s.replace(/\r\n?|[\u2028\u2029]/g, "\n");
  s = s.replace(/\t/g, " ");
  s = s.replace(CONTROLS, "");
  s = s.replace(INVISIBLE, (_m, joiner?: string, flagTags?: string) => joiner ?? flagTags ?? "");
  s = s.replace(LONE_SURROGATES, "");
  s = s.replace(EXTRA_VARIATION_SELECTORS, "");
  s = s.replace(EXTRA_MARKS, "");
  if (multiline) s = collapseBlankLines(s);
  else s = s.replace(/\n/g, " ");
  s = s.trim();
  return truncate(s, max, cut);
}
