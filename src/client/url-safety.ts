// What a person is shown before consenting to open the URL of a URL-mode elicitation.
//
// The spec (2025-11-25, "Safe URL Handling") asks clients to show the full URL, highlight its domain to
// defeat subdomain spoofing, warn about ambiguous or suspicious URLs (punycode), never pre-fetch it, and
// open it only after explicit consent. This module only looks at the text of the URL: it never resolves
// or fetches anything. The public suffix list comes from `tldts`, which bundles it (works offline).
//
// Decisions:
// - Only http: and https: URLs can be offered; anything else (javascript:, data:, file:, blob:, about:,
//   custom schemes) is refused, as is anything the WHATWG URL parser rejects.
// - `url` is the parser's normalized href, which is what a browser would open: pure printable ASCII (the
//   host in punycode, everything else percent-encoded), so what is shown is exactly what is opened.
// - Leading and trailing ASCII whitespace is tolerated and dropped (the URL parser does the same, and
//   nothing is hidden by it). Whitespace, control, invisible or direction-changing characters anywhere
//   else are refused: the parser silently deletes tabs and line breaks inside a URL, and the other
//   characters only serve to make the raw text read differently from the URL that would be opened.
// - Longer than MAX_URL_LENGTH is refused: a person cannot examine it. Longer than LONG_URL_LENGTH warns.
// - Loopback hosts (localhost, *.localhost, 127.0.0.0/8, ::1) are not `insecure` over http:, like in
//   browsers, but keep their `ip-host` / `no-registrable-domain` / `non-standard-port` warnings.
import { domainToUnicode } from "node:url";
import { parse as parseDomain } from "tldts";

/** URLs longer than this (in characters of the normalized href) get the `long-url` warning. */
export const LONG_URL_LENGTH = 2048;
/** URLs longer than this are refused outright. */
export const MAX_URL_LENGTH = 32_768;

export type UrlWarningCode =
  | "punycode"
  | "mixed-script"
  | "lookalike-character"
  | "ip-host"
  | "credentials"
  | "insecure"
  | "long-url"
  | "no-registrable-domain"
  | "non-standard-port";

export interface UrlWarning {
  code: UrlWarningCode;
  message: string;
}

export interface UrlAnalysis {
  /** False: refuse, never offer to open. */
  ok: boolean;
  /** The normalized href (what would be opened); when refused, an inert one-line rendering of the input. */
  url: string;
  /** Scheme without the colon ("https"); "" when the input is not a URL. */
  scheme: string;
  /** The host as shown: ASCII (punycode) form, IPv6 in brackets, without the port; "" when refused early. */
  host: string;
  /** The host's Unicode form, when it has punycode labels. */
  unicodeHost?: string;
  /** The explicit port, when there is one (the default port of the scheme is never explicit). */
  port?: string;
  /** The domain a person or organization registered (public suffix + one label), e.g. "evil.co.uk". */
  registrableDomain?: string;
  /** `host` split so that a UI can highlight the registrable part: `before + registrable === host`. */
  hostParts?: { before: string; registrable: string };
  warnings: UrlWarning[];
  /** Why the URL is refused (when `ok` is false). */
  refusal?: string;
}

// C0 and C1 controls, DEL, any Unicode whitespace, format characters (bidi controls, zero-width
// characters, soft hyphen, BOM, tags...), Unicode line/paragraph separators and lone surrogates.
const FORBIDDEN = /[\u0000-\u001F\u007F-\u009F\s\p{Cf}\u2028\u2029]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

