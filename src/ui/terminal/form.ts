// Form mode: who asks and why, warnings, each field in turn, then a review screen where any answer
// can be changed before submitting, declining or cancelling.
import { select } from "@inquirer/prompts";
import type { FormAnswer, FormRequest, UIContext } from "../../client/ui.js";
import type { Field } from "../../schema/fields.js";
import { plural } from "../../schema/plural.js";
import type { FieldValue, FormContent } from "../../schema/types.js";
import { validateContent } from "../../schema/validate.js";
import { askField, fieldTitle, showValue, type FieldCheck } from "./field-prompt.js";
import { Cancelled, type TerminalIO } from "./io.js";
import { foldText, MESSAGE_ROWS, pageThrough } from "./long-text.js";
import { inert, inertLine, serverName } from "./style.js";

type Answers = Map<string, FieldValue | undefined>;

/**
 * A form the client asks on its own behalf (`elicit connect` asking for a tool's arguments): no
 * server sent it, so it is not headed "Form from SERVER" and has no Decline (there is no one to say no to).
 */
export interface OwnForm {
  /** The heading, e.g. "Arguments for search_flights". */
  title: string;
  /** What cancelling does, shown on the Cancel choice: "Cancel (do not call search_flights)". */
  cancel: string;
  /** Printed when cancelled, e.g. "Cancelled: search_flights was not called." */
  cancelled: string;
  /** Printed when submitted, e.g. "Calling search_flights on travel 1.0.0." */
  sent: string;
}

export async function runForm(io: TerminalIO, request: FormRequest, context: UIContext, own?: OwnForm): Promise<FormAnswer> {
  const { style } = io;
  const signal = context.signal;
  const server = serverName(context);
  const who = inertLine(context.server.name) || "the server";
  const decline = own ? [] : [{ name: `Decline (tell ${who} no)`, value: "decline" as const }];
  const cancel = { name: own ? `Cancel (${inertLine(own.cancel)})` : "Cancel (dismiss without answering)", value: "cancel" as const };
  const heading = own ? inertLine(own.title) : `Form from ${style.server(server)}`;
  // A long message is folded, with a way to read it all, as a long sampling request is.
  const message = foldText(io, inert(request.message), "  ", MESSAGE_ROWS);
  io.print("", style.bold(heading), message.shown);
  for (const warning of request.warnings) io.print(style.warning(`Warning: ${inertLine(warning)}`));
  io.print(style.dim("Fields marked * are required. Esc or Ctrl-C cancels."));

  try {
    let start: "answer" | "read" | "decline" | "cancel";
    for (;;) {
      start = await io.ask(
        select<"answer" | "read" | "decline" | "cancel">,
        {
          message: "Answer this form?",
          choices: [
            {
              name: request.fields.length ? `Fill it in (${plural(request.fields.length, "field")})` : "Answer (there are no fields)",
              value: "answer",
            },
            ...(message.folded ? [{ name: "Read the message in full", value: "read" as const }] : []),
            ...decline,
            cancel,
          ],
        },
        signal,
      );
      if (start !== "read") break;
      await pageThrough(io, heading, inert(request.message), signal);
    }
    if (start !== "answer") return finish(io, start === "decline" ? { action: "decline" } : { action: "cancel" }, server, own);

    const check = checker(request);
    const answers: Answers = new Map(request.fields.map((f) => [f.name, f.default]));
    for (const field of request.fields) answers.set(field.name, await askField(io, field, answers.get(field.name), check, signal));

    for (;;) {
      showReview(io, request.fields, answers, own ? "" : ` for ${style.server(server)}`);
      const next = await io.ask(
        select<string>,
        {
          message: "Send these answers?",
          choices: [
            { name: "Submit", value: "submit" },
            ...(request.fields.length ? [{ name: "Edit an answer", value: "edit" }] : []),
            ...decline,
            cancel,
          ],
        },
        signal,
      );
      if (next === "decline" || next === "cancel") return finish(io, { action: next }, server, own);
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
      if (verdict.ok) return finish(io, { action: "accept", content: verdict.value }, server, own);
      // Each field was checked as it was typed, so this is a belt-and-braces check of the whole answer.
      for (const e of verdict.errors) io.print(style.error(`Error: ${inertLine(e.message)}`));
    }
  } catch (error) {
    if (error instanceof Cancelled) return finish(io, { action: "cancel" }, server, own, error.by);
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

function showReview(io: TerminalIO, fields: Field[], answers: Answers, forWhom: string): void {
  const { style } = io;
  const titles = fields.map(fieldTitle);
  const width = Math.min(32, Math.max(0, ...titles.map((t) => t.length)));
  io.print("", style.bold(`Review your answers${forWhom}`));
  if (!fields.length) io.print("  (this form has no fields)");
  fields.forEach((f, i) => io.print(`  ${titles[i]!.padEnd(width)}  ${showValue(f, answers.get(f.name))}`));
}

function finish(io: TerminalIO, answer: FormAnswer, server: string, own: OwnForm | undefined, by?: "person" | "server"): FormAnswer {
  const { style } = io;
  if (own) io.print(answer.action === "accept" ? style.ok(inertLine(own.sent)) : inertLine(own.cancelled));
  else if (answer.action === "accept") io.print(style.ok(`Sent your answers to ${server}.`));
  else if (answer.action === "decline") io.print(`Declined: told ${server} no.`);
  else io.print(by === "server" ? `Cancelled: ${server} withdrew the request.` : "Cancelled: nothing was sent.");
  return answer;
}

/** An own property, even for a field named "__proto__". */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
