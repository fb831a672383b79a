// Character-level helpers of the URL analysis: what may not appear in a URL's text, what may not hide
// in its %-encoded parts, and inert renderings for messages.

/** URLs longer than this (in characters of the normalized href) get the `long-url` warning. */
export const LONG_URL_LENGTH = 2048;

// C0 and C1 controls, DEL, any Unicode whitespace, format characters (bidi controls, zero-width
// characters, soft hyphen, BOM, tags...), Unicode line/paragraph separators and lone surrogates.
export const FORBIDDEN =
  /[\u0000-\u001F\u007F-\u009F\s\p{Cf}\u2028\u2029]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

/** "U+202E" */
export const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

export function describeChar(c: string): string {
  const cp = c.codePointAt(0)!;
  const hex = codePoint(c);
  if (c === " ") return "a space";
  if (c === "\t") return "a tab";
  if (c === "\n" || c === "\r") return "a line break";
  if (/\p{Cf}/u.test(c) || /[\u115F\u1160\u3164\uFFA0]/.test(c)) return `an invisible formatting character (${hex})`;
  if (/\s/.test(c)) return `a space character (${hex})`;
  if (cp >= 0xd800 && cp <= 0xdfff) return `a broken character (${hex})`;
  return `a control character (${hex})`;
}

/** The user name of a URL, decoded for a message when that is safe; short. */
export function decodeSafe(s: string): string {
  let out: string;
  try {
    out = decodeURIComponent(s);
  } catch {
    out = s;
  }
  // Shown inside a message: keep it printable and short.
  out = FORBIDDEN.test(out) ? s : out;
  return out.length > 80 ? `${out.slice(0, 79)}…` : out;
}

/** An inert, one-line, bounded rendering of refused input (it may hold anything). */
export function display(s: string, max = LONG_URL_LENGTH): string {
  const clean = [...s.slice(0, max + 1)]
    .map((c) =>
      /^[\u0000-\u001F\u007F-\u009F\p{Cf}\u2028\u2029]$/u.test(c) || /^[\uD800-\uDFFF]$/.test(c)
        ? `\\u{${c.codePointAt(0)!.toString(16)}}`
        : c,
    )
    .join("");
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/**
 * Percent-decodes as a browser's address bar or a page reading `location` would: %XX runs are read as
 * UTF-8, invalid sequences become U+FFFD. Never throws.
 */
export function percentDecode(s: string): string {
  if (!s.includes("%")) return s;
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < s.length;) {
    if (s[i] === "%" && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      const cp = s.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      for (const b of encoder.encode(ch)) bytes.push(b);
      i += ch.length;
    }
  }
  return new TextDecoder("utf-8").decode(new Uint8Array(bytes));
}

// Characters that make decoded text read differently from what it is, or hide text: C0 controls other than
// tab and line breaks (a multi-line query value is ordinary), DEL, C1, format characters (bidi controls,
// zero-width characters, soft hyphen, BOM, tags), line/paragraph separators and the Hangul fillers.
const HIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\p{Cf}\u2028\u2029\u115F\u1160\u3164\uFFA0]/gu;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;

/**
 * The first hiding character of a decoded text, if any. Two emoji uses are not hiding (as in sanitizeText):
 * a zero-width joiner between two emoji (👩‍💻) and the tag characters of a subdivision flag (🏴 + tags).
 */
export function hiddenCharacter(decoded: string): string | undefined {
  for (const m of decoded.matchAll(HIDDEN)) {
    const c = m[0];
    const i = m.index;
    if (c === "\u200D") {
      const before = [...decoded.slice(0, i).replace(/[\uFE0F\u{1F3FB}-\u{1F3FF}]+$/u, "")].pop() ?? "";
      const after = [...decoded.slice(i + 1)][0] ?? "";
      if (PICTOGRAPHIC.test(before) && PICTOGRAPHIC.test(after)) continue;
    }
    if (/[\u{E0020}-\u{E007F}]/u.test(c) && /\u{1F3F4}[\u{E0020}-\u{E007E}]*$/u.test(decoded.slice(0, i))) continue;
    return c;
  }
  return undefined;
}

/** A name for a message: its end (where the registrable domain is) when it is long; the full one is on screen. */
export const keepEnd = (name: string, max = 60) => (name.length > max ? `…${name.slice(-(max - 1))}` : name);
