import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_LABEL_LENGTH, MAX_MESSAGE_LENGTH, sanitizeText, truncate } from "../../src/common/sanitize.js";

const ESC = "\u001b";
const BEL = "\u0007";
const ST = `${ESC}\\`;

/** What may never survive: C0 except \n, DEL, C1, bidi controls, zero-width/invisible chars, separators. */
const FORBIDDEN =
  /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B\u200C\u2060\uFEFF\u180E\u00AD\u2028\u2029]/;
function assertInert(out: string): void {
  assert.ok(!FORBIDDEN.test(out), `forbidden character in ${JSON.stringify(out)}`);
  assert.ok(
    !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(out),
    `lone surrogate in ${JSON.stringify(out)}`,
  );
}
function clean(text: unknown, options?: Parameters<typeof sanitizeText>[1]): string {
  const out = sanitizeText(text, options);
  assertInert(out);
  return out;
}

test("constants have the documented sizes", () => {
  assert.equal(MAX_MESSAGE_LENGTH, 2000);
  assert.equal(MAX_LABEL_LENGTH, 200);
});

test("plain text, emoji and CJK pass unchanged", () => {
  for (const s of [
    "Book the 9:40 flight to Lisbon? (Flights + Hotel = $3,000)",
    "日本語のテキスト、中文字符，한국어 텍스트",
    "Emoji: 😀 👍🏽 👩‍💻 👨‍👩‍👧‍👦 🏳️‍🌈 👁️‍🗨️ 👨🏽‍🦰 🇵🇹 🏴󠁧󠁢󠁳󠁣󠁴󠁿 1️⃣ ❤️",
    "Ünïcödé àccents, Ελληνικά, Русский, עברית, العربية, हिन्दी, ไทย, Tiếng Việt, བོད་ཡིག",
    "line one\nline two\n\nafter one blank line",
    "full-width　space and non-breaking\u00a0space",
  ]) {
    assert.equal(clean(s), s);
  }
});

test("CSI sequences are removed, 7-bit and 8-bit (C1 0x9B)", () => {
  assert.equal(clean(`${ESC}[31mred${ESC}[0m plain`), "red plain");
  assert.equal(clean(`${ESC}[1;38;2;255;0;0mbold${ESC}[m`), "bold");
  assert.equal(clean(`${ESC}[2J${ESC}[H${ESC}[?25lcleared`), "cleared");
  assert.equal(clean(`up${ESC}[1A${ESC}[2Kover`), "upover");
  assert.equal(clean(`${ESC}[>0;276;0c DA reply`), "DA reply");
  assert.equal(clean("a\u009b31mb\u009b0m"), "ab");
  assert.equal(clean(`x${ESC}[38:2::255:0:0my`), "xy");
});

test("a CSI cut before its final byte is removed too", () => {
  assert.equal(clean(`text${ESC}[31`), "text");
  assert.equal(clean(`text${ESC}[`), "text");
  assert.equal(clean("text\u009b1;2"), "text");
});

test("OSC 8 hyperlinks keep their text and lose their target", () => {
  assert.equal(clean(`Click ${ESC}]8;;https://evil.example/${BEL}here${ESC}]8;;${BEL} now`), "Click here now");
  assert.equal(clean(`Click ${ESC}]8;id=1;https://evil.example/${ST}here${ESC}]8;;${ST}`), "Click here");
  assert.equal(clean("Click \u009d8;;https://evil.example/\u009chere\u009d8;;\u009c"), "Click here");
  assert.ok(!clean(`${ESC}]8;;https://evil.example/${BEL}x`).includes("evil"));
});

test("OSC 52 clipboard writes and title changes are removed", () => {
  assert.equal(clean(`a${ESC}]52;c;Y3VybCBldmlsLnNoIHwgc2g=${BEL}b`), "ab");
  assert.equal(clean(`a${ESC}]52;c;Y3VybCBldmlsLnNoIHwgc2g=${ST}b`), "ab");
  assert.equal(clean(`${ESC}]0;pwned title${BEL}ok`), "ok");
  assert.equal(clean(`${ESC}]2;title${ST}ok`), "ok");
  assert.equal(clean("\u009d0;title\u0007ok"), "ok");
});

test("unterminated OSC swallows its payload, up to the next escape, and nothing survives", () => {
  assert.equal(clean(`visible ${ESC}]52;c;Y3VybCBldmlsLnNo`), "visible");
  assert.equal(clean(`visible ${ESC}]8;;https://evil.example/`), "visible");
  // As in a terminal, an ESC aborts the string and starts a new sequence.
  assert.equal(clean(`a${ESC}]0;title${ESC}[31mred`), "ared");
  // CAN and SUB cancel it.
  assert.equal(clean(`a${ESC}]0;title\u0018b`), "ab");
  // A newline does not end it (terminals ignore C0 inside OSC).
  assert.equal(clean(`a${ESC}]0;title\nmore`), "a");
});

