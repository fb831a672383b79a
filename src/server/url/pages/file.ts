// The upload page, for ctx.elicitFile: the file goes to the server's sink, never through the MCP client.
//   GET  /file/:id   the person checked (gate.ts), then a real <input type=file> with its label, the limits,
//                    a drop zone, a preview of what was chosen and a confirm button (page script: url-file.js)
//   POST /file/:id   one file as the raw body, with X-CSRF-Token, X-File-Name (percent-encoded), X-File-Index
//                    and X-File-Total: from this origin, streamed into the sink with the size enforced as it
//                    arrives, its type sniffed from its first bytes; the last file in ends the flow
// Decline is the connect page's (POST /connect/:id with action=decline).
import { randomBytes } from "node:crypto";
import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { checkFileType } from "../files/sniff.js";
import { shownName } from "../files/names.js";
import { FileTooLargeError, formatBytes, type StoredUpload } from "../files/sink.js";
import type { FileAsk, UrlFlow } from "../flows.js";
import type { UploadRecord } from "../uploads.js";
import { existingBrowserId } from "./browser-session.js";
import type { PagesConfig, PagesEnv } from "./config.js";
import { admitFetch, admitPage, asker } from "./gate.js";
import { FOREIGN, STALE_FORM } from "./login.js";
import { problemJson } from "./render.js";
import { csrfToken, fromOwnPage, validCsrf } from "./security.js";
import { dataBlock, line, page, postButton, quoted, signedInAs } from "./views.js";

/** What the page script reads from the page's data block. */
export interface FilePageData {
  csrf: string;
  /** Where each file is POSTed. */
  post: string;
  accept: string[];
  maxBytes: number;
  count: number;
}

const limitsText = (ask: FileAsk) =>
  `${ask.count === 1 ? "One file" : `Up to ${ask.count} files`} of at most ${formatBytes(ask.maxBytes)}${ask.count === 1 ? "" : " each"}; accepted: ${ask.accept.join(", ")}.`;

const refuse = (c: Context, status: 400 | 403 | 409 | 410 | 413 | 415, error: string, close = false) =>
  c.json({ error }, status, close ? { Connection: "close" } : {});

export function fileRoutes(app: Hono<PagesEnv>, config: PagesConfig): void {
  app.get("/file/:id", (c) => showFilePage(c, config));
  app.post("/file/:id", (c) => receiveFile(c, config));
}

type C = Context<PagesEnv, "/file/:id">;

/** GET: the upload page, its limits and the data its script reads. */
async function showFilePage(c: C, config: PagesConfig): Promise<Response> {
  const prefix = config.base.pathname;
  const id = c.req.param("id");
  const here = await admitPage(c, config, id, `file/${id}`);
  if (here instanceof Response) return here;
  const { flow, person, browser } = here;
  if (flow.kind !== "file" || !flow.file) return c.redirect(`${prefix}connect/${id}`, 303);
  const ask = flow.file;
  const data: FilePageData = {
    csrf: csrfToken(config.keys.pages, browser, "file", id),
    post: `${prefix}file/${id}`,
    accept: ask.accept,
    maxBytes: ask.maxBytes,
    count: ask.count,
  };
  const decline = postButton(
    `${prefix}connect/${id}`,
    { csrf: csrfToken(config.keys.pages, browser, "connect", id), action: "decline" },
    "Decline",
    "secondary",
  );
  return c.html(
    page({
      title: `Send a file to ${flow.server}`,
      prefix,
      asker: asker(flow),
      scripts: ["url-file.js"],
      body: html`${signedInAs(person)}${quoted(flow.message)}
        <p class="small">The file goes to ${line(flow.server)} only: ${line(flow.client)} does not see it.</p>
        <p id="file-limits">${limitsText(ask)}</p>
        <script type="application/json" id="mcp-elicit-flow">
          ${dataBlock(data)}
        </script>
        <div id="drop-zone" class="drop-zone">
          <label for="file-input">Choose ${ask.count === 1 ? "a file" : "files"}</label>
          <input
            id="file-input"
            type="file"
            accept="${ask.accept.join(",")}"
            aria-describedby="file-limits"
            ${ask.count > 1 ? "multiple" : ""}
          />
          <p class="small">or drop ${ask.count === 1 ? "it" : "them"} here.</p>
        </div>
        <ul id="file-preview" aria-live="polite"></ul>
        <progress id="file-progress" max="100" value="0" hidden aria-label="Upload progress"></progress>
        <p id="file-status" role="status"></p>
        <p id="file-error" class="error" role="alert"></p>
        <div class="actions">
          <button type="button" id="file-send" class="primary" disabled>Send</button>
          ${decline}
        </div>`,
    }),
  );
}

/** One file of the upload, as its headers describe it. */
interface Part {
  index: number;
  total: number;
  name: string;
}