/** Analyzes a URL-mode elicitation URL for display before consent. Never throws, never fetches. */
export function analyzeUrl(url: string): UrlAnalysis {
  const raw = typeof url === "string" ? url : "";
  const input = raw.replace(/^[ \t\n\r\f]+|[ \t\n\r\f]+$/g, "");
  const refuse = (refusal: string, scheme = "", shown = input): UrlAnalysis => ({
    ok: false,
    url: display(shown),
    scheme,
    host: "",
    warnings: [],
    refusal,
  });

  if (!input) return refuse("The server sent an empty URL.");
  if (input.length > MAX_URL_LENGTH) {
    return refuse(`The URL is ${input.length} characters long, too long to be checked by a person (limit ${MAX_URL_LENGTH}).`);
  }
  const bad = FORBIDDEN.exec(input);
  if (bad) {
    return refuse(`The URL contains ${describeChar(bad[0])} at position ${bad.index + 1}; a valid URL has no spaces, control or invisible characters.`);
  }
  let parsed: URL;
  try {
    parsed = new URL(input);
  } catch {
    return refuse("This is not a valid absolute URL.");
  }
  const scheme = parsed.protocol.replace(/:$/, "");
  if (scheme !== "https" && scheme !== "http") {
    return refuse(`Only https: (or http:) links can be opened; this link's scheme is ${scheme}:.`, scheme, parsed.href);
  }

  const href = parsed.href;
  if (href.length > MAX_URL_LENGTH) {
    return refuse(`The URL is ${href.length} characters long, too long to be checked by a person (limit ${MAX_URL_LENGTH}).`, scheme, href);
  }
  const host = parsed.hostname;
  const warnings: UrlWarning[] = [];
  const result: UrlAnalysis = { ok: true, url: href, scheme, host, warnings };
  if (parsed.port) result.port = parsed.port;

  const ip = ipKind(host);
  const loopback = isLoopback(host);

  // Punycode / internationalized names: show both forms.
  const labels = host.split(".");
  if (!ip && labels.some((l) => l.startsWith("xn--"))) {
    const unicode = domainToUnicode(host);
    if (unicode && unicode !== host) result.unicodeHost = unicode;
    const skeleton = unicode ? latinSkeleton(unicode) : undefined;
    warnings.push({
      code: "punycode",
      message: `The address uses an internationalized name: it reads as ${unicode || "(undecodable)"} but is really ${host}${skeleton ? `, and can pass for ${skeleton}` : ""}. Make sure this is the site you expect, not a look-alike.`,
    });
    const unicodeLabels = (unicode || host).split(".");
    const mixed = unicodeLabels.map((label) => ({ label, scripts: scriptsOf(label) })).filter((l) => !isAllowedScriptSet(l.scripts));
    if (mixed.length) {
      const what = mixed.map((l) => `“${l.label}” (${[...l.scripts].join(" + ")})`).join(", ");
      warnings.push({
        code: "mixed-script",
        message: `The name mixes alphabets in ${what}: letters from one alphabet can pose as letters of another. Check the name letter by letter.`,
      });
    }
    const symbols = [...new Set([...(unicode || host)].filter((c) => c !== "." && c !== "-" && !/[\p{L}\p{M}\p{N}]/u.test(c)))];
    if (symbols.length) {
      warnings.push({
        code: "lookalike-character",
        message: `The name contains the symbol${symbols.length > 1 ? "s" : ""} ${symbols.map((c) => `“${c}” (U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`).join(", ")}, which can pass for “/”, “.” or other parts of an address. Check where the domain really ends.`,
      });
    }
  }

  if (ip) {
    const written = rawHost(input);
    const obfuscated = ip === "IPv4" && written !== undefined && written !== host && written !== `${host}.`;
    warnings.push({
      code: "ip-host",
      message: obfuscated
        ? `The address is written as the number ${written}, which means the IP address ${host}: a disguised address with no name to check. Open it only if you expect this exact server.`
        : `The address is an ${ip} address (${host}), not a name: there is no domain to check. Open it only if you expect this exact server${loopback ? " (it is on your own computer)" : ""}.`,
    });
  }

  if (parsed.username || parsed.password) {
    const name = parsed.username ? decodeSafe(parsed.username) : "";
    warnings.push({
      code: "credentials",
      message: `The address has ${name ? `the user name “${name}”` : "a user name"}${parsed.password ? " and a password" : ""} before “@”. That part is not where the link goes: it goes to ${host}.`,
    });
  }

  if (scheme === "http" && !loopback) {
    warnings.push({
      code: "insecure",
      message: `The link is not encrypted (http:, not https:): what you type there can be read or changed on the way. Do not enter passwords or payment details.`,
    });
  }

  if (href.length > LONG_URL_LENGTH) {
    warnings.push({
      code: "long-url",
      message: `The address is ${href.length} characters long; long addresses can hide where they go. Check the host (${host}) rather than the end of the address.`,
    });
  }

  if (!ip) {
    const info = parseDomain(host, { allowPrivateDomains: true });
    const domain = info.domain ?? undefined;
    if (domain) {
      result.registrableDomain = domain;
      // tldts ignores a final dot (an absolute name); it stays in the highlighted part.
      const registrable = host.endsWith(`${domain}.`) ? `${domain}.` : domain;
      if (host.endsWith(registrable)) result.hostParts = { before: host.slice(0, host.length - registrable.length), registrable };
    } else {
      warnings.push({
        code: "no-registrable-domain",
        message: loopback
          ? `The address (${host}) points to a program on your own computer, not to a website. Open it only if you expect a local program to ask.`
          : labels.length <= 1 || (labels.length === 2 && labels[1] === "")
            ? `The address (${host}) is a single name with no domain, such as a machine on a local network. Check that you expect it.`
            : `The address (${host}) is a shared suffix that no single owner controls. Check that you expect it.`,
      });
    }
  }

  if (parsed.port) {
    warnings.push({
      code: "non-standard-port",
      message: `The address uses port ${parsed.port} instead of the usual one for ${scheme}:. Check that you expect this server.`,
    });
  }

  return result;
}

/** "IPv4" / "IPv6" when the (normalized) hostname is an IP literal. */
function ipKind(host: string): "IPv4" | "IPv6" | undefined {
  if (host.startsWith("[")) return "IPv6";
  // The URL parser turns every IPv4 spelling (0x7f000001, 2130706433, 0177.1, 127.1) into dotted decimal.
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)) return "IPv4";
  return undefined;
}