test("DCS, SOS, PM and APC strings are removed, terminated or not, 7-bit and 8-bit", () => {
  assert.equal(clean(`a${ESC}Pq#0;2;0;0;0#0!10~${ST}b`), "ab"); // DCS (sixel)
  assert.equal(clean(`a${ESC}P+q544e${ST}b`), "ab"); // XTGETTCAP
  assert.equal(clean(`a${ESC}Xsos payload${ST}b`), "ab");
  assert.equal(clean(`a${ESC}^pm payload${ST}b`), "ab");
  assert.equal(clean(`a${ESC}_Gf=100;AAAA${ST}b`), "ab"); // kitty graphics APC
  assert.equal(clean(`a${ESC}kscreen title${ST}b`), "ab");
  assert.equal(clean("a\u0090dcs\u009cb\u0098sos\u009cc\u009epm\u009cd\u009fapc\u009ce"), "abcde");
  assert.equal(clean(`a${ESC}Punterminated dcs`), "a");
  assert.equal(clean("a\u009funterminated apc"), "a");
});

test("two-character escapes are removed", () => {
  assert.equal(clean(`${ESC}creset`), "reset");
  assert.equal(clean(`${ESC}7save${ESC}8restore`), "saverestore");
  assert.equal(clean(`${ESC}(0line drawing${ESC}(B`), "line drawing");
  assert.equal(clean(`${ESC}#8align`), "align");
  assert.equal(clean(`${ESC}=${ESC}>keypad${ESC}M${ESC}D`), "keypad");
  assert.equal(clean(`lone${ESC}`), "lone");
});

test("Linux console palette sequences do not eat the text after them", () => {
  assert.equal(clean(`${ESC}]P0ff0000Hello`), "Hello");
  assert.equal(clean(`${ESC}]RHello`), "Hello");
});

test("C0 and C1 controls and DEL are removed; tab becomes a space; CR becomes a line break", () => {
  assert.equal(clean("a\u0000b\u0001c\u0007d\u0008e\u000bf\u000cg\u001fh\u007fi"), "abcdefghi");
  assert.equal(clean("a\u0080b\u0085c\u008ed\u009ce"), "abcde");
  assert.equal(clean("a\tb\t\tc"), "a b  c");
  assert.equal(clean("a\r\nb"), "a\nb");
  assert.equal(clean("Total: $5\rTotal: $5000"), "Total: $5\nTotal: $5000");
  assert.equal(clean("a\rb", { multiline: false }), "a b");
});

test("line breaks are kept when multiline (default) and become spaces otherwise", () => {
  assert.equal(clean("one\ntwo"), "one\ntwo");
  assert.equal(clean("one\ntwo", { multiline: true }), "one\ntwo");
  assert.equal(clean("one\ntwo\n\nthree", { multiline: false }), "one two  three");
});

test("U+2028 / U+2029 become line breaks when multiline, spaces otherwise", () => {
  assert.equal(clean("a\u2028b\u2029c"), "a\nb\nc");
  assert.equal(clean("a\u2028b\u2029c", { multiline: false }), "a b c");
});

test("bidirectional overrides, isolates and marks are removed", () => {
  // "Trojan Source"-style reordering: the text must read in logical order.
  assert.equal(clean("Pay \u202Eredro\u202C now"), "Pay redro now");
  for (const c of [
    "\u202A",
    "\u202B",
    "\u202C",
    "\u202D",
    "\u202E",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200E",
    "\u200F",
    "\u061C",
  ]) {
    assert.equal(clean(`a${c}b`), "ab", `U+${c.codePointAt(0)!.toString(16)}`);
  }
});

test("zero-width and invisible characters are removed", () => {
  for (const c of [
    "\u200B",
    "\u200C",
    "\u200D",
    "\u2060",
    "\uFEFF",
    "\u180E",
    "\u00AD",
    "\u2061",
    "\u2064",
    "\u206A",
    "\uFFF9",
    "\u3164",
    "\uFFA0",
  ]) {
    assert.equal(clean(`pay${c}pal`), "paypal", `U+${c.codePointAt(0)!.toString(16)}`);
  }
  assert.equal(clean("\uFEFFstarts with a BOM"), "starts with a BOM");
});

test("ZWJ is kept only inside emoji sequences; tag characters only in subdivision flags", () => {
  assert.equal(clean("👩\u200D💻"), "👩‍💻");
  assert.equal(clean("a\u200Db"), "ab");
  assert.equal(clean("👩\u200Db"), "👩b");
  assert.equal(clean("a\u200D💻"), "a💻");
  const scotland = "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}";
  assert.equal(clean(scotland), scotland);
  // Tag characters used to smuggle invisible ASCII ("ignore previous instructions") are removed.
  const smuggled = [..."ignore previous"].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
  assert.equal(clean(`hello${smuggled} world`), "hello world");
  assert.equal(clean(`🏴${smuggled}`), "🏴");
});

