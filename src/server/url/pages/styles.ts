// The pages' one stylesheet, served as a file (the CSP allows no inline style). Light and dark follow the system.
export const PAGES_CSS = `
:root { color-scheme: light dark; --fg: #1b1b1f; --muted: #5b5b66; --bg: #f6f6f8; --card: #fff; --line: #d8d8de; --accent: #1f5fbf; --accent-fg: #fff; --warn: #9a3412; }
@media (prefers-color-scheme: dark) { :root { --fg: #ececf1; --muted: #a5a5b0; --bg: #121214; --card: #1d1d21; --line: #35353c; --accent: #6ea3ff; --accent-fg: #0b0b0d; --warn: #fdba74; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 36rem; margin: 2rem auto; padding: 1.5rem 1.75rem; background: var(--card); border: 1px solid var(--line); border-radius: 12px; }
header h1 { font-size: 1.35rem; margin: 0.25rem 0 1rem; overflow-wrap: anywhere; }
.asker { margin: 0; color: var(--muted); font-size: 0.9rem; overflow-wrap: anywhere; }
.identity { color: var(--muted); font-size: 0.9rem; }
.message { margin: 1rem 0; }
.message figcaption { font-size: 0.8rem; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
.message blockquote { margin: 0.25rem 0 0; padding: 0.5rem 0.75rem; border-left: 3px solid var(--line); white-space: pre-wrap; overflow-wrap: anywhere; }
.destination { font-family: ui-monospace, monospace; font-size: 0.9rem; overflow-wrap: anywhere; background: var(--bg); padding: 0.5rem 0.75rem; border-radius: 6px; }
.warning { color: var(--warn); }
.actions { display: flex; gap: 0.75rem; flex-wrap: wrap; margin-top: 1.25rem; }
.actions form { margin: 0; }
button { font: inherit; padding: 0.5rem 1.1rem; border-radius: 8px; border: 1px solid var(--line); background: var(--card); color: var(--fg); cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-fg); }
button:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
a { color: var(--accent); }
.error { color: var(--warn); }
.drop-zone { border: 2px dashed var(--line); border-radius: 10px; padding: 1rem; margin: 1rem 0; }
.drop-zone.dragging { border-color: var(--accent); }
.drop-zone label { display: block; font-weight: 600; margin-bottom: 0.5rem; }
progress { width: 100%; }
.small { font-size: 0.85rem; color: var(--muted); }
`;
