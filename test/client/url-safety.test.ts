import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  analyzeUrl,
  hostForDisplay,
  LONG_HOST_LENGTH,
  LONG_URL_LENGTH,
  MAX_URL_LENGTH,
  type UrlAnalysis,
} from "../../src/client/url-safety/analyze.js";

const codes = (a: UrlAnalysis) => a.warnings.map((w) => w.code).sort();
function message(a: UrlAnalysis, code: string): string {
  const w = a.warnings.find((x) => x.code === code);
  assert.ok(w, `no ${code} warning in ${JSON.stringify(a.warnings)}`);
  return w.message;
}
function accepted(url: string): UrlAnalysis {
  const a = analyzeUrl(url);
  assert.equal(a.ok, true, `refused ${JSON.stringify(url)}: ${a.refusal}`);
  assert.equal(a.refusal, undefined);
  // What is shown is what would be opened: printable ASCII, host included.
  assert.match(a.url, /^[\x21-\x7e]+$/);
  assert.equal(new URL(a.url).href, a.url);
  assert.equal(new URL(a.url).hostname, a.host);
  if (a.hostParts) assert.equal(a.hostParts.before + a.hostParts.registrable, a.host);
  for (const w of a.warnings) assert.ok(w.message.length > 20 && w.message.length < 400 && !/[\u0000-\u001f]/.test(w.message));
  return a;
}
function refused(url: string): UrlAnalysis {
  const a = analyzeUrl(url);
  assert.equal(a.ok, false, `accepted ${JSON.stringify(url)}`);
  assert.ok(a.refusal && a.refusal.length > 10);
  assert.deepEqual(a.warnings, []);
  assert.equal(a.host, "");
  assert.ok(!/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(a.url), `not inert: ${JSON.stringify(a.url)}`);
  return a;
}

test("an ordinary https URL is ok with no warnings, and its registrable domain is split out", () => {
  const a = accepted("https://example.com/pay");
  assert.deepEqual(a, {
    ok: true,
    url: "https://example.com/pay",
    scheme: "https",
    host: "example.com",
    warnings: [],
    registrableDomain: "example.com",
    hostParts: { before: "", registrable: "example.com" },
  });
  const b = accepted("https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000#x");
  assert.deepEqual(codes(b), []);
  assert.deepEqual(b.hostParts, { before: "mcp.", registrable: "example.com" });
});

test("the URL is normalized to what a browser would open", () => {
  const a = accepted("HTTPS://Example.COM:443/a%20b/ü?q=é#ü");
  assert.equal(a.url, "https://example.com/a%20b/%C3%BC?q=%C3%A9#%C3%BC");
  assert.equal(a.port, undefined);
  assert.deepEqual(codes(a), []);
  assert.equal(accepted("https:example.com").url, "https://example.com/");
  assert.equal(accepted("https://ｅｘａｍｐｌｅ．ｃｏｍ/").host, "example.com");
});

test("subdomain spoofing: the registrable domain is what the name really belongs to", () => {
  const a = accepted("https://accounts.google.com.evil.co.uk/login");
  assert.equal(a.registrableDomain, "evil.co.uk");
  assert.deepEqual(a.hostParts, { before: "accounts.google.com.", registrable: "evil.co.uk" });
  // The name begins with a complete, well-known domain: said in words as well as highlighted.
  assert.deepEqual(codes(a), ["domain-in-subdomain"]);
  assert.match(message(a, "domain-in-subdomain"), /begins with google\.com.*belongs to evil\.co\.uk/);
  assert.deepEqual(codes(accepted("https://mybank.com.secure-login.net/")), ["domain-in-subdomain"]);
  // Ordinary subdomains, and new top-level names that are also words (app, dev), are not domains.
  assert.deepEqual(codes(accepted("https://app.dev.example.com/")), []);
  assert.deepEqual(codes(accepted("https://www.google.com.au/")), []);
  // Private suffixes count: each github.io site is its own owner.
  assert.equal(accepted("https://evil.github.io/x").registrableDomain, "evil.github.io");
  assert.equal(accepted("https://a.b.example.com.au/").registrableDomain, "example.com.au");
  // A final dot is kept in the highlighted part, so the parts still make up the host.
  assert.deepEqual(accepted("https://www.example.com./").hostParts, { before: "www.", registrable: "example.com." });
});