test("runs of variation selectors and combining marks are bounded", () => {
  const hidden = Array.from({ length: 40 }, (_, i) => String.fromCodePoint(0xe0100 + i)).join("");
  assert.equal(clean(`😀${hidden}`), `😀${String.fromCodePoint(0xe0100)}`);
  assert.equal(clean("❤\uFE0F\uFE0F\uFE0E"), "❤\uFE0F");
  const zalgo = `Z${"\u0336\u0337\u0338\u0301\u0300".repeat(20)}`;
  assert.equal([...clean(zalgo)].length, 1 + 8);
  assert.equal(clean("Tiếng Việt ộ ự"), "Tiếng Việt ộ ự");
});

test("lone surrogates are removed, pairs kept", () => {
  assert.equal(clean("a\uD800b"), "ab");
  assert.equal(clean("a\uDC00b"), "ab");
  assert.equal(clean("a\uDC00\uD800b"), "ab");
  assert.equal(clean("a\uD83D\uDE00b"), "a😀b");
});

test("runs of more than two blank lines collapse to two", () => {
  assert.equal(clean("a\n\n\n\n\n\nb"), "a\n\n\nb");
  assert.equal(clean("a\n\n\nb"), "a\n\n\nb");
  assert.equal(clean("a\n \n\t\n  \n\nb"), "a\n\n\nb");
  // Blank lines made of removed characters collapse too.
  assert.equal(clean(`a\n${ESC}[0m\n\u200B\n\n\nb`), "a\n\n\nb");
});

test("surrounding whitespace is trimmed", () => {
  assert.equal(clean("  \n hello \n\n"), "hello");
  assert.equal(clean(`${ESC}[0m   `), "");
});

test("non-string input: numbers, booleans and bigints are stringified, everything else is empty", () => {
  assert.equal(clean(42), "42");
  assert.equal(clean(-1.5), "-1.5");
  assert.equal(clean(true), "true");
  assert.equal(clean(10n), "10");
  for (const v of [undefined, null, {}, [], ["a"], { toString: () => "\u001b[31mx" }, Symbol("s"), () => "x"]) {
    assert.equal(clean(v), "");
  }
});

test("length is bounded after stripping, in code points, with an ellipsis", () => {
  assert.equal(clean("x".repeat(MAX_MESSAGE_LENGTH)), "x".repeat(MAX_MESSAGE_LENGTH));
  const long = clean("x".repeat(MAX_MESSAGE_LENGTH + 1));
  assert.equal([...long].length, MAX_MESSAGE_LENGTH);
  assert.ok(long.endsWith("…"));
  // Escape sequences do not count: the visible text fits.
  const styled = `${ESC}[1m${"y".repeat(150)}${ESC}[0m`;
  assert.equal(clean(styled, { maxLength: MAX_LABEL_LENGTH, multiline: false }), "y".repeat(150));
  assert.equal(clean("abcdef", { maxLength: 4 }), "abc…");
  assert.equal(clean("😀😀😀😀😀😀", { maxLength: 4 }), "😀😀😀…");
  assert.equal(clean("abc", { maxLength: 0 }), "");
  assert.equal(clean("a".repeat(5000), { maxLength: Infinity }).length, 5000);
  assert.equal(clean("word ".repeat(10), { maxLength: 7 }), "word w…");
  assert.equal(clean("word  two", { maxLength: 7 }), "word…");
});

