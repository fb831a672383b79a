// checkFileType over hostile first bytes and names: whatever a person uploads, the check answers (never
// throws, never hangs), a refusal never repeats the name, and an accepted type is one the tool asked for.
import { test } from "node:test";
import fc from "fast-check";
import { checkFileType } from "../../src/server/url/files/sniff.js";
import { fcParams, measured, runs } from "../helpers/fuzz/settings.js";

const MAGIC = [
  [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x50, 0x4b, 0x03, 0x04], // ZIP
  [0x1f, 0x8b, 0x08], // gzip
  [0x49, 0x49, 0x2a, 0x00], // TIFF
];
const head = fc.oneof(
  fc.uint8Array({ maxLength: 4100 }),
  fc.tuple(fc.constantFrom(...MAGIC), fc.uint8Array({ maxLength: 600 })).map(([magic, rest]) => Uint8Array.from([...magic, ...rest])),
);
const MARK = "NAMEMARK";
const name = fc
  .tuple(
    fc.string({ maxLength: 12 }),
    fc.constantFrom("", ".pdf", ".png", ".jpg", ".csv", ".txt", ".zip", ".exe", ".PDF", "..", "/x.pdf", "\u202Efdp.exe"),
  )
  .map(([base, ext]) => `${MARK}${base}${ext}`);
const ACCEPTS = [[], ["application/pdf"], ["image/*"], [".pdf", ".png"], ["text/csv"], ["*/*"]];

test("checkFileType: always answers; a refusal never repeats the name; an accepted type is one asked for", async () => {
  const cases = runs(3000, 0.05);
  await measured("checkFileType", cases, () =>
    fc.assert(
      fc.asyncProperty(head, name, fc.constantFrom(...ACCEPTS), async (bytes, fileName, accept) => {
        const result = await checkFileType(bytes, fileName, accept);
        if (!result.ok) {
          if (result.problem.includes(MARK)) throw new Error(`the name is in the problem: ${result.problem}`);
          return;
        }
        const fits =
          accept.length === 0 ||
          accept.some(
            (entry) =>
              entry === "*/*" ||
              entry.startsWith(".") ||
              (entry.endsWith("/*") ? result.type.startsWith(entry.slice(0, -1)) : entry === result.type),
          );
        if (!fits) throw new Error(`accepted ${result.type} for ${JSON.stringify(accept)}`);
      }),
      fcParams(cases),
    ),
  );
});
