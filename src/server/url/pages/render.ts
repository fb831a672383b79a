// Problems and outcomes as pages.
import type { Context } from "hono";
import { html } from "hono/html";
import type { PagesConfig } from "./config.js";
import type { Problem } from "./problems.js";
import { page, paragraphs } from "./views.js";

export function problemPage(c: Context, config: PagesConfig, problem: Problem): Response | Promise<Response> {
  if (problem.formTargets) c.set("formTargets", problem.formTargets);
  return c.html(
    page({
      title: problem.title,
      prefix: config.base.pathname,
      ...(problem.asker ? { asker: problem.asker } : {}),
      body: html`<div role="alert">${paragraphs(...problem.text)}</div>
        ${problem.extra ? html`<div class="actions">${problem.extra}</div>` : ""}`,
    }),
    problem.status,
  );
}

export function problemJson(c: Context, problem: Problem): Response {
  return c.json({ error: [problem.title, ...problem.text].join(" ") }, problem.status);
}
