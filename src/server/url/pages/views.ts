// The pages' HTML: Hono's html`` template escapes every interpolated value, and every text that came
// from a server, a client or a provider is first made inert (sanitizeText: no control, bidi or
// invisible characters) and bounded. No inline script or style: the CSP forbids both.
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { MAX_LABEL_LENGTH, MAX_MESSAGE_LENGTH, sanitizeText } from "../../../common/sanitize.js";

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

export const line = (text: unknown) => sanitizeText(text, { maxLength: MAX_LABEL_LENGTH, multiline: false });
export const paragraph = (text: unknown) => sanitizeText(text, { maxLength: MAX_MESSAGE_LENGTH });

/** Who asked, on every page that concerns a flow. */
export interface Asker {
  server: string;
  client: string;
}

export interface Shell {
  title: string;
  /** The pages' path prefix, for the stylesheet and scripts. */
  prefix: string;
  asker?: Asker;
  /** Module scripts from the pages' assets (the form page). */
  scripts?: string[];
  body: Html;
}

export function page(shell: Shell): Html {
  const { prefix, asker } = shell;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${line(shell.title)}</title>
        <link rel="stylesheet" href="${prefix}assets/pages.css" />
        ${(shell.scripts ?? []).map((s) => html`<script type="module" src="${prefix}assets/${s}"></script>`)}
      </head>
      <body>
        <main>
          <header>
            ${asker ? html`<p class="asker">Asked by <strong>${line(asker.server)}</strong> through <strong>${line(asker.client)}</strong></p>` : ""}
            <h1>${line(shell.title)}</h1>
          </header>
          ${shell.body}
        </main>
      </body>
    </html>`;
}

/** The server's message, quoted as theirs. */
export const quoted = (message: string) =>
  html`<figure class="message">
    <figcaption>Their message</figcaption>
    <blockquote>${paragraph(message)}</blockquote>
  </figure>`;

/** A POST form of hidden fields and one button. */
export function postButton(action: string, fields: Record<string, string>, label: string, kind: "primary" | "secondary" = "primary"): Html {
  return html`<form method="post" action="${action}">
    ${Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}" />`)}
    <button type="submit" class="${kind}">${line(label)}</button>
  </form>`;
}

export const paragraphs = (...texts: Array<string | Html>) => texts.map((t) => html`<p>${t}</p>`);

/** Who the pages think is here, as a sentence. */
export function signedInAs(person: { issuer: string; sub: string; name?: string } | "loopback"): Html {
  if (person === "loopback")
    return html`<p class="identity">Local mode: this page answers only this computer, and anyone using it can open this link.</p>`;
  const who = person.name ? `${line(person.name)} (${line(person.sub)})` : line(person.sub);
  return html`<p class="identity">Signed in as <strong>${who}</strong> at ${line(hostOf(person.issuer))}.</p>`;
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * JSON for a `<script type="application/json">` data block. Script content is raw text (entities are not
 * decoded there), so it is inserted unescaped, which is safe because `<`, `>` and `&` are written as
 * JSON escapes: no text can close the element or open a comment.
 */
export const dataBlock = (value: unknown) =>
  raw(
    JSON.stringify(value)
      .replace(/</g, "\\u003c")
      .replace(/>/g, "\\u003e")
      .replace(/&/g, "\\u0026")
      .replace(/\u2028/g, "\\u2028")
      .replace(/\u2029/g, "\\u2029"),
  );