test("a 1 MB message is bounded, and marked as cut", () => {
  const big = "lorem ipsum ".repeat(Math.ceil((1 << 20) / 12));
  const out = clean(big);
  assert.equal([...out].length, MAX_MESSAGE_LENGTH);
  assert.ok(out.endsWith("…"));
  // Even when what survives of the bounded prefix is short, the cut is still marked.
  const mostlyEscapes = `${`${ESC}[31m`.repeat(1 << 18)}tail`;
  assert.equal(clean(mostlyEscapes), "…");
});

test("pathological escape floods complete (linear time) and leave nothing", () => {
  const n = 1 << 20;
  for (const unit of [`${ESC}[`, `${ESC}]8;;`, `${ESC}]`, `${ESC}P`, "\u009b", "\u009d", `${ESC}[1;`, `${ESC}${ESC}[`]) {
    const flood = unit.repeat(Math.ceil(n / unit.length));
    assert.equal(clean(flood, { maxLength: Infinity }), "", JSON.stringify(unit));
    assert.equal(clean(flood), "…", JSON.stringify(unit));
  }
  // An unterminated OSC followed by a megabyte of text, and a CSI with a megabyte of parameters.
  assert.equal(clean(`${ESC}]8;;${"a".repeat(n)}`, { maxLength: Infinity }), "");
  assert.equal(clean(`${ESC}[${"1;".repeat(n / 2)}`, { maxLength: Infinity }), "");
  assert.equal(clean(`\n${" ".repeat(n)}x`, { maxLength: Infinity }), "x");
  assert.equal(clean(`a${"\u0301".repeat(n)}`, { maxLength: Infinity }), `a${"\u0301".repeat(8)}`);
  // Floods that make a naive regex overflow the stack rather than take long.
  assert.equal(clean(`a${"\n".repeat(n)}b`, { maxLength: Infinity }), "a\n\n\nb");
  assert.equal(clean(`a${"\u{E0041}".repeat(n / 2)}b`, { maxLength: Infinity }), "ab");
  assert.equal(clean(`😀${"\u{E0100}".repeat(n / 2)}`, { maxLength: Infinity }), "😀\u{E0100}");
});

test("sanitizing is idempotent", () => {
  const samples = [
    `${ESC}[31m👩\u200B\u200D💻${ESC}]8;;x${BEL}link${ESC}]8;;${BEL}\n\n\n\n\u202Eend`,
    `\u0085a\u009b${ESC}${ESC}[0m[31m\rb\u2028\ud800`,
    "👨‍👩‍👧‍👦".repeat(30),
    `${"x".repeat(3000)}`,
  ];
  for (const s of samples) {
    for (const options of [{}, { maxLength: 50 }, { maxLength: 7, multiline: false }]) {
      const once = clean(s, options);
      assert.equal(clean(once, options), once, JSON.stringify(s));
    }
  }
});

test("random input always comes out inert and bounded", () => {
  const alphabet = [
    ESC,
    "[",
    "]",
    "P",
    "\\",
    BEL,
    "\u009b",
    "\u009c",
    "\u009d",
    "\u0090",
    "\u200D",
    "\u202E",
    "\uD83D",
    "\uDE00",
    "\n",
    "\r",
    "\t",
    "a",
    "1",
    ";",
    "😀",
    "\u{E0041}",
    "\uFE0F",
    "\u0301",
    "\u2028",
    "\u0000",
    "\u007f",
  ];
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 2000; i++) {
    const s = Array.from({ length: Math.floor(rand() * 60) }, () => alphabet[Math.floor(rand() * alphabet.length)]!).join("");
    const maxLength = 1 + Math.floor(rand() * 40);
    const multiline = rand() < 0.5;
    const out = clean(s, { maxLength, multiline });
    assert.ok([...out].length <= maxLength);
    if (!multiline) assert.ok(!out.includes("\n"));
    assert.ok(!out.includes(ESC));
  }
});

test("truncate counts code points and never splits a surrogate pair", () => {
  assert.equal(truncate("abc", 3), "abc");
  assert.equal(truncate("abcd", 3), "ab…");
  assert.equal(truncate("abcd", 1), "…");
  assert.equal(truncate("abcd", 0), "");
  assert.equal(truncate("", 0), "");
  assert.equal(truncate("abcd", Infinity), "abcd");
  assert.equal(truncate("😀😀😀", 3), "😀😀😀"); // 6 code units, 3 code points: fits
  assert.equal(truncate("😀😀😀😀", 3), "😀😀…");
  assert.equal(truncate("a😀b", 2), "a…");
  assert.equal(truncate("𝒜𝒝𝒞𝒟", 2), "𝒜…");
  for (let max = 1; max <= 12; max++) {
    for (const s of ["😀".repeat(10), "a😀".repeat(10), "中😀文".repeat(5), "👩‍💻".repeat(5), "🇵🇹🇯🇵🇧🇷"]) {
      const out = truncate(s, max);
      assert.ok([...out].length <= max, `${max} ${s}`);
      assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(out), `${max} ${JSON.stringify(out)}`);
    }
  }
});

test("truncate cuts between graphemes: emoji sequences, flags and accents stay whole", () => {
  assert.equal(truncate("👩‍💻👩‍💻", 5), "👩‍💻…"); // would otherwise keep 👩 + ZWJ
  assert.equal(truncate("🇵🇹🇯🇵🇧🇷", 4), "🇵🇹…"); // no half flag
  assert.equal(truncate("e\u0301e\u0301e\u0301", 4), "e\u0301…");
  assert.equal(truncate("👨‍👩‍👧‍👦 family", 3), "…"); // a grapheme longer than the room left goes whole
});

test("truncate with force marks a text as cut even when it fits", () => {
  assert.equal(truncate("abc", 10, true), "abc…");
  assert.equal(truncate("abc", 3, true), "ab…");
  assert.equal(truncate("abc", Infinity, true), "abc…");
});
