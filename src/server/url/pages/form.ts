// The hosted form, for what must not travel through the MCP client (a card number, an API key):
//   GET  /form/:id   the person checked (gate.ts), then <mcp-elicit-form> with the flow's schema, rendered
//                    by the elements bundle and a small page script (no inline script: the CSP forbids it)
//   POST /form/:id   JSON { csrf, answer }: from this origin, with the CSRF token, validated on the server
//                    with the same validateContent as ctx.elicit; the values go into the vault, the flow ends
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { html } from "hono/html";
import { validateContent } from "../../../schema/validate.js";
import type { SchemaInput } from "../../../schema/normalize.js";
import { existingBrowserId } from "./browser-session.js";
import type { PagesConfig, PagesEnv } from "./config.js";
import { admitFetch, admitPage, asker } from "./gate.js";
import { FOREIGN, STALE_FORM } from "./login.js";
import { jsonObjectBody } from "../../../common/json-body.js";
import { problemJson } from "./render.js";
import { csrfToken, fromOwnPage, validCsrf } from "./security.js";
import { dataBlock, line, page, signedInAs } from "./views.js";

/** Largest form answer accepted. */
export const MAX_FORM_BYTES = 64 * 1024;

/** What the page script reads from the page's data block. */
export interface FormPageData {
  request: { message: string; requestedSchema: object; server: { name: string }; hosted: true };
  csrf: string;
  /** Where the answer is POSTed. */
  post: string;
}

export function formRoutes(app: Hono<PagesEnv>, config: PagesConfig): void {
  app.get("/form/:id", (c) => showForm(c, config));
  app.post(
    "/form/:id",
    bodyLimit({
      maxSize: MAX_FORM_BYTES,
      onError: (c) => c.json({ error: `The answer is larger than ${MAX_FORM_BYTES} bytes.` }, 413, { Connection: "close" }),
    }),
    (c) => receiveAnswer(c, config),
  );
}

type C = Context<PagesEnv, "/form/:id">;

/** GET: the form, rendered by the elements bundle from the page's data block. */
async function showForm(c: C, config: PagesConfig): Promise<Response> {
  const prefix = config.base.pathname;
  const id = c.req.param("id");
  const here = await admitPage(c, config, id, `form/${id}`);
  if (here instanceof Response) return here;
  const { flow, person, browser } = here;
  if (flow.kind !== "form") return c.redirect(`${prefix}connect/${id}`, 303);
  const data: FormPageData = {
    request: { message: flow.message, requestedSchema: flow.form ?? {}, server: { name: flow.server }, hosted: true },
    csrf: csrfToken(config.keys.pages, browser, "form", id),
    post: `${prefix}form/${id}`,
  };
  return c.html(
    page({
      title: `Secure form from ${flow.server}`,
      prefix,
      asker: asker(flow),
      scripts: ["form.js", "url-form.js"],
      body: html`${signedInAs(person)}
        <p class="small">What you enter here goes to ${line(flow.server)} only: ${line(flow.client)} does not see it.</p>
        <script type="application/json" id="mcp-elicit-flow">
          ${dataBlock(data)}
        </script>
        <div id="form-root"></div>
        <p id="form-error" class="error" role="alert"></p>`,
    }),
  );
}

/** POST: the answer, from this origin with its CSRF token, validated like ctx.elicit; the values into the vault, the flow ended. */
async function receiveAnswer(c: C, config: PagesConfig): Promise<Response> {
  const prefix = config.base.pathname;
  if (!fromOwnPage(c, config.base.origin)) return problemJson(c, FOREIGN);
  const body = await jsonObjectBody(c, "{ csrf, answer }");
  if (body instanceof Response) return body;
  const { csrf, answer } = body;
  const id = c.req.param("id");
  const browser = existingBrowserId(c, config.cookies);
  if (!browser || !validCsrf(config.keys, browser, "form", id, csrf)) return problemJson(c, STALE_FORM);
  const here = await admitFetch(c, config, id, `form/${id}`);
  if (here instanceof Response) return here;
  const { flow, owner } = here;
  if (flow.kind !== "form") return c.json({ error: "This link is not a form." }, 400);
  const action = (answer as { action?: unknown } | null)?.action;
  if (action === "decline" || action === "cancel") {
    await config.flows.finish(id, action === "decline" ? "declined" : "cancelled");
    return c.json({ next: `${prefix}done/${id}` });
  }
  if (action !== "accept") return c.json({ error: 'answer.action must be "accept", "decline" or "cancel".' }, 400);
  const verdictOfContent = validateContent((flow.form ?? {}) as SchemaInput, (answer as { content?: unknown }).content);
  if (!verdictOfContent.ok)
    return c.json(
      {
        error: "Some answers need fixing.",
        errors: verdictOfContent.errors.map((e) => ({ field: e.field, rule: e.rule, message: e.message })),
      },
      422,
    );
  const name = flow.name ?? flow.id;
  await config.vault.put(owner, name, verdictOfContent.value, "form");
  // Stored before the flow ends (the tool reads it as soon as it wakes); a flow that ended meanwhile takes it back.
  if (!(await config.flows.finish(id, "completed"))) {
    await config.vault.revoke(owner, name);
    return c.json({ error: "This request ended before the answer arrived; nothing was kept." }, 410);
  }
  return c.json({ next: `${prefix}done/${id}` });
}
