// A new link for a URL-mode page the person accepted, asked for from the client (the terminal's "n")
// when the first link cannot be used any more: opened in another browser, where it now belongs. Only
// for pages of an mcp-elicit URL kit (…/connect/ID or …/form/ID), whose pages answer POST …/renew/ID
// with the same checks as the pages themselves; any other link has no renewer.
import { MAX_LABEL_LENGTH, sanitizeText } from "../common/sanitize.js";
import { ElicitError } from "../schema/errors.js";

const KIT_PAGE = /^(.*\/)(connect|form)\/([A-Za-z0-9_-]{43})$/;
const RENEW_TIMEOUT_MS = 15_000;
/** The largest answer read: a link or a sentence; a server that sends more is not read further. */
const MAX_ANSWER_BYTES = 16 * 1024;

export class LinkNotRenewedError extends ElicitError {
  constructor(message: string) {
    super("link-not-renewed", message);
  }
}

/**
 * The function that asks the server for a new link to the page at `url`, or undefined when `url` is not
 * a kit page. It resolves with the new link (same origin, under the same pages prefix) and rejects with
 * LinkNotRenewedError saying why not (the server's reason, made inert).
 */
export function linkRenewer(url: string, fetchImpl: typeof fetch = fetch): (() => Promise<string>) | undefined {
  let link: URL;
  try {
    link = new URL(url);
  } catch {
    return undefined;
  }
  const match = KIT_PAGE.exec(link.pathname);
  if (!match || (link.protocol !== "https:" && link.protocol !== "http:")) return undefined;
  const [, prefix, , id] = match;
  const endpoint = new URL(`${prefix}renew/${id}`, link.origin);
  return async () => {
    let response: Response;
    try {
      response = await fetchImpl(endpoint, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: "{}",
        redirect: "error",
        signal: AbortSignal.timeout(RENEW_TIMEOUT_MS),
      });
    } catch (error) {
      throw new LinkNotRenewedError(`${link.host} could not be reached (${inert(error instanceof Error ? error.message : error)}).`);
    }
    const body = (await boundedJson(response).catch(() => undefined)) as { url?: unknown; error?: unknown } | undefined;
    if (!response.ok)
      throw new LinkNotRenewedError(
        typeof body?.error === "string" ? inert(body.error) : `${link.host} gives no new links for this page (HTTP ${response.status}).`,
      );
    const fresh = typeof body?.url === "string" ? safeUrl(body.url) : undefined;
    // The new link leads to the same pages as the one the person accepted, nowhere else.
    if (!fresh || fresh.origin !== link.origin || !fresh.pathname.startsWith(prefix!))
      throw new LinkNotRenewedError(`${link.host} answered with no link to its own pages.`);
    return fresh.href;
  };
}

const inert = (text: unknown) => sanitizeText(String(text), { maxLength: MAX_LABEL_LENGTH, multiline: false });

function safeUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** The answer as JSON, or undefined when it is not JSON or larger than MAX_ANSWER_BYTES (then it is not read on). */
async function boundedJson(response: Response): Promise<unknown> {
  const reader = response.body?.getReader();
  if (!reader) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}