test("refused: anything that is not an absolute URL", () => {
  for (const u of [
    "",
    "   ",
    "example.com",
    "//example.com/x",
    "/relative/path",
    "https://",
    "https://exa mple.com",
    "http://[::1",
    "https://999999999999/",
    "https://1.2.3.4.5/",
  ]) {
    const a = refused(u);
    assert.equal(a.scheme, "", u);
  }
  // Invalid punycode: Node 22's parser refuses it, Node 24's does not and the check after it does.
  assert.match(refused("https://xn--zz.com/").refusal!, /not a valid absolute URL|not a valid internationalized name/);
  // Not a string at all (the type says string, the wire may not).
  assert.equal(analyzeUrl(undefined as unknown as string).ok, false);
  assert.equal(analyzeUrl(42 as unknown as string).ok, false);
});

test("refused: every scheme other than https and http", () => {
  const cases: [string, string][] = [
    ["javascript:alert(1)", "javascript"],
    ["JavaScript:alert(document.cookie)", "javascript"],
    ["data:text/html,<script>alert(1)</script>", "data"],
    ["data:text/html;base64,PHNjcmlwdD4=", "data"],
    ["file:///etc/passwd", "file"],
    ["vbscript:msgbox(1)", "vbscript"],
    ["blob:https://example.com/550e8400-e29b-41d4-a716-446655440000", "blob"],
    ["about:blank", "about"],
    ["ftp://example.com/file", "ftp"],
    ["ws://example.com/", "ws"],
    ["wss://example.com/", "wss"],
    ["mailto:someone@example.com", "mailto"],
    ["slack://open", "slack"],
    ["vscode://file/etc/passwd", "vscode"],
    ["intent://scan/#Intent;scheme=zxing;end", "intent"],
  ];
  for (const [u, scheme] of cases) {
    const a = refused(u);
    assert.equal(a.scheme, scheme, u);
    assert.match(a.refusal!, new RegExp(`${scheme}:`));
  }
});

test("whitespace and control characters: surrounding ASCII whitespace is dropped, anything inside is refused", () => {
  // Decision: leading/trailing ASCII whitespace is tolerated (the URL parser drops it too, and nothing
  // is hidden by it) ...
  for (const u of [" https://example.com", "https://example.com ", "\n\thttps://example.com/\r\n"]) {
    const a = accepted(u);
    assert.equal(a.url, "https://example.com/");
    assert.deepEqual(codes(a), []);
  }
  // ... but a tab or line break inside is silently deleted by the parser, so the text would read
  // differently from the URL: refused, as are controls, other spaces and invisible/bidi characters.
  const inside = [
    "https://exa\tmple.com/",
    "https://exa\nmple.com/",
    "https://example.com/a\rb",
    "https://example.com/a b",
    "\u0000https://example.com",
    "https://example.com/\u0007",
    "https://example.com/\u001b[31m",
    "https://example.com/\u007f",
    "https://example.com/\u0085",
    "https://example.com/\u009b31m",
    "https://example.com\u00a0/",
    "https://example.com/\u3000",
    "https://\u202Emoc.elgoog.evil.com/",
    "https://example.com/\u2066x",
    "https://pay\u00adpal.com/",
    "https://exa\u200bmple.com/",
    "https://example.com/\ufeff",
    "https://example.com/\u2028",
    "\ufeffhttps://example.com",
    "https://example.com/\ud800",
    "https://example.com/\u{E0041}",
  ];
  for (const u of inside) {
    const a = refused(u);
    assert.match(a.refusal!, /position \d+/, u);
  }
  assert.match(refused("https://exa\tmple.com/").refusal!, /a tab at position 12/);
  assert.match(refused("https://\u202Eexample.com").refusal!, /invisible formatting character \(U\+202E\)/);
  // The refused text is made inert for display.
  assert.equal(refused("https://exa\u001b[31mmple.com").url, "https://exa\\u{1b}[31mmple.com");
});