/** POST: one file, checked, streamed into the sink, recorded; the last one ends the flow. */
async function receiveFile(c: C, config: PagesConfig): Promise<Response> {
  if (!fromOwnPage(c, config.base.origin)) return problemJson(c, FOREIGN);
  const id = c.req.param("id");
  const browser = existingBrowserId(c, config.cookies);
  if (!browser || !validCsrf(config.keys, browser, "file", id, c.req.header("x-csrf-token"))) return problemJson(c, STALE_FORM);
  const here = await admitFetch(c, config, id, `file/${id}`);
  if (here instanceof Response) return here;
  const { flow } = here;
  const ask = flow.file;
  if (flow.kind !== "file" || !ask) return refuse(c, 400, "This link does not take files.");
  const part = partOf(c, ask);
  if (part instanceof Response) return part;
  const stored = await intoSink(c, config, ask, part.name);
  if (stored instanceof Response) return stored;
  return recordPart(c, config, flow, part, stored);
}

/** The file's place in the upload and its name, from the headers; a refusal naming the header when one is wrong. */
function partOf(c: C, ask: FileAsk): Part | Response {
  const index = Number(c.req.header("x-file-index"));
  const total = Number(c.req.header("x-file-total"));
  if (!Number.isSafeInteger(total) || total < 1 || total > ask.count)
    return refuse(c, 400, `X-File-Total must be a whole number from 1 to ${ask.count}.`);
  if (!Number.isSafeInteger(index) || index < 0 || index >= total) return refuse(c, 400, `X-File-Index must be from 0 to ${total - 1}.`);
  const name = fileName(c.req.header("x-file-name"));
  if (name === undefined) return refuse(c, 400, "X-File-Name must be the file's name, percent-encoded, at most 1000 characters.");
  return { index, total, name };
}

const tooLarge = (name: string, limit: number) => `${name} is larger than the limit of ${formatBytes(limit)}. Nothing was kept.`;
const empty = (name: string) => `${name} is empty (0 bytes). Nothing was kept.`;

/** The body streamed into the sink under a generated name, its size enforced as it arrives and its type sniffed; nothing is kept when refused. */
async function intoSink(
  c: C,
  config: PagesConfig,
  ask: FileAsk,
  name: string,
): Promise<{ storedAs: string; stored: StoredUpload; type: string } | Response> {
  // A declared length over the limit is refused before a byte is read; an undeclared one is counted as it streams.
  const declared = Number(c.req.header("content-length"));
  if (Number.isFinite(declared) && declared > ask.maxBytes) return refuse(c, 413, tooLarge(name, ask.maxBytes), true);
  const body = c.req.raw.body;
  if (!body || declared === 0) return refuse(c, 400, empty(name));

  const storedAs = randomBytes(32).toString("base64url");
  const { sink } = config.uploads;
  let stored;
  try {
    stored = await sink.put(storedAs, body, { maxBytes: ask.maxBytes });
  } catch (error) {
    // The sink's own cap may be the lower one (the store sink keeps small files only): the limit that applied is named.
    if (error instanceof FileTooLargeError) return refuse(c, 413, tooLarge(name, Math.min(error.maxBytes, ask.maxBytes)), true);
    // The browser went away mid-upload (the sink kept nothing): the person sends it again from the page.
    if (c.req.raw.signal.aborted) return refuse(c, 400, `The upload of ${name} was interrupted; nothing was kept. Send it again.`);
    throw error;
  }
  const drop = () => sink.delete(storedAs).catch(() => {});
  if (stored.size === 0) {
    await drop();
    return refuse(c, 400, empty(name));
  }
  const type = await checkFileType(stored.head, name, ask.accept);
  if (!type.ok) {
    await drop();
    return refuse(c, 415, `${name} was not accepted: ${line(type.problem)} Nothing was kept.`);
  }
  return { storedAs, stored, type: type.type };
}

/** The stored file recorded as its part of the upload; once every part is in, the list is written and the flow ends. */
async function recordPart(
  c: C,
  config: PagesConfig,
  flow: UrlFlow,
  { index, total, name }: Part,
  { storedAs, stored, type }: { storedAs: string; stored: StoredUpload; type: string },
): Promise<Response> {
  const id = flow.id;
  const record: UploadRecord = { storedAs, name, type, size: stored.size, sha256: stored.sha256 };
  const keep = flow.expiresAt - Date.now() + config.flows.retainMs;
  if (!(await config.uploads.addPart(id, index, record, keep))) {
    await config.uploads.sink.delete(storedAs).catch(() => {});
    return refuse(c, 409, `File ${index + 1} of ${total} was already sent.`);
  }
  const all = await config.uploads.parts(id, total);
  const shown = { name, type, size: stored.size, sha256: stored.sha256 };
  if (!all) return c.json({ stored: shown });
  // The list is written before the flow ends (the tool reads it as soon as it wakes); a flow that ended
  // meanwhile (cancelled, expired, or another tab's last file) keeps what it has and this upload is refused.
  await config.uploads.complete(id, all, keep);
  // (Two last files racing both complete the same list: the second finish loses but its file is in.)
  if (!(await config.flows.finish(id, "completed")) && (await config.flows.outcome(id)) !== "completed") {
    await config.uploads.forget(id, all, total);
    return refuse(c, 410, "This request ended before the file arrived; nothing was kept.");
  }
  return c.json({ stored: shown, next: `${config.base.pathname}done/${id}` });
}

/** The person's name for the file (percent-encoded in a header, since headers are not Unicode), made inert; undefined when unreadable. */
function fileName(header: string | undefined): string | undefined {
  if (header === undefined || header.length > 3000) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(header);
  } catch {
    return undefined;
  }
  if (decoded.length > 1000) return undefined;
  return shownName(decoded);
}
