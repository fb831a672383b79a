// Hostile and benign URLs a server could send for URL-mode elicitation, each with the verdict
// analyzeUrl must give: refused (never offered), or offered with at least the warnings listed. Benign
// URLs are offered with exactly the warnings listed (usually none). Escapes keep the invisible ones readable.
import type { UrlWarningCode } from "../../../src/client/url-safety/analyze.js";

export interface UrlCase {
  url: string;
  /** What makes it hostile (or ordinary). */
  why: string;
  /** false: refused. */
  ok: boolean;
  /** Hostile: warnings it must carry (at least one when offered). Benign: exactly these. */
  warnings?: UrlWarningCode[];
}

const long = (n: number) => "a".repeat(n);

export const HOSTILE: UrlCase[] = [
  // Homographs, mixed scripts, punycode.
  { url: "https://аpple.com/", why: "Cyrillic а in a Latin brand", ok: true, warnings: ["punycode", "mixed-script"] },
  { url: "https://xn--pple-43d.com/", why: "the same look-alike, written as punycode", ok: true, warnings: ["punycode", "mixed-script"] },
  { url: "https://раураl.com/login", why: "all-Cyrillic look-alike of paypal", ok: true, warnings: ["punycode"] },
  { url: "https://gοogle.com/", why: "Greek omicron in google", ok: true, warnings: ["punycode", "mixed-script"] },
  { url: "https://micrοsoft.com/", why: "Greek omicron in microsoft", ok: true, warnings: ["punycode", "mixed-script"] },
  { url: "https://xn--80ak6aa92e.com/", why: "punycode of an all-Cyrillic apple look-alike", ok: true, warnings: ["punycode"] },
  { url: "https://ｇｏｏｇｌｅ.com/", why: "full-width letters, folded by the parser", ok: true, warnings: ["host-rewritten"] },
  {
    url: "https://paypal.com⁄login.evil.com/",
    why: "fraction slash posing as a path",
    ok: true,
    warnings: ["punycode", "lookalike-character"],
  },
  { url: "https://accounts.google.com.evil.com/", why: "a brand domain as a subdomain", ok: true, warnings: ["domain-in-subdomain"] },
  { url: "https://paypa1.com/", why: "digit 1 for l in a brand", ok: true, warnings: ["lookalike-brand"] },
  { url: "https://ɡoogle.com/", why: "Latin script g (U+0261), one script", ok: true, warnings: ["punycode", "lookalike-brand"] },
  {
    url: "https://www.xn--pypal-4ve.com/",
    why: "a punycode brand look-alike under www",
    ok: true,
    warnings: ["punycode", "mixed-script", "lookalike-brand"],
  },
  { url: "https://%65vil.com/", why: "a percent-encoded host", ok: true, warnings: ["host-rewritten"] },
  // Regression: offered without a warning until I (which the parser lower-cases to i) counted as l.
  { url: "https://googIe.com/", why: "capital I for l, lower-cased to googie", ok: true, warnings: ["lookalike-brand"] },
  { url: "https://rnicrosoft.com/", why: "rn for m", ok: true, warnings: ["lookalike-brand"] },
  {
    url: "https://1.1.1.1&@2.2.2.2#@3.3.3.3/",
    why: "a parser-confusion classic: userinfo, IP host, @ in the fragment",
    ok: true,
    warnings: ["ip-host", "credentials", "misleading-at"],
  },
  { url: "https://evil.com:443@paypal.com/", why: "a port-looking password", ok: true, warnings: ["credentials"] },
  { url: "https://0xA9FEA9FE/", why: "the metadata address in hex", ok: true, warnings: ["ip-host"] },
  { url: "https://xn--a.com/", why: "invalid punycode label", ok: false },
  { url: "https://EXAMPLE。com/", why: "ideographic full stop as a dot", ok: true, warnings: ["host-rewritten"] },
  // Userinfo and misleading @.
  { url: "https://paypal.com@evil.com/", why: "a brand as the user name", ok: true, warnings: ["credentials"] },
  { url: "https://user:secret@example.com/", why: "credentials in the URL", ok: true, warnings: ["credentials"] },
  { url: "https://evil.com#@paypal.com", why: "@ in the fragment reads as the host", ok: true, warnings: ["misleading-at"] },
  { url: "https://evil.com/?@paypal.com", why: "@ in the query reads as the host", ok: true, warnings: ["misleading-at"] },
  { url: "https://evil.com\\@paypal.com", why: "a backslash before @", ok: true, warnings: ["backslash"] },
  { url: "https:/\\evil.com", why: "one slash and a backslash", ok: true, warnings: ["backslash"] },
  { url: "https://paypal.com\\.evil.com/", why: "a backslash read as a slash", ok: true, warnings: ["backslash"] },
  // IP literals in every notation.
  { url: "http://127.0.0.1/", why: "dotted loopback", ok: true, warnings: ["ip-host"] },
  { url: "http://2130706433/", why: "decimal IPv4", ok: true, warnings: ["ip-host"] },
  { url: "http://0177.0.0.1/", why: "octal IPv4", ok: true, warnings: ["ip-host"] },
  { url: "http://0x7f.0x0.0x0.0x1/", why: "hex IPv4 by parts", ok: true, warnings: ["ip-host"] },
  { url: "http://0x7f000001/", why: "hex IPv4 whole", ok: true, warnings: ["ip-host"] },
  { url: "http://127.1/", why: "short dotted IPv4", ok: true, warnings: ["ip-host"] },
  { url: "https://169.254.169.254/latest/meta-data/", why: "cloud metadata address", ok: true, warnings: ["ip-host"] },
  { url: "https://[::1]/", why: "IPv6 loopback", ok: true, warnings: ["ip-host"] },
  { url: "https://[::ffff:127.0.0.1]/", why: "IPv4-mapped IPv6", ok: true, warnings: ["ip-host"] },
  { url: "https://[::ffff:7f00:1]/", why: "IPv4-mapped IPv6 in hex", ok: true, warnings: ["ip-host"] },
  { url: "https://[fe80::1%25eth0]/", why: "IPv6 zone id", ok: false },
  { url: "https://10.0.0.1:8443/admin", why: "private IPv4 with a port", ok: true, warnings: ["ip-host", "non-standard-port"] },
  { url: "http://①②⑦.0.0.1/", why: "enclosed digits that fold to 127.0.0.1", ok: true, warnings: ["ip-host"] },
  { url: "https://0/", why: "0, which means 0.0.0.0", ok: true, warnings: ["ip-host"] },
  { url: "https://[::]/", why: "the unspecified IPv6 address", ok: true, warnings: ["ip-host"] },
  { url: "https://127.0.0.1.nip.io/", why: "a name that resolves to the IP in it", ok: true, warnings: ["ip-in-name"] },
  // Schemes other than https/http.
  { url: "javascript:alert(1)", why: "javascript:", ok: false },
  { url: "JaVaScRiPt:alert(document.cookie)", why: "javascript: in mixed case", ok: false },
  { url: "java\tscript:alert(1)", why: "a tab inside javascript:", ok: false },
  { url: "data:text/html,<script>alert(1)</script>", why: "data: HTML", ok: false },
  { url: "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==", why: "base64 data: HTML", ok: false },
  { url: "file:///etc/passwd", why: "file:", ok: false },
  { url: "vbscript:msgbox(1)", why: "vbscript:", ok: false },
  { url: "ftp://example.com/file", why: "ftp:", ok: false },
  { url: "blob:https://example.com/uuid", why: "blob:", ok: false },
  { url: "about:blank", why: "about:", ok: false },
  { url: "chrome://settings", why: "a browser's own pages", ok: false },
  { url: "intent://scan/#Intent;scheme=zxing;end", why: "an Android intent", ok: false },
  { url: "ms-settings:privacy", why: "an operating system handler", ok: false },
  { url: "//evil.com/", why: "scheme-relative", ok: false },
  { url: "/relative/path", why: "not absolute", ok: false },
  // Control, zero-width and bidi characters.
  { url: "https://exa\u200Bmple.com/", why: "zero-width space in the host", ok: false },
  { url: "https://example.com/\u202Egpj.exe", why: "right-to-left override in the path", ok: false },
  { url: "https://example.com/\u2066x\u2069", why: "bidi isolates", ok: false },
  { url: "https://example.com/\u0000", why: "NUL", ok: false },
  { url: "https://example.com/\u001B[31mred", why: "a terminal escape", ok: false },
  { url: "https://example.com/\u009B31m", why: "an 8-bit CSI", ok: false },
  { url: "https://exam\u00ADple.com/", why: "soft hyphen in the host", ok: false },
  { url: "https://example.com/\uFEFF", why: "byte order mark", ok: false },
  { url: "https://example.com/%E2%80%AEgpj.exe", why: "an encoded right-to-left override", ok: true, warnings: ["hidden-characters"] },
  { url: "https://example.com/a b", why: "a space inside", ok: false },
  // Overlong.
  { url: `https://example.com/${long(40_000)}`, why: "over the length limit", ok: false },
  { url: `https://${long(64)}.com/`, why: "a host label over 63 characters", ok: false },
  { url: `https://${Array.from({ length: 60 }, () => "abcd").join(".")}.com/`, why: "a host over 253 characters", ok: false },
  { url: `https://example.com/${"x".repeat(3000)}`, why: "long enough to hide the host", ok: true, warnings: ["long-url"] },
  // Ports, local names, plain http, public suffixes, trailing dots.
  { url: "https://example.com:22/", why: "ssh's port", ok: true, warnings: ["non-standard-port"] },
  { url: "http://example.com/login", why: "plain http", ok: true, warnings: ["insecure"] },
  { url: "https://localhost/", why: "loopback by name", ok: true, warnings: ["local-name"] },
  { url: "https://router.local/", why: "an mDNS name", ok: true, warnings: ["local-name"] },
  { url: "https://intranet/", why: "a single-label name", ok: true, warnings: ["local-name"] },
  { url: "https://co.uk/", why: "a bare public suffix", ok: true, warnings: ["no-registrable-domain"] },
  { url: "https://example.com./", why: "a trailing dot", ok: true, warnings: ["trailing-dot"] },
  { url: "", why: "empty", ok: false },
  { url: "not a url", why: "not a URL", ok: false },
];