test("punycode: any xn-- label or non-ASCII host is flagged and both forms are shown", () => {
  const cyrillicA = accepted("https://\u0430pple.com/"); // Cyrillic а
  assert.equal(cyrillicA.host, "xn--pple-43d.com");
  assert.equal(cyrillicA.unicodeHost, "\u0430pple.com");
  assert.deepEqual(codes(cyrillicA), ["lookalike-brand", "mixed-script", "punycode"]);
  const m = message(cyrillicA, "punycode");
  assert.ok(m.includes("xn--pple-43d.com") && m.includes("\u0430pple.com"), m);
  assert.ok(m.includes("apple.com"), m); // what it can pass for

  const written = accepted("https://xn--pple-43d.com");
  assert.equal(written.unicodeHost, "\u0430pple.com");
  assert.deepEqual(codes(written), ["lookalike-brand", "mixed-script", "punycode"]);
  assert.equal(written.registrableDomain, "xn--pple-43d.com");

  // Whole-script look-alike: all Cyrillic, no mixing within the label, but it still reads as "apple".
  const whole = accepted("https://xn--80ak6aa92e.com/");
  assert.equal(whole.unicodeHost, "аррӏе.com");
  assert.deepEqual(codes(whole), ["lookalike-brand", "punycode"]);
  assert.match(message(whole, "punycode"), /can pass for apple\.com/);
  assert.match(message(whole, "lookalike-brand"), /аррӏе\.com looks like apple\.com/);

  // A legitimate IDN is still flagged (the person should see both forms), without mixed-script.
  const jp = accepted("https://例え.jp/");
  assert.equal(jp.host, "xn--r8jz45g.jp");
  assert.equal(jp.unicodeHost, "例え.jp");
  assert.deepEqual(codes(jp), ["punycode"]);
  assert.doesNotMatch(message(jp, "punycode"), /pass for/);
  const rf = accepted("https://пример.рф/");
  assert.deepEqual(codes(rf), ["punycode"]);
  assert.equal(rf.registrableDomain, "xn--e1afmkfd.xn--p1ai");

  // Negative: plain ASCII names have no unicodeHost and no punycode warning.
  const plain = accepted("https://xn-example.com/"); // one hyphen: not punycode
  assert.equal(plain.unicodeHost, undefined);
  assert.deepEqual(codes(plain), []);
});

test("mixed-script: a label mixing alphabets is flagged; one writing system is not", () => {
  for (const [u, scripts] of [
    ["https://p\u0430ypal.com/", "Cyrillic"], // Cyrillic а inside Latin
    ["https://\u03bfpenai.com/", "Greek"], // Greek ο
    ["https://go\u043egle.com/", "Cyrillic"],
    ["https://\u0430\u03b1.com/", "Greek"], // Cyrillic + Greek, no Latin at all
  ] as const) {
    const a = accepted(u);
    assert.ok(codes(a).includes("mixed-script"), u);
    assert.ok(codes(a).includes("punycode"), u);
    assert.match(message(a, "mixed-script"), new RegExp(scripts), u);
  }
  // Latin beside Hebrew or Arabic in one part breaks IDNA's bidi rule: refused on every Node (Node 24's
  // parser refuses it, Node 22's did not).
  for (const u of ["https://bank\u05d0.com/", "https://pay\u0628.com/", "https://xn--bank-otf.com/"]) {
    assert.match(
      refused(u).refusal!,
      /mixes right-to-left and left-to-right letters|not a valid absolute URL|not a valid internationalized name/,
      u,
    );
  }
  // Japanese mixes Han, Hiragana, Katakana and Latin; Korean Hangul + Han; digits and hyphens are neutral.
  for (const u of [
    "https://日本語テキストのabc.jp/",
    "https://한국어漢字.kr/",
    "https://пример-2024.рф/",
    "https://bücher.de/",
    "https://ελληνικά.gr/",
  ]) {
    const a = accepted(u);
    assert.ok(!codes(a).includes("mixed-script"), `${u}: ${JSON.stringify(a.warnings)}`);
  }
  // Labels are judged one by one: a Cyrillic label next to a Latin one is not mixing.
  assert.ok(!codes(accepted("https://пример.example.com/")).includes("mixed-script"));
});

