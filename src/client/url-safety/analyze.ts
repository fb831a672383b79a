// What a person is shown before consenting to open the URL of a URL-mode elicitation.
//
// The spec (2025-11-25, "Safe URL Handling") asks clients to show the full URL, highlight its domain to
// defeat subdomain spoofing, warn about ambiguous or suspicious URLs (punycode), never pre-fetch it, and
// open it only after explicit consent. This module only looks at the text of the URL: it never resolves
// or fetches anything. The public suffix list comes from `tldts`, which bundles it (works offline).
// Helpers live in ./url-safety/ (text.ts: characters; host.ts: IPs, local names, the written host;
// lookalike.ts: scripts, skeletons, brands).
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
import { domainToUnicode } from "node:url";
import { parse as parseDomain } from "tldts";
import { hostRewrite, ipInName, ipKind, ipv4Scope, isLoopback, localName, rawHost } from "./host.js";
import { brandLookalike, domainInSubdomain, isAllowedScriptSet, latinSkeleton, mixesDirections, scriptsOf } from "./lookalike.js";
import { codePoint, decodeSafe, describeChar, display, FORBIDDEN, hiddenCharacter, LONG_URL_LENGTH, percentDecode } from "./text.js";

export { LONG_URL_LENGTH } from "./text.js";
/** URLs longer than this are refused outright. */
export const MAX_URL_LENGTH = 32_768;
/** Longest host name DNS can hold (without the final dot). */
export const MAX_HOST_LENGTH = 253;
/** Longest part of a host name between dots. */
export const MAX_HOST_LABEL_LENGTH = 63;
/** Hosts longer than this warn `long-url`: longer than a person reads (a 195-character name is not read to its end). */
export const LONG_HOST_LENGTH = 100;

export type UrlWarningCode =
  | "punycode"
  | "mixed-script"
  | "lookalike-character"
  | "lookalike-brand"
  | "domain-in-subdomain"
  | "host-rewritten"
  | "backslash"
  | "misleading-at"
  | "hidden-characters"
  | "ip-host"
  | "ip-in-name"
  | "local-name"
  | "trailing-dot"
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
  /** The host that opens, as shown: ASCII (punycode) form, IPv6 in brackets, without the port; "" when refused. */
  host: string;
  /** How the host reads: its Unicode form, when it has punycode labels (show it next to `host`). */
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

