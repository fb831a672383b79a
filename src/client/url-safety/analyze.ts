// What a person is shown before consenting to open the URL of a URL-mode elicitation.
//
// The spec (2025-11-25, "Safe URL Handling") asks clients to show the full URL, highlight its domain to
// defeat subdomain spoofing, warn about ambiguous or suspicious URLs (punycode), never pre-fetch it, and
// open it only after explicit consent. This module only looks at the text of the URL: it never resolves
// or fetches anything. The public suffix list comes from `tldts`, which bundles it (works offline).
// Its steps live beside it (idn.ts: internationalized names; written.ts: what the server wrote against
// what opens; name.ts: whose the name is; analysis.ts: the shapes they fill in), and so do its helpers
// (text.ts: characters; host.ts: IPs, local names, the written host; lookalike.ts: scripts, skeletons, brands).
//
// Decisions:
// - Only http: and https: URLs can be offered; anything else (javascript:, data:, file:, blob:, about:,
//   custom schemes) is refused, as is anything the WHATWG URL parser rejects.
// - `url` is the parser's normalized href, which is what a browser would open: pure printable ASCII (the
//   host in punycode, everything else percent-encoded), so what is shown is exactly what is opened. `host`
//   is that ASCII host; `unicodeHost` is how an internationalized one reads. UIs show both.
// - What the server wrote is compared with what opens. Where the text itself cannot be shown honestly
//   (whitespace, control, invisible or direction-changing characters anywhere but at the ends: the parser
//   silently deletes tabs and line breaks, and the others make the text read differently) it is refused.
//   Where it can, but reads differently from what opens, there is a warning: a host the browser rewrites
//   (`host-rewritten`: dot look-alikes such as "。", fullwidth letters, %-codes), backslashes read as "/"
//   (`backslash`), and "@name" after the host (`misleading-at`, as in evil.com#@good.com).
//   Leading and trailing ASCII whitespace is tolerated and dropped (nothing is hidden by it).
// - Every internationalized (punycode) name gets the `punycode` warning, also a legitimate one such as
//   münchen.de: the spec names punycode as the case to warn about, and the warning is where both forms
//   are spelled out (a scripted UI logs only warnings). Mixed scripts, Latin look-alike letters and
//   look-alike symbols get warnings of their own on top.
// - Names that are not public internet names warn (`local-name`): localhost and *.localhost, names under
//   a top-level name that is not in the public suffix list (.local, .internal, .lan, .test, ...),
//   .home.arpa, and the services whose names all resolve to 127.0.0.1 (lvh.me, localtest.me, ...).
//   Names that carry an IP address (127.0.0.1.nip.io, 10.0.0.1.evil.com) warn `ip-in-name`.
// - A host that is exactly a hosting service's suffix in the public suffix list (s3.amazonaws.com,
//   github.io) belongs to that service: its registrable domain is the service's (amazonaws.com). A
//   service host under the service's domain (s3.amazonaws.com) has no warning; a suffix that is itself
//   the registered domain (github.io) warns `no-registrable-domain`: anyone can publish under it, and
//   the bare name is nobody's site. A bare public suffix (com, co.uk) has no registrable domain.
// - A host longer than 253 characters, or with a label longer than 63, cannot exist in DNS: refused.
//   One longer than LONG_HOST_LENGTH warns `long-url`: nobody reads a name that long to its end.
// - Longer than MAX_URL_LENGTH is refused: a person cannot examine it. Longer than LONG_URL_LENGTH warns.
// - Loopback hosts (localhost, *.localhost, 127.0.0.0/8, ::1) are not `insecure` over http:, like in
//   browsers, but keep their `ip-host` / `local-name` / `non-standard-port` warnings.
import { ipKind, isLoopback } from "./host.js";
import type { Reading, UrlAnalysis, UrlWarning } from "./analysis.js";
import { internationalName } from "./idn.js";
import { writtenWarnings } from "./written.js";
import { analyzeName } from "./name.js";
import { describeChar, display, FORBIDDEN, hiddenCharacter, keepEnd, LONG_URL_LENGTH, percentDecode } from "./text.js";

export { LONG_URL_LENGTH } from "./text.js";
export { hostForDisplay, type UrlAnalysis, type UrlWarning, type UrlWarningCode } from "./analysis.js";
/** URLs longer than this are refused outright. */
export const MAX_URL_LENGTH = 32_768;
/** Longest host name DNS can hold (without the final dot). */
export const MAX_HOST_LENGTH = 253;
/** Longest part of a host name between dots. */
export const MAX_HOST_LABEL_LENGTH = 63;
/** Hosts longer than this warn `long-url`: longer than a person reads (a 195-character name is not read to its end). */
export const LONG_HOST_LENGTH = 100;

/**
 * Analyzes a URL-mode elicitation URL for display before consent. Never throws, never fetches.
 *
 * @example
 * ```ts region=examples/client-url.ts#analyzeUrl
 * const LOGIN = "https://xn--pypal-4ve.com/login"; // reads as pаypal.com, with a Cyrillic а
 * const analysis = analyzeUrl(LOGIN); // what every renderer gets for a URL request
 * console.log(hostForDisplay(analysis), analysis.warnings.map((w) => w.code));
 * // -> pаypal.com (xn--pypal-4ve.com) [ 'punycode', 'mixed-script', 'lookalike-brand' ]
 * ```
 */