test("look-alike symbols in a name (a slash that is not a slash) are flagged", () => {
  const a = accepted("https://google.com\u2215login.evil.com/");
  assert.equal(a.unicodeHost, "google.com\u2215login.evil.com");
  assert.equal(a.registrableDomain, "evil.com");
  assert.ok(codes(a).includes("lookalike-character"));
  assert.match(message(a, "lookalike-character"), /U\+2215/);
  assert.ok(!codes(accepted("https://bücher.de/")).includes("lookalike-character"));
});

test("ip-host: IPv4 and IPv6 literals, including disguised numeric forms", () => {
  const local = accepted("http://127.0.0.1:8080/cb");
  assert.ok(codes(local).includes("ip-host"));
  assert.ok(!codes(local).includes("insecure"), "loopback over http is not insecure");
  assert.equal(local.registrableDomain, undefined);
  assert.equal(local.hostParts, undefined);
  assert.ok(!codes(local).includes("no-registrable-domain"));

  for (const [u, host] of [
    ["https://0x7f000001/", "127.0.0.1"],
    ["https://2130706433/", "127.0.0.1"],
    ["https://0177.0.0.1/", "127.0.0.1"],
    ["https://127.1/", "127.0.0.1"],
    ["https://0xc0.0xa8.0x1.0x1/", "192.168.1.1"],
  ] as const) {
    const a = accepted(u);
    assert.equal(a.host, host, u);
    assert.deepEqual(codes(a), ["ip-host"], u);
    assert.match(message(a, "ip-host"), /written as the number .* which means the IP address/, u);
  }
  const plainIp = accepted("https://93.184.216.34/");
  assert.deepEqual(codes(plainIp), ["ip-host"]);
  assert.doesNotMatch(message(plainIp, "ip-host"), /written as/);

  const v6 = accepted("https://[2001:db8::1]/");
  assert.equal(v6.host, "[2001:db8::1]");
  assert.deepEqual(codes(v6), ["ip-host"]);
  assert.deepEqual(codes(accepted("http://[::1]:3000/")), ["ip-host", "non-standard-port"]);
  assert.deepEqual(codes(accepted("http://[::ffff:127.0.0.1]/")), ["ip-host"]);
  assert.deepEqual(codes(accepted("http://[::ffff:10.0.0.1]/")), ["insecure", "ip-host"]);

  // Negative: names made of digits are not IPs.
  assert.deepEqual(codes(accepted("https://123.com/")), []);
  assert.deepEqual(codes(accepted("https://1.2.3.example.com/")), []);
});

test("credentials: user:password@ and user@ are flagged, naming where the link really goes", () => {
  const a = accepted("https://user:pw@example.com/");
  assert.deepEqual(codes(a), ["credentials"]);
  assert.match(message(a, "credentials"), /user name “user” and a password/);
  assert.doesNotMatch(message(a, "credentials"), /pw/);
  assert.equal(a.url, "https://user:pw@example.com/", "the full URL is still shown");

  const spoof = accepted("https://accounts.google.com@evil.com/login");
  assert.equal(spoof.host, "evil.com");
  assert.deepEqual(codes(spoof), ["credentials"]);
  assert.match(message(spoof, "credentials"), /accounts\.google\.com.*goes to evil\.com/);

  assert.deepEqual(codes(accepted("https://:secret@example.com/")), ["credentials"]);
  assert.deepEqual(codes(accepted("https://@example.com/")), []); // empty userinfo is dropped by the parser
  // "@name" after the host reads as user@host to whoever knows the rule: it does not go there.
  assert.deepEqual(codes(accepted("https://example.com/path@other.com")), ["misleading-at"]);
  assert.match(message(accepted("https://evil.com#@good.com"), "misleading-at"), /“@good\.com”.*not go to good\.com.*opens evil\.com/);
  assert.deepEqual(codes(accepted("https://example.com/users/ana@example.com")), []); // its own domain
  assert.deepEqual(codes(accepted("https://mastodon.social/@Gargron")), []); // not a name
  assert.deepEqual(codes(accepted("https://example.com/?next=a@b.com")), []);
});

