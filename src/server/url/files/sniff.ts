// STUB until the file-sinks branch is merged (it owns this file): a file's type from its first bytes,
// checked against the extension and `accept` (MIME types, type/* or .ext).
const SIGNATURES: Array<{ type: string; ext: string[]; magic: number[] }> = [
  { type: "application/pdf", ext: [".pdf"], magic: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { type: "image/png", ext: [".png"], magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: "image/jpeg", ext: [".jpg", ".jpeg"], magic: [0xff, 0xd8, 0xff] },
];

export function checkFileType(
  head: Uint8Array,
  name: string,
  accept: readonly string[],
): { ok: true; type: string } | { ok: false; problem: string } {
  const found = SIGNATURES.find((s) => s.magic.every((b, i) => head[i] === b));
  const type = found?.type ?? "application/octet-stream";
  const ext = /\.[A-Za-z0-9]+$/.exec(name)?.[0]?.toLowerCase();
  if (found && ext && !found.ext.includes(ext))
    return { ok: false, problem: `The file's content is ${type}, but its name ends in ${ext}.` };
  const accepted =
    accept.length === 0 ||
    accept.some(
      (a) => a === type || (a.endsWith("/*") && type.startsWith(a.slice(0, -1))) || (found?.ext.includes(a.toLowerCase()) ?? false),
    );
  return accepted
    ? { ok: true, type }
    : { ok: false, problem: `The file's content is ${found ? type : "not a recognised type"}; accepted: ${accept.join(", ")}.` };
}