export function analyzeUrl(url: string): UrlAnalysis {
  const raw = typeof url === "string" ? url : "";
  const input = raw.replace(/^[ \t\n\r\f]+|[ \t\n\r\f]+$/g, "");
  const opened = openedUrl(input);
  if (!(opened instanceof URL)) return opened;
  const reading = readingOf(input, opened);
  const refusal = internationalName(reading);
  if (refusal) return refused(refusal, reading.result.scheme, reading.result.url);
  writtenWarnings(reading);
  addressWarnings(reading);
  if (!reading.ip) analyzeName(reading);
  if (opened.port) {
    reading.warn(
      "non-standard-port",
      `The address uses port ${opened.port} instead of the usual one for ${reading.result.scheme}:. Check that you expect this server.`,
    );
  }
  return reading.result;
}

/** A refusal: `shown` made inert as the URL, no host, no warnings. */
const refused = (refusal: string, scheme: string, shown: string): UrlAnalysis => ({
  ok: false,
  url: display(shown),
  scheme,
  host: "",
  warnings: [],
  refusal,
});

/** The URL a browser would open for `input`, or the refusal of a text that cannot be offered. */
function openedUrl(input: string): URL | UrlAnalysis {
  if (!input) return refused("The server sent an empty URL.", "", input);
  if (input.length > MAX_URL_LENGTH)
    return refused(`The URL is ${input.length} characters long, too long to be checked by a person (limit ${MAX_URL_LENGTH}).`, "", input);
  const bad = FORBIDDEN.exec(input);
  if (bad) {
    const what = `The URL contains ${describeChar(bad[0])} at position ${bad.index + 1}`;
    return refused(`${what}; a valid URL has no spaces, control or invisible characters.`, "", input);
  }
  let parsed: URL;
  try {
    parsed = new URL(input);
  } catch {
    return refused("This is not a valid absolute URL.", "", input);
  }
  const scheme = parsed.protocol.replace(/:$/, "");
  const href = parsed.href;
  if (scheme !== "https" && scheme !== "http")
    return refused(`Only https: (or http:) links can be opened; this link's scheme is ${scheme}:.`, scheme, href);
  if (href.length > MAX_URL_LENGTH)
    return refused(
      `The URL is ${href.length} characters long, too long to be checked by a person (limit ${MAX_URL_LENGTH}).`,
      scheme,
      href,
    );
  const tooLong = ipKind(parsed.hostname) ? undefined : nameTooLong(parsed.hostname);
  return tooLong ? refused(tooLong, scheme, href) : parsed;
}

/** Why a host name cannot exist in DNS (too long, or a part too long), if it cannot. */
function nameTooLong(host: string): string | undefined {
  const name = host.replace(/\.$/, "");
  const longest = Math.max(...name.split(".").map((l) => l.length));
  if (name.length <= MAX_HOST_LENGTH && longest <= MAX_HOST_LABEL_LENGTH) return undefined;
  const what = name.length > MAX_HOST_LENGTH ? `is ${name.length} characters long` : `has a part ${longest} characters long`;
  return `The host name ${what}; names on the internet have at most ${MAX_HOST_LENGTH} characters and ${MAX_HOST_LABEL_LENGTH} between dots, so no website has it.`;
}

/** The state the steps share, with an analysis that accepts the URL until a step refuses it. */
function readingOf(input: string, parsed: URL): Reading {
  const host = parsed.hostname;
  const warnings: UrlWarning[] = [];
  const result: UrlAnalysis = { ok: true, url: parsed.href, scheme: parsed.protocol.replace(/:$/, ""), host, warnings };
  if (parsed.port) result.port = parsed.port;
  const warn: Reading["warn"] = (code, message) => void warnings.push({ code, message });
  return { input, parsed, host, ip: ipKind(host), loopback: isLoopback(host), result, warn };
}

/** `insecure`, `long-url` and `hidden-characters`: what the address as a whole may hide. */
function addressWarnings({ parsed, host, loopback, result, warn }: Reading): void {
  const h = keepEnd(host);
  if (result.scheme === "http" && !loopback) {
    warn(
      "insecure",
      `The link is not encrypted (http:, not https:): what you type there can be read or changed on the way. Do not enter passwords or payment details.`,
    );
  }
  if (result.url.length > LONG_URL_LENGTH) {
    warn(
      "long-url",
      `The address is ${result.url.length} characters long; long addresses can hide where they go. Check the host (${h}) rather than the end of the address.`,
    );
  } else if (host.length > LONG_HOST_LENGTH) {
    warn(
      "long-url",
      `The host name is ${host.length} characters long; a name that long hides where it goes. Check its end (${h}): that is whose site it is.`,
    );
  }
  for (const [part, text] of [
    ["path", parsed.pathname],
    ["query", parsed.search],
    ["fragment", parsed.hash],
  ] as const) {
    const hidden = hiddenCharacter(percentDecode(text));
    if (hidden) {
      warn(
        "hidden-characters",
        `The address's ${part}, once its %-codes are decoded, contains ${describeChar(hidden)}: a page or app that shows it decoded can show it reordered or with hidden text.`,
      );
      break;
    }
  }
}
