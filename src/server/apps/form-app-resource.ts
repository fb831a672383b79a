// The form app's HTML resource: one self-contained page (dist/web/form-app.js, built from src/ui/web/app/ by
// scripts/build-web.mjs, with the kit's form and link-consent elements inside), under a Content-Security-Policy
// that lets it load and reach nothing: its one script is the one written here (by hash), its styles are
// constructable stylesheets (the elements' and the app's own, which no style-src governs), and it speaks to its
// host only through postMessage. The host's CSP, from `_meta.ui.csp` (empty: no outside
// domain), applies as well.
import { createHash } from "node:crypto";
import { bundle } from "../url/pages/assets.js";
import { APP_MIME_TYPE, FORM_APP_URI } from "./ui-extension.js";

const hash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

let page: string | undefined;

/** The resource's contents entry (made on first read, then kept). */
export async function formAppResource(): Promise<{ uri: string; mimeType: string; text: string; _meta: Record<string, unknown> }> {
  if (page === undefined) {
    // "</script" inside the bundle's strings would end the element early: escaped (the same string to JavaScript).
    const script = (await bundle("form-app.js")).replaceAll("</script", "<\\/script");
    const csp = `default-src 'none'; script-src ${hash(script)}; style-src 'none'; base-uri 'none'; form-action 'none'`;
    page =
      `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
      `<meta http-equiv="Content-Security-Policy" content="${csp}">` +
      `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light dark">` +
      `<title>Answer the question</title></head>` +
      `<body><main id="app" aria-live="polite"><p>Loading the question…</p></main>` +
      `<script type="module">${script}</script></body></html>`;
  }
  return { uri: FORM_APP_URI, mimeType: APP_MIME_TYPE, text: page, _meta: { ui: { csp: {}, prefersBorder: true } } };
}
