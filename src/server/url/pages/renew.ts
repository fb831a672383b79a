// A new link for a flow, asked for by the person's MCP client (the terminal's "n"), not by a browser:
//   POST /renew/:id   JSON {} → { url }: the flow's page with a fresh link token; the browser that held
//                     the flow lets go of it and the old link admits nobody new (flows.ts relink).
// The same checks as the pages: a live, pending flow and the person the flow was made for (gate.ts
// personHere: in local mode a request from this machine; otherwise the person's sign-in or identify()).
// It is not a page: a browser's request carries an Origin (refused unless it is the pages' own), and the
// JSON body makes a cross-site fetch need a preflight that nothing here answers.
import type { Hono } from "hono";
import { browserId } from "./browser-session.js";
import type { PagesConfig, PagesEnv } from "./config.js";
import { personHere, pendingFlow } from "./gate.js";
import { problemJson } from "./render.js";

export function renewRoutes(app: Hono<PagesEnv>, config: PagesConfig): void {
  const prefix = config.base.pathname;

  app.post("/renew/:id", async (c) => {
    const origin = c.req.header("origin");
    if (origin !== undefined && origin !== config.base.origin)
      return c.json({ error: "A new link is asked for by the app that showed the link, not by a web page." }, 403);
    if (!/^application\/json\b/i.test(c.req.header("content-type") ?? ""))
      return c.json({ error: "The request must be JSON (Content-Type: application/json)." }, 415);
    const id = c.req.param("id");
    const flow = await pendingFlow(config, id);
    if (!("kind" in flow)) return problemJson(c, flow);
    const page = flow.kind === "form" ? `form/${id}` : flow.kind === "file" ? `file/${id}` : `connect/${id}`;
    const person = await personHere(c, config, flow, page, browserId(c, config.cookies));
    if (typeof person === "object" && "signIn" in person)
      return c.json(
        {
          error: `A new link can be asked for only by someone ${flow.server}'s pages know: sign in there in a browser, or call the tool again for a new request.`,
        },
        401,
      );
    if (typeof person === "object" && "status" in person) return problemJson(c, person);
    const token = await config.flows.relink(id);
    if (token === undefined) return c.json({ error: "This request is over: there is nothing to give a new link for." }, 410);
    return c.json({ url: `${config.base.origin}${prefix}${page}?link=${token}` });
  });
}