test("insecure: http to anything but this computer", () => {
  const a = accepted("http://evil.com");
  assert.deepEqual(codes(a), ["insecure"]);
  assert.match(message(a, "insecure"), /http:/);
  assert.ok(codes(accepted("http://192.168.1.10/")).includes("insecure"));
  for (const u of [
    "http://localhost/cb",
    "http://localhost:3000/cb",
    "http://app.localhost/",
    "http://127.0.0.1/",
    "http://127.255.0.9/",
    "http://[::1]/",
    "https://evil.com/",
  ]) {
    assert.ok(!codes(accepted(u)).includes("insecure"), u);
  }
  // "localhost" as a subdomain of something else is not local.
  assert.ok(codes(accepted("http://localhost.evil.com/")).includes("insecure"));
});

test("long-url: over 2048 characters warns, but the URL is kept whole", () => {
  const base = "https://example.com/cb?state=";
  const long = base + "a".repeat(3000 - base.length);
  const a = accepted(long);
  assert.deepEqual(codes(a), ["long-url"]);
  assert.equal(a.url, long);
  assert.match(message(a, "long-url"), /3000 characters.*example\.com/);
  assert.deepEqual(codes(accepted(base + "a".repeat(LONG_URL_LENGTH - base.length))), []);
  assert.deepEqual(codes(accepted(base + "a".repeat(LONG_URL_LENGTH - base.length + 1))), ["long-url"]);
  // Beyond what a person can check at all: refused.
  assert.match(refused(base + "a".repeat(MAX_URL_LENGTH)).refusal!, /too long/);
  assert.ok(refused(base + "a".repeat(MAX_URL_LENGTH)).url.length <= LONG_URL_LENGTH);
});

test("long-url: a host name too long to read warns, though DNS allows it (a 195-character host)", () => {
  // Three 60-character labels and login.example.com: 195 characters, each label within DNS's 63.
  const host = `${"x".repeat(60)}.${"y".repeat(60)}.${"z".repeat(55)}.login.example.com`;
  assert.equal(host.length, 195);
  const a = accepted(`https://${host}/`);
  assert.deepEqual(codes(a), ["long-url"]);
  assert.match(message(a, "long-url"), /host name is 195 characters long.*Check its end \(….*login\.example\.com\)/);
  assert.equal(a.registrableDomain, "example.com");
  // At the bound, no warning; one more character, the warning.
  const at = (n: number) => `https://${"a".repeat(n - 60 - ".example.com".length)}.${"b".repeat(59)}.example.com/`;
  assert.deepEqual(codes(accepted(at(LONG_HOST_LENGTH))), []);
  assert.deepEqual(codes(accepted(at(LONG_HOST_LENGTH + 1))), ["long-url"]);
});

