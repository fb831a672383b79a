// What webUI serves besides the state: the page (HTML without inline script, so the CSP can forbid
// inline code), its styles, and the two bundles esbuild builds into dist/web/.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PAGE_PATHS } from "../page/protocol.js";

/**
 * dist/web/, found from this module: dist/ui/web/server/ in the package, src/ui/web/server/ when run
 * from the repository with tsx (the bundles are built files either way).
 */
export function bundleDir(): string {
  for (const candidate of ["../../../web/", "../../../../dist/web/"]) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(dir + "elements.js")) return dir;
  }
  throw new Error("The web bundles (dist/web/elements.js, dist/web/page.js) are missing: build them with `npm run build`.");
}

export interface PageAssets {
  html: string;
  css: string;
  icon: string;
  elements: string;
  script: string;
}

/** Reads the bundles once, when a webUI starts; a missing one is a clear error then, not a blank page later. */
export function loadAssets(): PageAssets {
  const dir = bundleDir();
  const read = (name: string) => {
    if (!existsSync(dir + name)) throw new Error(`The web bundle ${name} is missing in ${dir}: build it with \`npm run build\`.`);
    return readFileSync(dir + name, "utf8");
  };
  return { html: PAGE_HTML, css: PAGE_CSS, icon: PAGE_ICON, elements: read("elements.js"), script: read("page.js") };
}

// Relative addresses: the page lives at /SECRET/, so every request it makes carries the secret.
const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Questions from MCP servers</title>
<link rel="icon" href="${PAGE_PATHS.icon}">
<link rel="stylesheet" href="${PAGE_PATHS.styles}">
<script type="module" src="${PAGE_PATHS.elements}"></script>
<script type="module" src="${PAGE_PATHS.script}"></script>
</head>
<body>
<header>
<h1>Questions from MCP servers</h1>
<p id="connection" role="status">Connecting…</p>
</header>
<main>
<section id="current" aria-label="Current request"><p class="empty">Nothing to answer right now.</p></section>
<section id="queue" aria-label="Waiting requests" hidden><p id="queue-summary"></p><ol id="queue-list"></ol></section>
<section id="notices" aria-label="Notices" aria-live="polite"><ul id="notice-list"></ul></section>
</main>
</body>
</html>
`;

const PAGE_CSS = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.4; }
body { max-width: 46rem; margin: 0 auto; padding: 1rem; }
header h1 { font-size: 1.25rem; margin: 0 0 .25rem; }
#connection { margin: 0 0 1rem; font-size: .9rem; opacity: .8; }
#connection.lost { color: #b00020; opacity: 1; }
.empty { opacity: .7; }
.who { font-size: .9rem; margin: 0 0 .5rem; }
#queue { margin-top: 1.5rem; padding: .5rem 1rem; border: 1px solid color-mix(in srgb, currentColor 25%, transparent); border-radius: .5rem; }
#queue-list { margin: .25rem 0; padding-left: 1.25rem; }
#notice-list { list-style: none; padding: 0; margin-top: 1.5rem; font-size: .9rem; }
#notice-list li { padding: .4rem .6rem; margin-bottom: .25rem; border-left: 3px solid #c77700; white-space: pre-wrap; }
.error { color: #b00020; }
`;

// Served so the browser's icon request does not end in a 404 (and a console error) outside the secret path.
const PAGE_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#3367d6"/><path d="M4 5h8M4 8h8M4 11h5" stroke="#fff" stroke-width="1.5"/></svg>`;
