// The form app's look: the host's theme variables (MCP Apps host context: --color-*, --font-*, --border-radius-*)
// mapped onto the elements' --mcp-elicit-* properties, with the elements' own light and dark palettes where the
// host gives none. A constructable stylesheet, adopted by the document: the page's Content-Security-Policy
// allows no inline style, and needs none.

/** The palette the elements use where the host gives no variable (theme.ts of the elements). */
const PALETTES = {
  light: { bg: "#ffffff", fg: "#1a1a1a", muted: "#555555", border: "#767676", accent: "#0b57d0", accentFg: "#ffffff", error: "#b3261e" },
  dark: { bg: "#1e1f22", fg: "#ececec", muted: "#b4b4b4", border: "#8c8c8c", accent: "#a8c7fa", accentFg: "#062e6f", error: "#ffb4ab" },
};

const mapped = (p: (typeof PALETTES)["light"]) => `
  --mcp-elicit-bg: var(--color-background-primary, ${p.bg});
  --mcp-elicit-fg: var(--color-text-primary, ${p.fg});
  --mcp-elicit-muted: var(--color-text-secondary, ${p.muted});
  --mcp-elicit-border: var(--color-border-primary, ${p.border});
  --mcp-elicit-accent: var(--color-background-inverse, ${p.accent});
  --mcp-elicit-accent-fg: var(--color-text-inverse, ${p.accentFg});
  --mcp-elicit-error: var(--color-text-danger, ${p.error});
  --mcp-elicit-focus: var(--color-ring-primary, ${p.accent});
  background: var(--color-background-primary, ${p.bg});
  color: var(--color-text-primary, ${p.fg});`;

export const APP_CSS = `
:root { color-scheme: light; ${mapped(PALETTES.light)}
  --mcp-elicit-radius: var(--border-radius-md, 6px);
  --mcp-elicit-font: var(--font-text-md-size, 15px)/var(--font-text-md-line-height, 1.45) var(--font-sans, system-ui, sans-serif);
  font: var(--mcp-elicit-font);
}
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { color-scheme: dark; ${mapped(PALETTES.dark)} } }
:root[data-theme="dark"] { color-scheme: dark; ${mapped(PALETTES.dark)} }
body { margin: 0; padding: 8px; }
main { max-width: 40rem; margin: 0 auto; }
mcp-elicit-form, mcp-elicit-url-consent { max-width: none; }
.status { margin: 0.25rem 0; overflow-wrap: anywhere; unicode-bidi: isolate; }
.result { border: 1px solid var(--mcp-elicit-border); border-radius: var(--mcp-elicit-radius); padding: 0.75rem 1rem; }
.result h2 { margin: 0 0 0.5rem; font-size: 1.1em; }
.result p { margin: 0; white-space: pre-wrap; max-height: 24rem; overflow: auto; overflow-wrap: anywhere; unicode-bidi: isolate; }
.error { color: var(--mcp-elicit-error); }
button { font: inherit; margin-top: 0.5rem; padding: 0.4rem 0.9rem; border-radius: var(--mcp-elicit-radius);
  border: 1px solid var(--mcp-elicit-border); background: var(--mcp-elicit-accent); color: var(--mcp-elicit-accent-fg); cursor: pointer; }
button:focus-visible { outline: 2px solid var(--mcp-elicit-focus); outline-offset: 2px; }
`;

/** Adopts the app's stylesheet (once). */
export function adoptAppStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(APP_CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
