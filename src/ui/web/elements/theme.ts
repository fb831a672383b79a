// The look shared by the three elements. A host themes them with the --mcp-elicit-* custom properties
// (colours, font, radius) and with ::part() for anything else; without them they follow the person's light
// or dark preference. Styles are constructable stylesheets (Lit's `static styles`), never inline style
// attributes, so a strict Content-Security-Policy (`default-src 'self'`) allows them.
import { css } from "lit";

export const theme = css`
  :host {
    --_bg: var(--mcp-elicit-bg, #ffffff);
    --_fg: var(--mcp-elicit-fg, #1a1a1a);
    --_muted: var(--mcp-elicit-muted, #555555);
    --_border: var(--mcp-elicit-border, #767676);
    --_accent: var(--mcp-elicit-accent, #0b57d0);
    --_accent-fg: var(--mcp-elicit-accent-fg, #ffffff);
    --_error: var(--mcp-elicit-error, #b3261e);
    --_warning-bg: var(--mcp-elicit-warning-bg, #fff4e0);
    --_warning-fg: var(--mcp-elicit-warning-fg, #5c3a00);
    --_mark-bg: var(--mcp-elicit-highlight-bg, #fff59d);
    --_mark-fg: var(--mcp-elicit-highlight-fg, #000000);
    --_focus: var(--mcp-elicit-focus, #0b57d0);
    --_radius: var(--mcp-elicit-radius, 6px);
    display: block;
    box-sizing: border-box;
    max-width: 40rem;
    padding: 1rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
    color: var(--_fg);
    font: var(--mcp-elicit-font, 15px/1.45 system-ui, sans-serif);
    overflow-wrap: anywhere;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_bg: var(--mcp-elicit-bg, #1e1f22);
      --_fg: var(--mcp-elicit-fg, #ececec);
      --_muted: var(--mcp-elicit-muted, #b4b4b4);
      --_border: var(--mcp-elicit-border, #8c8c8c);
      --_accent: var(--mcp-elicit-accent, #a8c7fa);
      --_accent-fg: var(--mcp-elicit-accent-fg, #062e6f);
      --_error: var(--mcp-elicit-error, #ffb4ab);
      --_warning-bg: var(--mcp-elicit-warning-bg, #3d2e00);
      --_warning-fg: var(--mcp-elicit-warning-fg, #ffe08a);
      --_mark-bg: var(--mcp-elicit-highlight-bg, #ffe08a);
      --_mark-fg: var(--mcp-elicit-highlight-fg, #000000);
      --_focus: var(--mcp-elicit-focus, #a8c7fa);
    }
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  h2 {
    margin: 0 0 0.5rem;
    font-size: 1.15em;
  }
  h3 {
    margin: 0.9rem 0 0.25rem;
    font-size: 1em;
  }
  pre {
    border-left: 3px solid var(--_border);
    padding-left: 0.6rem;
  }
  h2:focus {
    outline: none;
  }
  p {
    margin: 0.25rem 0;
  }
  .message,
  pre {
    white-space: pre-wrap;
    font: inherit;
    margin: 0.25rem 0 0.75rem;
  }
  .muted,
  .help,
  .hint {
    color: var(--_muted);
    font-size: 0.92em;
  }
  .help,
  .hint {
    display: block;
    margin: 0.15rem 0;
  }
  /* A description's own line breaks are kept, as in a message. */
  .help {
    white-space: pre-wrap;
  }
  .field {
    margin: 0.9rem 0;
    border: 0;
    padding: 0;
    min-width: 0;
  }
  label,
  legend {
    display: block;
    font-weight: 600;
    padding: 0;
  }
  .label-row {
    display: flex;
    gap: 0.2rem;
    font-weight: 600;
  }
  .option {
    display: flex;
    align-items: center;
    gap: 0.4rem;
    font-weight: normal;
    margin: 0.2rem 0;
  }
  .required {
    color: var(--_error);
  }
  input[type="text"],
  input[type="password"],
  select,
  textarea {
    display: block;
    width: 100%;
    margin-top: 0.25rem;
    padding: 0.4rem 0.5rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
    color: var(--_fg);
    font: inherit;
  }
  textarea {
    min-height: 5rem;
    resize: vertical;
  }
  input[type="checkbox"],
  input[type="radio"] {
    width: 1.1rem;
    height: 1.1rem;
    margin: 0;
    accent-color: var(--_accent);
  }
  [aria-invalid="true"] {
    border-color: var(--_error);
    border-width: 2px;
  }
  .error {
    color: var(--_error);
    font-weight: 600;
    margin: 0.25rem 0;
  }
  .warning {
    background: var(--_warning-bg);
    color: var(--_warning-fg);
    border-radius: var(--_radius);
    padding: 0.4rem 0.6rem;
    margin: 0.4rem 0;
  }
  ul.warnings {
    list-style: none;
    padding: 0;
    margin: 0.5rem 0;
  }
  mark {
    background: var(--_mark-bg);
    color: var(--_mark-fg);
    font-weight: 700;
    padding: 0 0.1em;
  }
  code {
    font-family: ui-monospace, monospace;
    font-size: 0.95em;
    word-break: break-all;
  }
  dl {
    display: grid;
    grid-template-columns: minmax(6rem, max-content) 1fr;
    gap: 0.25rem 0.75rem;
    margin: 0.5rem 0;
  }
  dt {
    font-weight: 600;
  }
  dd {
    margin: 0;
    min-width: 0;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin-top: 1rem;
  }
  button {
    font: inherit;
    padding: 0.45rem 1rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
    color: var(--_fg);
    cursor: pointer;
  }
  button.primary {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-fg);
    font-weight: 600;
  }
  /* "Read in full" under a folded text: a quiet button, still a real one for keyboards and screen readers. */
  button.more {
    display: block;
    margin: 0 0 0.75rem;
    padding: 0.1rem 0;
    border: 0;
    background: none;
    color: var(--_accent);
    text-decoration: underline;
  }
  .help + button.more {
    margin: 0 0 0.25rem;
    font-size: 0.92em;
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.55;
  }
  :focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  .status {
    font-weight: 600;
  }
`;
