// shownName: a file name the person's browser sent, made safe to show back. Each case is a name an
// attacker would send to make a page or a tool's result read differently from what the file is.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { MAX_SHOWN_NAME, shownName } from "../../../../src/server/url/files/names.js";

describe("shownName", () => {
  test("an ordinary name is shown as it is", () => {
    assert.equal(shownName("passport photo page.jpg"), "passport photo page.jpg");
    assert.equal(shownName("Überweisung 2026 – März.pdf"), "Überweisung 2026 – März.pdf");
    assert.equal(shownName("réservation.v2.pdf"), "réservation.v2.pdf");
  });

  test("a right-to-left override is shown as a visible mark, so the extension cannot be disguised", () => {
    // "invoice\u202Efdp.exe" renders as "invoiceexe.pdf" in a bidi-aware view.
    assert.equal(shownName("invoice\u202Efdp.exe"), "invoice[U+202E]fdp.exe");
    assert.equal(shownName("a\u2066b\u2069c\u200Fd"), "a[U+2066]b[U+2069]c[U+200F]d");
  });

  test("newlines, NUL and other control characters are visible marks", () => {
    assert.equal(shownName("report\nApproved: yes.pdf"), "report[U+000A]Approved: yes.pdf");
    assert.equal(shownName("a\u0000b.pdf"), "a[U+0000]b.pdf");
    assert.equal(shownName("\u001B[31mred.txt"), "[U+001B][31mred.txt");
    assert.equal(shownName("a\u0085b\u2028c"), "a[U+0085]b[U+2028]c");
  });

  test("zero-width characters are visible marks", () => {
    assert.equal(shownName("pay\u200Bpal.pdf"), "pay[U+200B]pal.pdf");
    assert.equal(shownName("a\u200Db\uFEFFc\u00ADd"), "a[U+200D]b[U+FEFF]c[U+00AD]d");
  });

  test("blank-drawing letters are marks; a pile of combining marks is cut to four", () => {
    assert.equal(shownName("a\u3164b"), "a[U+3164]b");
    assert.equal(shownName(`Z${"\u0301".repeat(40)}.pdf`), `Z${"\u0301".repeat(4)}.pdf`);
    assert.equal(shownName("café.pdf"), "café.pdf");
  });

  test("a path is no longer a path: separators and dot runs replaced", () => {
    assert.equal(shownName("../../etc/passwd"), "…_…_etc_passwd");
    assert.equal(shownName("..\\..\\windows\\system32\\config"), "…_…_windows_system32_config");
    assert.equal(shownName(".."), "…");
    assert.equal(shownName("/"), "_");
  });

  test("an empty or blank name, and a very long one", () => {
    assert.equal(shownName(""), "(no name)");
    assert.equal(shownName("   "), "(no name)");
    const long = `${"a".repeat(500)}-final.pdf`;
    const shown = shownName(long);
    assert.equal([...shown].length, MAX_SHOWN_NAME);
    assert.ok(shown.endsWith("-final.pdf"), "the extension stays");
    assert.ok(shown.includes("…"));
    const huge = shownName(`${"\u202E".repeat(3_000_000)}x.pdf`); // megabytes of hostile characters: quick, bounded
    assert.ok(huge.endsWith("x.pdf") && [...huge].length <= MAX_SHOWN_NAME);
  });
});
