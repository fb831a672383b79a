// Form mode: who asks and why, warnings, each field in turn, then a review screen where any answer
// can be changed before submitting, declining or cancelling.
import { select } from "@inquirer/prompts";
import type { FormAnswer, FormRequest, UIContext } from "../../client/ui.js";
import type { Field } from "../../schema/fields.js";
import type { FieldValue, FormContent } from "../../schema/types.js";
import { validateContent } from "../../schema/validate.js";
import { askField, fieldTitle, showValue, type FieldCheck } from "./field-prompt.js";
import { Cancelled, type TerminalIO } from "./io.js";
import { indent, inert, inertLine, serverName } from "./style.js";

type Answers = Map<string, FieldValue | undefined>;

export async function runForm(io: TerminalIO, request: FormRequest, context: UIContext): Promise<FormAnswer> {
  const { style } = io;
  const signal = context.signal;
  const server = serverName(context);
  const who = inertLine(context.server.name) || "the server";
  io.print("", style.bold(`Form from ${style.server(server)}`), indent(inert(request.message)));
  for (const warning of request.warnings) io.print(style.warning(`Warning: ${inertLine(warning)}`));
  io.print(style.dim("Fields marked * are required. Esc or Ctrl-C cancels."));

  try {
    const start = await io.ask(
      select<"answer" | "decline" | "cancel">,
      {
        message: "Answer this form?",
        choices: [
          { name: request.fields.length ? `Fill it in (${plural(request.fields.length, "field")})` : "Answer (there are no fields)", value: "answer" },
          { name: `Decline (tell ${who} no)`, value: "decline" },
          { name: "Cancel (dismiss without answering)", value: "cancel" },
        ],
      },
      signal,
    );
    if (start !== "answer") return finish(io, start === "decline" ? { action: "decline" } : { action: "cancel" }, server);

    const check = checker(request);
    const answers: Answers = new Map(request.fields.map((f) => [f.name, f.default]));
    for (const field of request.fields) answers.set(field.name, await askField(io, field, answers.get(field.name), check, signal));

    for (;;) {
      showReview(io, request.fields, answers, server);
      const next = await io.ask(
        select<string>,
        {
          message: "Send these answers?",
          choices: [
            { name: "Submit", value: "submit" },
            ...(request.fields.length ? [{ name: "Edit an answer", value: "edit" }] : []),
            { name: `Decline (tell ${who} no)`, value: "decline" },
            { name: "Cancel (dismiss without answering)", value: "cancel" },
          ],
        },
        signal,
      );
      if (next === "decline" || next === "cancel") return finish(io, { action: next }, server);
      if (next === "edit") {
        const name = await io.ask(
          select<string>,
          {
            message: "Which answer?",
            choices: [
              ...request.fields.map((f) => ({ name: `${fieldTitle(f)}: ${showValue(f, answers.get(f.name))}`, value: f.name })),
              { name: "Back to the review", value: "" },
            ],
            pageSize: 12,
          },
          signal,
        );
        const field = request.fields.find((f) => f.name === name);
        if (field) answers.set(field.name, await askField(io, field, answers.get(field.name), check, signal));
        continue;
      }
      const content: FormContent = {};
      for (const [name, value] of answers) if (value !== undefined) define(content, name, value);
      const verdict = validateContent(request.schema, content);
      if (verdict.ok) return finish(io, { action: "accept", content: verdict.value }, server);
      // Each field was checked as it was typed, so this is a belt-and-braces check of the whole answer.
      for (const e of verdict.errors) io.print(style.error(`Error: ${inertLine(e.message)}`));
    }
  } catch (error) {
    if (error instanceof Cancelled) return finish(io, { action: "cancel" }, server, error.by);
    throw error;
  }
}

/** The per-field check: validateContent on the whole schema, keeping this field's message only. */
function checker(request: FormRequest): FieldCheck {
  return (field, value) => {
    const content: Record<string, unknown> = {};
    if (value !== undefined) define(content, field.name, value);
    const verdict = validateContent(request.schema, content);
    return verdict.ok ? undefined : verdict.errors.find((e) => e.field === field.name)?.message;
  };
}

function showReview(io: TerminalIO, fields: Field[], answers: Answers, server: string): void {
  const { style } = io;
  const titles = fields.map(fieldTitle);
  const width = Math.min(32, Math.max(0, ...titles.map((t) => t.length)));
  io.print("", style.bold(`Review your answers for ${style.server(server)}`));
  if (!fields.length) io.print("  (this form has no fields)");
  fields.forEach((f, i) => io.print(`  ${titles[i]!.padEnd(width)}  ${showValue(f, answers.get(f.name))}`));
}

function finish(io: TerminalIO, answer: FormAnswer, server: string, by?: "person" | "server"): FormAnswer {
  const { style } = io;
  if (answer.action === "accept") io.print(style.ok(`Sent your answers to ${server}.`));
  else if (answer.action === "decline") io.print(`Declined: told ${server} no.`);
  else io.print(by === "server" ? `Cancelled: ${server} withdrew the request.` : "Cancelled: nothing was sent.");
  return answer;
}

/** An own property, even for a field named "__proto__". */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
