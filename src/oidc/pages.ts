// The local OpenID provider's own pages: sign-in, consent and errors. Every value from a request or a
// client's registration is escaped, and the pages carry no script, so a hostile client name or
// parameter stays text.
import { createHash } from "node:crypto";

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE =
  "body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}" +
  "label{display:block;margin-top:1rem;font-weight:600}input{display:block;width:100%;box-sizing:border-box;padding:.5rem;margin-top:.25rem;font-size:1rem}" +
  "button{margin-top:1.25rem;padding:.6rem 1.2rem;font-size:1rem;cursor:pointer}.note{color:#555;font-size:.9rem}.error{color:#a40000;font-weight:600}" +
  "code{background:#f1f1f1;padding:0 .2rem}ul{padding-left:1.25rem}";

/** The Content-Security-Policy of every page: no script at all, only this file's stylesheet. */
export const PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'; frame-ancestors 'none'; base-uri 'none'`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>`;
}

export interface LoginPage {
  action: string;
  clientName: string;
  /** The demo accounts, shown so that a person trying the demo knows what to type. */
  hint?: string;
  error?: string;
  username?: string;
}

export function loginPage({ action, clientName, hint, error, username }: LoginPage): string {
  return page(
    "Sign in",
    `<p><strong>${escapeHtml(clientName)}</strong> asks you to sign in to the local demo OpenID provider.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="${escapeHtml(action)}" autocomplete="off">
<label for="username">Username</label>
<input id="username" name="username" required autofocus value="${escapeHtml(username ?? "")}">
<label for="password">Password</label>
<input id="password" name="password" type="password" required>
<button type="submit">Sign in</button>
</form>
${hint ? `<p class="note">${escapeHtml(hint)}</p>` : ""}`,
  );
}

export interface ConsentPage {
  action: string;
  abortAction: string;
  clientName: string;
  user: string;
  /** Resource URL -> scopes asked for it. */
  resources: Record<string, string[]>;
  /** OpenID scopes (openid, offline_access, ...). */
  scopes: string[];
}

export function consentPage({ action, abortAction, clientName, user, resources, scopes }: ConsentPage): string {
  const items = [
    ...Object.entries(resources).map(
      ([resource, asked]) =>
        `<li>access <code>${escapeHtml(resource)}</code>${asked.length ? ` with ${asked.map((s) => `<code>${escapeHtml(s)}</code>`).join(", ")}` : ""}</li>`,
    ),
    ...scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`),
  ];
  return page(
    "Allow access?",
    `<p>Signed in as <strong>${escapeHtml(user)}</strong>.</p>
<p><strong>${escapeHtml(clientName)}</strong> asks to:</p>
<ul>${items.join("") || "<li>sign you in</li>"}</ul>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Allow</button></form>
<form method="post" action="${escapeHtml(abortAction)}"><button type="submit">Deny</button></form>`,
  );
}

export function errorPage(fields: Record<string, string>): string {
  return page(
    "Sign-in failed",
    Object.entries(fields)
      .map(([key, value]) => `<p><strong>${escapeHtml(key)}</strong>: ${escapeHtml(value)}</p>`)
      .join("\n"),
  );
}
