// checkFileType: the type of an upload from its first bytes (file-type's magic numbers) and its name,
// against what the tool accepts. The PNG is a real one from the docs; the PDF a complete minimal PDF.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { checkFileType } from "../../../../src/server/url/files/sniff.js";
import { HEAD_BYTES } from "../../../../src/server/url/files/sink.js";

const head = (bytes: Uint8Array) => bytes.subarray(0, HEAD_BYTES);
const PNG = head(readFileSync(new URL("../../../../docs/images/url-done.png", import.meta.url)));
const PDF = new TextEncoder().encode(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);
// A JPEG's start: SOI, then a JFIF APP0 segment.
const JPEG = Uint8Array.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x48, 0x00, 0x48, 0x00, 0x00, 0xff, 0xdb,
]);
const text = (s: string) => new TextEncoder().encode(s);

describe("checkFileType", () => {
  test("PDF, PNG and JPEG are recognized by their content", async () => {
    assert.deepEqual(await checkFileType(PDF, "invoice.pdf", ["application/pdf"]), { ok: true, type: "application/pdf" });
    assert.deepEqual(await checkFileType(PNG, "photo.png", ["image/*"]), { ok: true, type: "image/png" });
    assert.deepEqual(await checkFileType(JPEG, "passport.JPEG", ["image/jpeg"]), { ok: true, type: "image/jpeg" });
    assert.deepEqual(await checkFileType(JPEG, "passport.jpg", [".jpeg"]), { ok: true, type: "image/jpeg" });
    assert.deepEqual(await checkFileType(PNG, "photo.png", ["*/*"]), { ok: true, type: "image/png" });
    assert.deepEqual(
      await checkFileType(PDF, "scan", [".pdf"]),
      { ok: true, type: "application/pdf" },
      "no extension: the content decides",
    );
  });

  test("a PNG named .pdf is refused, the problem naming both", async () => {
    const result = await checkFileType(PNG, "invoice.pdf", ["application/pdf", "image/png"]);
    assert.equal(result.ok, false);
    assert.match(!result.ok ? result.problem : "", /PNG \(image\/png\).*\.pdf/);
  });

  test("a name that promises a type the content is not is refused", async () => {
    const result = await checkFileType(text("hello"), "invoice.pdf", ["application/pdf"]);
    assert.deepEqual(result, { ok: false, problem: "The file's name ends in .pdf, but its content is not a PDF file." });
  });

  test("a recognized type the tool does not accept is refused, naming what is accepted", async () => {
    assert.deepEqual(await checkFileType(PNG, "photo.png", ["application/pdf", ".pdf"]), {
      ok: false,
      problem: "The file is PNG (image/png); accepted: application/pdf, .pdf.",
    });
  });

  test("zero bytes are refused with their own problem", async () => {
    assert.deepEqual(await checkFileType(new Uint8Array(0), "empty.pdf", ["application/pdf"]), {
      ok: false,
      problem: "The file is empty (0 bytes).",
    });
  });

  test("text/csv: taken by extension when the content is UTF-8 text", async () => {
    assert.deepEqual(await checkFileType(text("name,amount\nÉlise,12\n"), "expenses.csv", ["text/csv"]), { ok: true, type: "text/csv" });
    assert.deepEqual(await checkFileType(text("name,amount\n"), "expenses.csv", [".csv"]), { ok: true, type: "text/csv" });
    assert.deepEqual(await checkFileType(text("a note"), "note.txt", ["text/*"]), { ok: true, type: "text/plain" });
    const nul = await checkFileType(Uint8Array.from([0x61, 0x00, 0x62]), "expenses.csv", ["text/csv"]);
    assert.deepEqual(nul, { ok: false, problem: "The file's name ends in .csv, but its content is not text (it has NUL bytes)." });
    const latin1 = await checkFileType(Uint8Array.from([0x61, 0xe9, 0x62]), "expenses.csv", ["text/csv"]);
    assert.deepEqual(latin1, { ok: false, problem: "The file's name ends in .csv, but its content is not text (it is not valid UTF-8)." });
    // A UTF-8 sequence cut by the end of the head is still text.
    assert.equal((await checkFileType(Uint8Array.from([0x61, 0xc3]), "a.csv", ["text/csv"])).ok, true);
    // A PNG named .csv is refused like any other disguise.
    assert.equal((await checkFileType(PNG, "expenses.csv", ["text/csv"])).ok, false);
  });

  test("content nobody recognizes: refused when the tool names types, application/octet-stream when it accepts anything", async () => {
    const random = Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 0xff);
    assert.deepEqual(await checkFileType(random, "data.bin", []), { ok: true, type: "application/octet-stream" });
    assert.deepEqual(await checkFileType(random, "data.bin", ["application/pdf"]), {
      ok: false,
      problem: "The file's type could not be recognized from its content; accepted: application/pdf.",
    });
  });

  test("the problem never repeats the person's file name", async () => {
    const result = await checkFileType(PNG, "\u202Egnp.evil<script>.pdf", ["application/pdf"]);
    assert.equal(result.ok, false);
    assert.doesNotMatch(!result.ok ? result.problem : "", /evil|script|\u202E/);
  });

  test("an accept entry that is neither a MIME type nor an extension is the tool's mistake: a TypeError", async () => {
    await assert.rejects(checkFileType(PDF, "a.pdf", ["pdf"]), TypeError);
    await assert.rejects(checkFileType(PDF, "a.pdf", ["*/*; q=1"]), TypeError);
  });
});