/** localhost, *.localhost, 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
function isLoopback(host: string): boolean {
  if (host === "localhost" || host.endsWith(".localhost") || host === "localhost." || host.endsWith(".localhost.")) return true;
  if (/^127\.\d+\.\d+\.\d+$/.test(host)) return true;
  return host === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}

/** The host as the server wrote it (lower-cased), for telling a disguised IP from a plain one. */
function rawHost(input: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:[/\\]*([^/\\?#]*)/i.exec(input);
  if (!m) return undefined;
  const authority = m[1]!;
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1);
  return hostPort.replace(/:\d*$/, "").toLowerCase();
}

function decodeSafe(s: string): string {
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
function display(s: string): string {
  const clean = [...s.slice(0, LONG_URL_LENGTH + 1)].map((c) => (/^[\u0000-\u001F\u007F-\u009F\p{Cf}\u2028\u2029]$/u.test(c) || /^[\uD800-\uDFFF]$/.test(c) ? `\\u{${c.codePointAt(0)!.toString(16)}}` : c)).join("");
  return clean.length > LONG_URL_LENGTH ? `${clean.slice(0, LONG_URL_LENGTH - 1)}…` : clean;
}

function describeChar(c: string): string {
  const cp = c.codePointAt(0)!;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  if (c === " ") return "a space";
  if (c === "\t") return "a tab";
  if (c === "\n" || c === "\r") return "a line break";
  if (/\p{Cf}/u.test(c)) return `an invisible formatting character (${hex})`;
  if (/\s/.test(c)) return `a space character (${hex})`;
  if (cp >= 0xd800 && cp <= 0xdfff) return `a broken character (${hex})`;
  return `a control character (${hex})`;
}

// Scripts a look-alike attack draws from, and the others of IDNs. A letter of none of these counts as
// its own "Other" script, so mixing it with any of them is still flagged.
const SCRIPTS = [
  "Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Arabic", "Syriac", "Thaana", "Nko", "Devanagari", "Bengali",
  "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada", "Malayalam", "Sinhala", "Thai", "Lao", "Tibetan",
  "Myanmar", "Georgian", "Hangul", "Ethiopic", "Cherokee", "Canadian_Aboriginal", "Ogham", "Runic", "Khmer",
  "Mongolian", "Hiragana", "Katakana", "Bopomofo", "Han", "Yi", "Lisu", "Vai", "Coptic", "Tifinagh", "Javanese",
  "Balinese", "Sundanese", "Osage", "Adlam",
] as const;
const SCRIPT_RES = SCRIPTS.map((name) => [name, new RegExp(`\\p{Script=${name}}`, "u")] as const);

/** The scripts of the letters (and script-specific digits) of a label; Common and Inherited count as none. */
function scriptsOf(label: string): Set<string> {
  const found = new Set<string>();
  for (const c of label) {
    if (!/[\p{L}\p{N}\p{M}]/u.test(c) || /[\p{Script=Common}\p{Script=Inherited}]/u.test(c)) continue;
    found.add(SCRIPT_RES.find(([, re]) => re.test(c))?.[0] ?? "Other");
  }
  return found;
}

// Script mixes that are normal in one writing system (UTS #39 "highly restrictive" level).
const ALLOWED_MIXES: ReadonlySet<string>[] = [
  new Set(["Latin", "Han", "Hiragana", "Katakana"]),
  new Set(["Latin", "Han", "Bopomofo"]),
  new Set(["Latin", "Han", "Hangul"]),
];

function isAllowedScriptSet(scripts: Set<string>): boolean {
  if (scripts.size <= 1) return true;
  return ALLOWED_MIXES.some((allowed) => [...scripts].every((s) => allowed.has(s)));
}

// Cyrillic and Greek letters that look like Latin ones: a name made only of them (and ASCII) is a
// "whole-script" look-alike, such as аррӏе.com for apple.com, which mixes no scripts within a label.
const LATIN_LOOKALIKES: Record<string, string> = {
  а: "a", с: "c", ԁ: "d", е: "e", һ: "h", і: "i", ј: "j", ӏ: "l", о: "o", р: "p", ԛ: "q", ѕ: "s", у: "y", ԝ: "w",
  х: "x", ү: "y", ѵ: "v", ɡ: "g",
  α: "a", ε: "e", ι: "i", κ: "k", ν: "v", ο: "o", ρ: "p", υ: "u", χ: "x", γ: "y",
};

/** The plain-Latin name a Unicode host can pass for, when every non-ASCII letter of it has a Latin twin. */
function latinSkeleton(unicodeHost: string): string | undefined {
  let changed = false;
  let out = "";
  for (const c of unicodeHost) {
    if (c.charCodeAt(0) < 0x80) out += c;
    else if (LATIN_LOOKALIKES[c]) {
      out += LATIN_LOOKALIKES[c];
      changed = true;
    } else return undefined;
  }
  return changed ? out : undefined;
}
