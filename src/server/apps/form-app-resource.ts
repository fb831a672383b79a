// The form app's HTML resource: one self-contained page (dist/web/form-app.js, built from src/ui/web/app/ by
// scripts/build-web.mjs, with the kit's form and link-consent elements inside), under a Content-Security-Policy
// that lets it load and reach nothing: its only scripts and styles are the ones written here (by hash), and
// it speaks to its host only through postMessage. The host's CSP, from `_meta.ui.csp` (empty: no outside
// domain), applies as well.
import { createHash } from "node:crypto";
import { bundle } from "../url/pages/assets.js";
import { APP_MIME_TYPE, FORM_APP_URI } from "./ui-extension.js";

/** The page's own styles: the host's theme variables (ext-apps host context), with the kit's defaults. */
const STYLES = `:root{color-scheme:light dark;font-family:var(--font-sans,system-ui,sans-serif);font-size:var(--font-text-md-size,15px);color:var(--color-text-primary,CanvasText);background:var(--color-background-primary,Canvas)}
body{margin:0;padding:12px}
main{max-width:40rem;margin:0 auto}
.status{margin:.5rem 0;overflow-wrap:anywhere;unicode-bidi:isolate}
.final{white-space:pre-wrap;max-height:24rem;overflow:auto;overflow-wrap:anywhere;unicode-bidi:isolate;border:1px solid var(--color-border-primary,GrayText);border-radius:var(--border-radius-md,6px);padding:.5rem .75rem}
.error{color:var(--color-text-danger,#b00020)}`;

const hash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

let page: string | undefined;

/** The resource's contents entry (made on first read, then kept). */
export async function formAppResource(): Promise<{ uri: string; mimeType: string; text: string; _meta: Record<string, unknown> }> {
  if (page === undefined) {
    // "</script" inside the bundle's strings would end the element early: escaped (the same string to JavaScript).
    const script = (await bundle("form-app.js")).replaceAll("</script", "<\\/script");
    const csp = `default-src 'none'; script-src ${hash(script)}; style-src ${hash(STYLES)}; img-src data:; base-uri 'none'; form-action 'none'`;
    page =
      `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
      `<meta http-equiv="Content-Security-Policy" content="${csp}">` +
      `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light dark">` +
      `<title>Answer the question</title><style>${STYLES}</style></head>` +
      `<body><main id="app" aria-live="polite"><p class="status">Loading the question…</p></main>` +
      `<script type="module">${script}</script></body></html>`;
  }
  return { uri: FORM_APP_URI, mimeType: APP_MIME_TYPE, text: page, _meta: { ui: { csp: {}, prefersBorder: true } } };
}
