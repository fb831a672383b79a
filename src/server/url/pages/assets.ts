// The files the pages load: their stylesheet, and for the hosted form the form element's own file (not the
// whole elements bundle: a third of its size, without the URL consent's suffix list) and the form page
// script, both built by scripts/build-web.mjs into dist/web/. Read on first use and kept: from the files
// where there are files (Node, Deno, Bun), else from the copy the build embeds beside this module
// (page-scripts.js), which a Worker's bundler takes along; node:fs is loaded only when tried.
import { PAGES_CSS } from "./styles.js";

const MISSING =
  "The pages' bundles (dist/web/elements/form.js, dist/web/url-form.js, dist/web/form-app.js) are missing: build them with `npm run build`.";

/** The bundle `file` (relative to dist/web/), from dist/web/ (the package, or the repository under tsx), else the embedded copy. */
export async function bundle(file: string): Promise<string> {
  try {
    const [{ existsSync, readFileSync }, { fileURLToPath }] = await Promise.all([import("node:fs"), import("node:url")]);
    for (const candidate of ["../../../web/", "../../../../dist/web/"]) {
      const dir = fileURLToPath(new URL(candidate, import.meta.url));
      if (existsSync(dir + file)) return readFileSync(dir + file, "utf8");
    }
  } catch {
    // No files here (a Worker): the embedded copy.
  }
  const embedded = await import(
    // @ts-expect-error scripts/build-web.mjs writes it into dist/server/url/pages/ only
    "./page-scripts.js"
  ).then(
    (module: { default: Record<string, string> }) => module.default,
    () => undefined,
  );
  const text = embedded?.[file];
  if (text === undefined) throw new Error(MISSING);
  return text;
}

// A padlock: the page's own icon, so the browser does not ask the origin's root for one.
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="2" y="7" width="12" height="8" rx="1.5" fill="#1f5fbf"/><path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="#1f5fbf" stroke-width="1.6"/></svg>`;

export interface Asset {
  type: string;
  body: string;
}

const cache = new Map<string, Asset>();

/** The scripts the pages may load, by the name they are served under: their file in dist/web/. */
const SCRIPTS: Record<string, string> = { "form.js": "elements/form.js", "url-form.js": "url-form.js", "url-file.js": "url-file.js" };

/** The asset called `name`, or undefined for any other name. */
export async function asset(name: string): Promise<Asset | undefined> {
  if (name === "pages.css") return { type: "text/css; charset=utf-8", body: PAGES_CSS };
  if (name === "icon.svg") return { type: "image/svg+xml", body: ICON };
  const file = Object.hasOwn(SCRIPTS, name) ? SCRIPTS[name] : undefined;
  if (!file) return undefined;
  let found = cache.get(name);
  if (!found) cache.set(name, (found = { type: "text/javascript; charset=utf-8", body: await bundle(file) }));
  return found;
}