test("no-registrable-domain: bare public suffixes; hosting-service suffixes belong to the service", () => {
  for (const [u, host] of [
    ["https://co.uk/", "co.uk"],
    ["https://com/", "com"],
  ] as const) {
    const a = accepted(u);
    assert.equal(a.host, host);
    assert.deepEqual(codes(a), ["no-registrable-domain"], u);
    assert.match(message(a, "no-registrable-domain"), /public suffix/);
    assert.equal(a.registrableDomain, undefined);
    assert.equal(a.hostParts, undefined);
  }
  // A service host under the service's own domain (S3 path-style): no false alarm, the service's domain.
  for (const [u, domain, before] of [
    ["https://s3.amazonaws.com/bucket/key", "amazonaws.com", "s3."],
    ["https://s3.us-east-1.amazonaws.com/bucket/key", "amazonaws.com", "s3.us-east-1."],
  ] as const) {
    const a = accepted(u);
    assert.deepEqual(codes(a), [], u);
    assert.equal(a.registrableDomain, domain, u);
    assert.deepEqual(a.hostParts, { before, registrable: domain }, u);
  }
  // A shared hosting suffix that is its own registered domain (bare github.io) is no one's site: it warns.
  for (const u of ["https://github.io/", "https://github.io./x"]) {
    const bare = accepted(u);
    assert.deepEqual(codes(bare), u.endsWith("x") ? ["no-registrable-domain", "trailing-dot"] : ["no-registrable-domain"], u);
    assert.match(message(bare, "no-registrable-domain"), /hosting service's shared suffix, under which anyone can publish/);
    assert.equal(bare.registrableDomain, "github.io");
  }
  assert.deepEqual(codes(accepted("https://octocat.github.io/Spoon-Knife/")), []);
  // Under it, each customer is its own owner.
  assert.equal(accepted("https://bucket.s3.amazonaws.com/k").registrableDomain, "bucket.s3.amazonaws.com");
});

test("local-name: this computer, local networks and names outside the public suffix list", () => {
  const local = accepted("http://localhost:3000/callback");
  assert.deepEqual(codes(local), ["local-name", "non-standard-port"]);
  assert.match(message(local, "local-name"), /your own computer/);
  for (const u of ["http://evil.localhost/", "https://localhost.localdomain/", "https://app.lvh.me/", "https://x.localtest.me/"]) {
    assert.match(message(accepted(u), "local-name"), /your own computer/, u);
  }
  const single = accepted("https://intranet/");
  assert.deepEqual(codes(single), ["local-name"]);
  assert.match(message(single, "local-name"), /single name/);
  for (const [u, why] of [
    ["https://printer.local/", /\.local is for local-network/],
    ["https://router.home.arpa/", /home\.arpa/],
    ["https://x.zzzz/", /\.zzzz is not a top-level name/],
  ] as const) {
    assert.match(message(accepted(u), "local-name"), why, u);
  }
  // Unknown top-level names still have a registrable domain (one label above the suffix), for the highlight.
  const internal = accepted("https://mcp.example.internal/");
  assert.equal(internal.registrableDomain, "example.internal");
  assert.deepEqual(codes(internal), ["local-name"]);
  assert.match(message(internal, "local-name"), /\.internal is for names inside private networks/);
});

test("non-standard-port: any explicit port other than the scheme's default", () => {
  const a = accepted("https://example.com:8443/");
  assert.deepEqual(codes(a), ["non-standard-port"]);
  assert.equal(a.port, "8443");
  assert.match(message(a, "non-standard-port"), /8443/);
  assert.deepEqual(codes(accepted("https://example.com:80/")), ["non-standard-port"]);
  assert.deepEqual(codes(accepted("http://example.com:443/")), ["insecure", "non-standard-port"]);
  assert.deepEqual(codes(accepted("https://example.com:443/")), []);
  assert.deepEqual(codes(accepted("http://example.com:80/")), ["insecure"]);
});

test("several problems at once are all reported", () => {
  const a = accepted("http://admin:pw@0x7f000001:8080/" + "x".repeat(2100));
  assert.deepEqual(codes(a), ["credentials", "ip-host", "long-url", "non-standard-port"]);
  const b = accepted("http://user@\u0430pple.com:81/");
  assert.deepEqual(codes(b), ["credentials", "insecure", "lookalike-brand", "mixed-script", "non-standard-port", "punycode"]);
});

test("backslashes are read as a browser reads them", () => {
  // A browser goes to evil.com here; the normalized URL says so.
  const a = accepted("https://evil.com\\@good.com/");
  assert.equal(a.host, "evil.com");
  assert.equal(a.url, "https://evil.com/@good.com/");
  assert.deepEqual(codes(a), ["backslash", "misleading-at"]);
  assert.match(message(a, "backslash"), /reads as “\/”: it opens evil\.com with the path \/@good\.com\//);
  const b = accepted("https:\\\\evil.com");
  assert.deepEqual(codes(b), ["backslash"]);
  // In the query or fragment a backslash is just a character.
  assert.deepEqual(codes(accepted("https://example.com/?q=a\\b")), []);
});

test("trailing dot, overlong names and hidden characters once decoded", () => {
  const dot = accepted("https://example.com./");
  assert.deepEqual(codes(dot), ["trailing-dot"]);
  assert.match(message(dot, "trailing-dot"), /ends with a dot \(example\.com\.\)/);
  // DNS limits: 63 per label, 253 in all (a final dot not counted).
  assert.deepEqual(codes(accepted(`https://${"a".repeat(63)}.com/`)), []);
  assert.match(refused(`https://${"a".repeat(64)}.com/`).refusal!, /a part 64 characters long/);
  const longest = `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`;
  assert.equal(longest.length, 253);
  // Within DNS's limits, but longer than a person reads: a warning, not a refusal.
  assert.deepEqual(codes(accepted(`https://${longest}/`)), ["long-url"]);
  assert.deepEqual(codes(accepted(`https://${longest}./`)), ["long-url", "trailing-dot"]);
  assert.match(refused(`https://x${longest}/`).refusal!, /host name is 254 characters long/);
  assert.equal(refused(`https://x${longest}/`).scheme, "https");

  const rlo = accepted("https://example.com/download?file=invoice%E2%80%AEfdp.exe");
  assert.deepEqual(codes(rlo), ["hidden-characters"]);
  assert.match(
    message(rlo, "hidden-characters"),
    /query, once its %-codes are decoded, contains an invisible formatting character \(U\+202E\)/,
  );
  assert.equal(rlo.url, "https://example.com/download?file=invoice%E2%80%AEfdp.exe", "shown encoded, as it opens");
  // Emoji sequences, multi-line query values and undecodable bytes are not hiding anything.
  for (const u of [
    "https://example.com/?q=%F0%9F%91%A9%E2%80%8D%F0%9F%92%BB",
    "https://example.com/?q=%F0%9F%8F%B4%F3%A0%81%A7%F3%A0%81%A2%F3%A0%81%B3%F3%A0%81%A3%F3%A0%81%B4%F3%A0%81%BF",
    "https://example.com/?t=a%0D%0Ab%09c",
    "https://example.com/%FF%FE",
  ]) {
    assert.deepEqual(codes(accepted(u)), [], u);
  }
});

test("host-rewritten: the name the server wrote against the one that opens", () => {
  const a = accepted("https://google.com\u3002evil.com/");
  assert.equal(a.host, "google.com.evil.com");
  assert.equal(a.registrableDomain, "evil.com");
  assert.match(
    message(a, "host-rewritten"),
    /wrote the name as “google\.com。evil\.com”, but a browser opens google\.com\.evil\.com \(“。” \(U\+3002\) is read as a dot\)/,
  );
  assert.match(message(accepted("https://\uff45\uff56\uff49\uff4c.com/"), "host-rewritten"), /fullwidth letters/);
  assert.match(message(accepted("https://%65vil.com/"), "host-rewritten"), /opens evil\.com \(%-codes in the name are decoded\)/);
  // Case, Unicode normalization and either form of an internationalized name are not rewrites.
  for (const u of [
    "https://EXAMPLE.com/",
    "https://M\u00dcNCHEN.de/",
    "https://mu\u0308nchen.de/",
    "https://XN--MNCHEN-3YA.de/",
    "https://xn--mnchen-3ya.m\u00fcnchen.de/",
    "https://user@Example.com:8443/",
  ]) {
    assert.ok(!codes(accepted(u)).includes("host-rewritten"), u);
  }
  // The internationalized host is shown in both forms wherever a host is shown.
  const idn = accepted("https://p\u0430ypal.com/");
  assert.equal(hostForDisplay(idn), "p\u0430ypal.com (xn--pypal-4ve.com)");
  assert.equal(hostForDisplay(accepted("https://example.com/")), "example.com");
  assert.match(message(accepted("https://\u0261oogle.com/"), "lookalike-brand"), /ɡoogle\.com looks like google\.com/);
});

test("ip-in-name: wildcard-DNS names and names that read as an IP address", () => {
  const nip = accepted("https://127.0.0.1.nip.io/");
  assert.deepEqual(codes(nip), ["ip-in-name"]);
  assert.match(
    message(nip, "ip-in-name"),
    /nip\.io names resolve to the IP address written in them: this one is 127\.0\.0\.1 \(your own computer\)/,
  );
  assert.match(message(accepted("https://7f000001.nip.io/"), "ip-in-name"), /127\.0\.0\.1/);
  assert.match(message(accepted("https://app-10-1-2-3.sslip.io/"), "ip-in-name"), /10\.1\.2\.3 \(a private network\)/);
  assert.match(
    message(accepted("https://10.0.0.1.evil.com/"), "ip-in-name"),
    /contains the IP address 10\.0\.0\.1 \(a private network\), but it is a name under evil\.com/,
  );
  // Negative: digits in names, and dashed addresses outside the wildcard services (EC2 host names).
  for (const u of ["https://1.2.3.example.com/", "https://ec2-54-1-2-3.compute-1.amazonaws.com/", "https://web-1-2-3-4.example.com/"]) {
    assert.ok(!codes(accepted(u)).includes("ip-in-name"), u);
  }
});

interface CorpusEntry {
  url: string;
  kind: "hostile" | "benign";
  expect: string;
  note: string;
}
const CORPUS: CorpusEntry[] = JSON.parse(readFileSync(new URL("../data/url-corpus.json", import.meta.url), "utf8")).urls;
const verdict = (a: UrlAnalysis) => (!a.ok ? "refuse" : a.warnings.length ? `warn:${codes(a).join(",")}` : "ok");
const normalized = (expect: string) => (expect.startsWith("warn:") ? `warn:${expect.slice(5).split(",").sort().join(",")}` : expect);

test("URL corpus: every hostile and benign URL gets its expected verdict", (t) => {
  const hostile = CORPUS.filter((e) => e.kind === "hostile");
  const benign = CORPUS.filter((e) => e.kind === "benign");
  assert.ok(hostile.length >= 100 && benign.length >= 40, `${hostile.length} hostile, ${benign.length} benign`);
  assert.equal(new Set(CORPUS.map((e) => e.url)).size, CORPUS.length, "no URL twice");
  const mismatches: string[] = [];
  let falseAccepts = 0;
  let falseAlarms = 0;
  let policyAlarms = 0;
  for (const e of CORPUS) {
    assert.ok(e.note && /^(refuse|ok|warn:[a-z-]+(,[a-z-]+)*)$/.test(e.expect), JSON.stringify(e));
    const a = e.expect === "refuse" ? refused(e.url) : accepted(e.url);
    const got = verdict(a);
    if (got !== normalized(e.expect)) mismatches.push(`${JSON.stringify(e.url)} (${e.note}): expected ${e.expect}, got ${got}`);
    if (e.kind === "hostile" && got === "ok") falseAccepts++;
    if (e.kind === "benign" && got !== "ok") {
      falseAlarms++;
      if (got === "warn:punycode") policyAlarms++;
    }
  }
  t.diagnostic(`${hostile.length} hostile, ${benign.length} benign`);
  t.diagnostic(`false accepts (hostile, no warning): ${falseAccepts}`);
  t.diagnostic(
    `false alarms (benign with a warning): ${falseAlarms}, of which ${policyAlarms} are the punycode warning every IDN gets by policy`,
  );
  assert.deepEqual(mismatches, []);
  assert.equal(falseAccepts, 0);
  assert.equal(falseAlarms, policyAlarms, "no benign URL warns except internationalized names, by policy");
});
