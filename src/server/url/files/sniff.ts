// Is the uploaded file what the tool asked for? Its type is read from its content (magic bytes, by the
// `file-type` library), and its name's extension must not say otherwise: a PNG named .pdf is refused, as
// either the name or the content is lying. Plain text formats have no magic bytes: they are taken by
// extension when the first bytes are valid UTF-8 without NUL bytes. The result is the type the tool is
// told; a refusal is a sentence for the person (naming the type found and what was asked, never the name).
//
// Async because file-type's detection is (it reads through a tokenizer); it needs only the first bytes,
// a StoredUpload's `head`. file-type is an optional peer, imported on the first check: a server that
// takes no files neither installs nor loads it, and one that does without it is told the install line.
import { installLine, MissingPeerError } from "../../../common/optional-peers.js";

type FileTypeModule = typeof import("file-type");
let fileType: Promise<FileTypeModule> | undefined;
const loadFileType = () =>
  (fileType ??= import("file-type").catch((error: unknown) => {
    fileType = undefined;
    if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw new MissingPeerError("ctx.elicitFile", ["file-type"], undefined, installLine("ctx.elicitFile"));
  }));

/** Loads file-type now, so a tool that asks for a file without it installed fails before any link is sent. */
export async function requireFileType(): Promise<void> {
  await loadFileType();
}

export type FileTypeCheck = { ok: true; type: string } | { ok: false; problem: string };

/** Text formats, taken by extension: they have no magic bytes. */
const TEXT_TYPES: Readonly<Record<string, string>> = {
  txt: "text/plain",
  text: "text/plain",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  md: "text/markdown",
  json: "application/json",
};
/** Other spellings of the extensions file-type reports. */
const SAME_EXTENSION: Readonly<Record<string, string>> = { jpeg: "jpg", jpe: "jpg", jfif: "jpg", tiff: "tif", htm: "html" };
const canonical = (ext: string) => SAME_EXTENSION[ext] ?? ext;

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]*)$/;
const EXTENSION = /^\.[a-z0-9][a-z0-9_+-]{0,15}$/;

/**
 * Checks `head` (the file's first bytes), `name` (as the person sent it) against `accept`: MIME types
 * ("application/pdf"), wildcards ("image/*", or star-slash-star for any) and extensions (".pdf"); an empty list accepts any type.
 * Throws a TypeError for an entry of `accept` that is none of these (the tool's mistake, not the person's).
 */
export async function checkFileType(head: Uint8Array, name: string, accept: readonly string[]): Promise<FileTypeCheck> {
  const wanted = accept.map((entry) => {
    const normalized = String(entry).trim().toLowerCase();
    if (normalized !== "*/*" && !MIME.test(normalized) && !EXTENSION.test(normalized))
      throw new TypeError(
        `accept entry ${JSON.stringify(entry)} is neither a MIME type ("application/pdf", "image/*") nor an extension (".pdf").`,
      );
    return normalized;
  });
  if (head.byteLength === 0) return { ok: false, problem: "The file is empty (0 bytes)." };

  const { fileTypeFromBuffer, supportedExtensions } = await loadFileType();
  const ext = extensionOf(name);
  const shownExt = ext === undefined ? undefined : `.${ext}`;
  const found = await fileTypeFromBuffer(head);
  let type: { mime: string; ext: string };
  if (found !== undefined) {
    if (ext !== undefined && canonical(ext) !== found.ext && (supportedExtensions.has(ext) || TEXT_TYPES[ext] !== undefined))
      return { ok: false, problem: `The file's content is ${describe(found)}, but its name ends in ${shownExt}.` };
    type = { mime: found.mime, ext: found.ext };
  } else if (ext !== undefined && TEXT_TYPES[ext] !== undefined) {
    const notText = textProblem(head);
    if (notText !== undefined)
      return { ok: false, problem: `The file's name ends in ${shownExt}, but its content is not text (${notText}).` };
    type = { mime: TEXT_TYPES[ext], ext };
  } else if (ext !== undefined && supportedExtensions.has(ext)) {
    return { ok: false, problem: `The file's name ends in ${shownExt}, but its content is not a ${ext.toUpperCase()} file.` };
  } else if (wanted.length === 0) {
    return { ok: true, type: "application/octet-stream" };
  } else {
    return { ok: false, problem: `The file's type could not be recognized from its content; accepted: ${wanted.join(", ")}.` };
  }

  if (wanted.length === 0 || wanted.some((entry) => matches(entry, type))) return { ok: true, type: type.mime };
  return { ok: false, problem: `The file is ${describe(type)}; accepted: ${wanted.join(", ")}.` };
}

function matches(entry: string, type: { mime: string; ext: string }) {
  if (entry.startsWith(".")) return canonical(entry.slice(1)) === canonical(type.ext);
  if (entry === "*/*") return true;
  if (entry.endsWith("/*")) return type.mime.startsWith(entry.slice(0, -1));
  return entry === type.mime;
}

/** The lowercase extension when it looks like one (what a refusal may repeat), else undefined. */
function extensionOf(name: string): string | undefined {
  const match = /\.([A-Za-z0-9_+-]{1,16})$/.exec(String(name).trim());
  return match?.[1]?.toLowerCase();
}

const describe = (type: { mime: string; ext: string }) => `${type.ext.toUpperCase()} (${type.mime})`;

/** Why `head` is not text, or undefined when it is valid UTF-8 (a sequence cut at its end allowed) without NUL. */
function textProblem(head: Uint8Array): string | undefined {
  if (head.includes(0)) return "it has NUL bytes";
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
  } catch {
    return "it is not valid UTF-8";
  }
  return undefined;
}