export const BENIGN: UrlCase[] = [
  { url: "https://example.com/", why: "plain", ok: true },
  { url: "https://example.com/pay?amount=3000&currency=EUR", why: "a query", ok: true },
  { url: "https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000", why: "an elicitation id", ok: true },
  { url: "https://accounts.google.com/o/oauth2/v2/auth?client_id=abc&scope=openid", why: "a real sign-in page", ok: true },
  { url: "https://github.com/login/oauth/authorize?client_id=Iv1.abc", why: "an OAuth page", ok: true },
  { url: "https://www.paypal.com/checkoutnow?token=EC-123", why: "the real paypal", ok: true },
  { url: "https://example.co.uk/account", why: "a two-level suffix", ok: true },
  { url: "https://sub.domain.example.org/path/to/page#section", why: "a fragment", ok: true },
  { url: "https://example.com/search?q=caf%C3%A9", why: "encoded Unicode in the query", ok: true },
  { url: "https://example.com/?next=user@example.org", why: "an @ inside a query value", ok: true },
  { url: "https://EXAMPLE.com/Path", why: "an upper-case host", ok: true },
  { url: "https://example.com", why: "no path", ok: true },
  { url: "https://example.com:443/", why: "the default port, written", ok: true },
  { url: "https://münchen.de/", why: "a German name, one script", ok: true, warnings: ["punycode"] },
  { url: "https://例え.jp/", why: "a Japanese name", ok: true, warnings: ["punycode"] },
  { url: "https://stripe.com/pay/cs_test_a1b2c3", why: "a payment page", ok: true },
  { url: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize", why: "Microsoft sign-in", ok: true },
  { url: "https://bucket.s3.amazonaws.com/object", why: "a hosting service subdomain", ok: true },
  { url: "https://example.com/a/b/c/../d", why: "dot segments", ok: true },
  { url: "https://xn--mnchen-3ya.de/", why: "münchen.de as punycode", ok: true, warnings: ["punycode"] },
  { url: "  https://example.com/trimmed  ", why: "surrounding spaces, trimmed", ok: true },
  { url: "http://localhost:3000/callback", why: "a local development callback", ok: true, warnings: ["local-name", "non-standard-port"] },
];
