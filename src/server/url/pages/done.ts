// How a flow ended, for the person:
//   GET  /done/:id   completed, declined, cancelled or expired, in words; a pending flow goes back to its page
import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { isFlowId, type FlowOutcome, type UrlFlow } from "../flows.js";
import type { PagesConfig, PagesEnv } from "./config.js";
import { asker } from "./gate.js";
import { problemPage } from "./render.js";
import { line, page } from "./views.js";

export function doneRoutes(app: Hono<PagesEnv>, config: PagesConfig): void {
  app.get("/done/:id", (c) => donePage(c, config));
}

async function donePage(c: Context<PagesEnv, "/done/:id">, config: PagesConfig): Promise<Response> {
  const prefix = config.base.pathname;
  const id = c.req.param("id");
  if (!isFlowId(id))
    return problemPage(c, config, { status: 404, title: "This link is not valid", text: ["Nothing is waiting at this address."] });
  const outcome = await config.flows.outcome(id);
  const flow = await config.flows.get(id);
  if (outcome === undefined) return c.redirect(`${prefix}connect/${id}`, 303);
  const [title, text] = ending(config, outcome, flow);
  return c.html(page({ title, prefix, ...(flow ? { asker: asker(flow) } : {}), body: html`<p role="status">${text}</p>` }));
}

/** The done page's title and sentence for how the flow ended. */
function ending(config: PagesConfig, outcome: FlowOutcome, flow: UrlFlow | undefined): [string, string] {
  const client = flow ? line(flow.client) : "the app you came from";
  switch (outcome) {
    case "completed": {
      const what = flow?.kind === "connect" ? (config.providers.get(flow.provider ?? "")?.title ?? line(flow.provider)) : undefined;
      return [
        what ? `${what} is connected` : "Done",
        `${flow ? line(flow.server) : "The server"} has what it asked for. You can close this tab and go back to ${client}.`,
      ];
    }
    case "declined":
      return ["You declined", `Nothing was shared. You can close this tab and go back to ${client}.`];
    case "cancelled":
      return ["Cancelled", `The request was withdrawn. You can close this tab.`];
    default:
      return ["This link has expired", "Nothing was shared. Ask for a new link if you still need one."];
  }
}