/** The host as a person should see it: "pаypal.com (xn--pypal-4ve.com)" for an internationalized name, else the host. */
export function hostForDisplay(a: Pick<UrlAnalysis, "host" | "unicodeHost">): string {
  return a.unicodeHost && a.unicodeHost !== a.host ? `${a.unicodeHost} (${a.host})` : a.host;
}

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
    return refuse(
      `The URL contains ${describeChar(bad[0])} at position ${bad.index + 1}; a valid URL has no spaces, control or invisible characters.`,
    );
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
  const ip = ipKind(host);
  if (!ip) {
    const name = host.replace(/\.$/, "");
    const longest = Math.max(...name.split(".").map((l) => l.length));
    if (name.length > MAX_HOST_LENGTH || longest > MAX_HOST_LABEL_LENGTH) {
      const what = name.length > MAX_HOST_LENGTH ? `is ${name.length} characters long` : `has a part ${longest} characters long`;
      return refuse(
        `The host name ${what}; names on the internet have at most ${MAX_HOST_LENGTH} characters and ${MAX_HOST_LABEL_LENGTH} between dots, so no website has it.`,
        scheme,
        href,
      );
    }
  }

  const warnings: UrlWarning[] = [];
  const warn = (code: UrlWarningCode, message: string) => warnings.push({ code, message });
  const result: UrlAnalysis = { ok: true, url: href, scheme, host, warnings };
  if (parsed.port) result.port = parsed.port;
  const loopback = isLoopback(host);
  const labels = host.split(".");
  const h = keepEnd(host);

  // Punycode / internationalized names: show both forms.
  let unicode: string | undefined;
  if (!ip && labels.some((l) => l.startsWith("xn--"))) {
    unicode = domainToUnicode(host) || undefined;
    // Node 22's parser refuses such a host; Node 24's and Chromium's accept it, and domainToUnicode then
    // gives "" or leaves the label as it was: refused here, the same everywhere.
    if (!unicode || unicode.split(".").some((l) => l.startsWith("xn--")))
      return refuse(
        `The host ${h} has a label that is not a valid internationalized name (punycode), so what it reads as cannot be shown.`,
        scheme,
        href,
      );
    // IDNA's bidi rule (RFC 5893): a part with right-to-left letters has no left-to-right ones. Node 24's
    // parser refuses such a host and Node 22's accepts it: refused here, the same everywhere.
    const mixedDirection = unicode.split(".").find(mixesDirections);
    if (mixedDirection)
      return refuse(
        `The host ${h} has a part that mixes right-to-left and left-to-right letters (${keepEnd(mixedDirection)}), which no valid internationalized name has.`,
        scheme,
        href,
      );
    if (unicode !== host) result.unicodeHost = unicode;
    const passesFor = latinSkeleton(unicode);
    warn(
      "punycode",
      `The address uses an internationalized name: it reads as ${keepEnd(unicode)} but is really ${h}${passesFor ? `, and can pass for ${keepEnd(passesFor)}` : ""}. Make sure this is the site you expect, not a look-alike.`,
    );
    const mixed = (unicode ?? host)
      .split(".")
      .map((label) => ({ label, scripts: scriptsOf(label) }))
      .filter((l) => !isAllowedScriptSet(l.scripts));
    if (mixed.length) {
      const what = mixed.map((l) => `“${l.label}” (${[...l.scripts].join(" + ")})`).join(", ");
      warn(
        "mixed-script",
        `The name mixes alphabets in ${what}: letters from one alphabet can pose as letters of another. Check the name letter by letter.`,
      );
    }
    const symbols = [...new Set([...(unicode ?? host)].filter((c) => c !== "." && c !== "-" && !/[\p{L}\p{M}\p{N}]/u.test(c)))];
    if (symbols.length) {
      warn(
        "lookalike-character",
        `The name contains the symbol${symbols.length > 1 ? "s" : ""} ${symbols.map((c) => `“${c}” (${codePoint(c)})`).join(", ")}, which can pass for “/”, “.” or other parts of an address. Check where the domain really ends.`,
      );
    }
  }

  // What the server wrote against what opens.
  const written = rawHost(input);
  if (ip) {
    const obfuscated = ip === "IPv4" && written !== undefined && written.toLowerCase() !== host && written.toLowerCase() !== `${host}.`;
    warn(
      "ip-host",
      obfuscated
        ? `The address is written as the number ${display(written, 80)}, which means the IP address ${h}: a disguised address with no name to check. Open it only if you expect this exact server.`
        : `The address is an ${ip} address (${h}), not a name: there is no domain to check. Open it only if you expect this exact server${loopback ? " (it is on your own computer)" : ""}.`,
    );
  } else if (written !== undefined) {
    const why = hostRewrite(written, host, unicode);
    if (why)
      warn(
        "host-rewritten",
        `The server wrote the name as “${display(written, 60)}”, but a browser opens ${keepEnd(hostForDisplay(result), 100)} (${why}). The address above is the one that opens.`,
      );
  }
  const beforeQuery = input.replace(/[?#].*$/s, "");
  if (beforeQuery.includes("\\")) {
    warn(
      "backslash",
      `The address has a backslash (“\\”), which a browser reads as “/”: it opens ${h}${parsed.pathname === "/" ? "" : ` with the path ${display(parsed.pathname, 80)}`}, whatever the text seems to say.`,
    );
  }

  if (parsed.username || parsed.password) {
    const name = parsed.username ? decodeSafe(parsed.username) : "";
    warn(
      "credentials",
      `The address has ${name ? `the user name “${name}”` : "a user name"}${parsed.password ? " and a password" : ""} before “@”. That part is not where the link goes: it goes to ${h}.`,
    );
  }
  const at = misleadingAt(parsed, host);
  if (at)
    warn(
      "misleading-at",
      `The address has “@${display(at, 80)}” after the host: it does not go to ${display(at, 80)} (a name before “@” is a user name only right after “//”). It opens ${h}.`,
    );

  if (scheme === "http" && !loopback) {
    warn(
      "insecure",
      `The link is not encrypted (http:, not https:): what you type there can be read or changed on the way. Do not enter passwords or payment details.`,
    );
  }

  if (href.length > LONG_URL_LENGTH) {
    warn(
      "long-url",
      `The address is ${href.length} characters long; long addresses can hide where they go. Check the host (${h}) rather than the end of the address.`,
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

  if (!ip) analyzeName(result, host, unicode, loopback, warn);

  if (parsed.port) {
    warn(
      "non-standard-port",
      `The address uses port ${parsed.port} instead of the usual one for ${scheme}:. Check that you expect this server.`,
    );
  }

  return result;
}

/** Registrable domain, local names, names carrying an IP, brand look-alikes, trailing dot. */
function analyzeName(
  result: UrlAnalysis,
  host: string,
  unicode: string | undefined,
  loopback: boolean,
  warn: (code: UrlWarningCode, message: string) => void,
): void {
  const h = keepEnd(host);
  const info = parseDomain(host, { allowPrivateDomains: true });
  // A host that is itself a hosting service's suffix (s3.amazonaws.com) belongs to the service.
  const domain = info.domain ?? (info.isPrivate ? parseDomain(host).domain : null) ?? undefined;
  const local = localName(host);
  if (domain) {
    result.registrableDomain = domain;
    // tldts ignores a final dot (an absolute name); it stays in the highlighted part.
    const registrable = host.endsWith(`${domain}.`) ? `${domain}.` : domain;
    if (host.endsWith(registrable)) result.hostParts = { before: host.slice(0, host.length - registrable.length), registrable };
  }

  if (local) {
    warn(
      "local-name",
      local.loopback
        ? `The address (${h}) points to a program on your own computer, not to a website. Open it only if you expect a local program to ask.`
        : local.why
          ? `The address (${h}) is not a public internet name (${local.why}): it reaches a machine on a local network, if any. Check that you expect it.`
          : `The address (${h}) is a single name with no domain, such as a machine on a local network. Check that you expect it.`,
    );
  } else if (!domain) {
    warn(
      "no-registrable-domain",
      `The address (${h}) is a public suffix such as .com or .co.uk, which no single owner controls. Check that you expect it.`,
    );
  } else if (info.isPrivate && !info.domain && domain === host.replace(/\.$/, "")) {
    // github.io itself: the suffix every customer's site sits under, not one of them.
    warn(
      "no-registrable-domain",
      `The address (${h}) is a hosting service's shared suffix, under which anyone can publish a site; the bare name is no one's site. Check that you expect it.`,
    );
  }

  const carried = ipInName(host);
  if (carried) {
    const scope = carried.ip ? ipv4Scope(carried.ip) : "";
    warn(
      "ip-in-name",
      carried.service
        ? `${carried.service} names resolve to the IP address written in them${carried.ip ? `: this one is ${carried.ip}${scope ? ` (${scope})` : ""}` : ""}. It is an IP address posing as a name; open it only if you expect this exact server.`
        : `The name contains the IP address ${carried.ip}${scope ? ` (${scope})` : ""}, but it is a name under ${keepEnd(domain ?? host)}, whose owner can point it anywhere. Open it only if you expect this exact server.`,
    );
  }

  if (domain && !local) {
    const unicodeDomain = unicode && domain.includes("xn--") ? domainToUnicode(domain) || undefined : undefined;
    const brand = brandLookalike(domain, unicodeDomain);
    if (brand)
      warn(
        "lookalike-brand",
        `The name ${keepEnd(unicodeDomain ?? domain)} looks like ${brand.brand} but is a different domain. Check it letter by letter.`,
      );
    const before = result.hostParts?.before;
    const unicodeBefore =
      unicode && before
        ? unicode
            .split(".")
            .slice(0, before.split(".").length - 1)
            .join(".")
        : before;
    const prefix = unicodeBefore ? domainInSubdomain(unicodeBefore) : undefined;
    if (prefix)
      warn(
        "domain-in-subdomain",
        `The name begins with ${keepEnd(prefix)}, but that is only the start of a longer name: the site belongs to ${keepEnd(unicodeDomain ?? domain)}.`,
      );
  }

  if (host.endsWith(".")) {
    warn(
      "trailing-dot",
      `The name ends with a dot (${h}). It reaches the same server as without it, but the browser treats it as another site: sign-ins and security checks can differ. Open it only if you expect this.`,
    );
  }
}

/** A name for a message: its end (where the registrable domain is) when it is long; the full one is on screen. */
const keepEnd = (name: string, max = 60) => (name.length > max ? `…${name.slice(-(max - 1))}` : name);

/**
 * A name after "@" in the path, query or fragment that reads as the host to someone who knows that
 * "user@host" names a host (evil.com#@good.com, evil.com/?@good.com, evil.com/x@good.com). An "@" inside a
 * query value (?next=a@b.com) or one naming the host's own domain does not count.
 */
function misleadingAt(parsed: URL, host: string): string | undefined {
  const tail = parsed.pathname + parsed.search + parsed.hash;
  const own = parseDomain(host).domain;
  for (const m of tail.matchAll(/@([a-z0-9.-]+)/gi)) {
    const segment =
      tail
        .slice(0, m.index)
        .split(/[/?#&;]/)
        .pop() ?? "";
    if (segment.includes("=")) continue;
    const name = m[1]!.replace(/\.$/, "").toLowerCase();
    if (ipKind(name) === "IPv4") return name;
    const info = parseDomain(name);
    if (info.domain && info.isIcann && info.domain !== own) return name;
  }
  return undefined;
}
