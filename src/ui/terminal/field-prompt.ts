// Asking one field of a form, by kind, with the project's own validation messages.
import { checkbox, select } from "@inquirer/prompts";
import type { Field } from "../../schema/fields.js";
import { acceptsParts } from "../field-hint.js";
import type { FieldValue } from "../../schema/types.js";
import type { TerminalIO } from "./io.js";
import { inertLine } from "./style.js";
import { mask, textPrompt } from "./text-prompt.js";

/**
 * Checks a candidate value of one field and returns the project's message for it (the one
 * validateContent gives), or undefined when it is acceptable. `undefined` means "no answer".
 */
export type FieldCheck = (field: Field, value: FieldValue | string | undefined) => string | undefined;

const SKIP = Symbol("skip");

/** The field's name as shown: its label, with "*" when an answer is required. */
export function fieldTitle(field: Field): string {
  return `${inertLine(field.label)}${field.required ? " *" : ""}`;
}

/** A one-line description of what the field accepts, or "" when there is nothing to say. */
export function fieldHint(field: Field): string {
  const parts = acceptsParts(field);
  if (!field.required) parts.push(SKIP_HINTS[field.kind]);
  return parts.join("; ");
}

/** How to leave an optional field out, in this renderer's controls. */
const SKIP_HINTS: Record<Field["kind"], string> = {
  text: "optional: leave empty to skip",
  number: "optional: leave empty to skip",
  integer: "optional: leave empty to skip",
  boolean: "optional: choose Skip to leave it out",
  choice: "optional: choose Skip to leave it out",
  "multi-choice": "optional: select none to skip",
};

/** An answer as shown in a list: option labels rather than values, "(skipped)" for none. */
export function showValue(field: Field, value: FieldValue | undefined): string {
  if (value === undefined) return "(skipped)";
  const label = (v: string) => inertLine(field.options?.find((o) => o.value === v)?.label ?? v);
  if (field.kind === "boolean") return value ? "Yes" : "No";
  if (field.kind === "choice") return label(String(value));
  if (field.kind === "multi-choice") return Array.isArray(value) && value.length ? value.map(label).join(", ") : "(none)";
  const text = inertLine(String(value));
  return field.masked ? mask(text) : text;
}

/**
 * Asks one field, starting from `current` (its default or the answer given before), until the
 * answer passes `check`. Returns undefined for a skipped optional field.
 */
export async function askField(
  io: TerminalIO,
  field: Field,
  current: FieldValue | undefined,
  check: FieldCheck,
  signal: AbortSignal,
): Promise<FieldValue | undefined> {
  const { style } = io;
  const help = field.help ? inertLine(field.help) : "";
  const hint = fieldHint(field);
  if (help) io.print(style.dim(`  ${help}`));
  if (hint) io.print(style.dim(`  (${hint})`));
  const message = fieldTitle(field);
  const error = (m: string) => style.error(`Error: ${inertLine(m)}`);

  switch (field.kind) {
    case "text":
    case "number":
    case "integer": {
      const parse = field.kind === "text" ? (s: string) => s : parseNumber;
      const answer = await io.ask(
        textPrompt,
        {
          message,
          initial: current === undefined ? "" : inertLine(String(current)),
          validate: (s) => (s === "" ? (field.required ? check(field, undefined) : undefined) : check(field, parse(s))),
          format: (s) => (s === "" ? "(skipped)" : field.masked ? mask(s) : s),
          mask: field.masked === true,
          error,
        },
        signal,
      );
      return answer === "" ? undefined : (parse(answer) as FieldValue);
    }
    case "boolean": {
      // Without a default or an earlier answer nothing is pre-selected: the cursor starts on "no answer",
      // so pressing Enter never says yes for the person (a required field then asks again).
      const choices: { name: string; value: boolean | typeof SKIP }[] = [];
      if (current === undefined) choices.push({ name: field.required ? "(choose Yes or No)" : "Skip (no answer)", value: SKIP });
      choices.push({ name: "Yes", value: true }, { name: "No", value: false });
      if (current !== undefined && !field.required) choices.push({ name: "Skip (no answer)", value: SKIP });
      for (;;) {
        const answer = await io.ask(
          select<boolean | typeof SKIP>,
          { message, choices, default: typeof current === "boolean" ? current : SKIP, loop: false },
          signal,
        );
        if (answer !== SKIP) return answer;
        if (!field.required) return undefined;
        io.print(error(check(field, undefined) ?? `${field.label} is required`));
      }
    }
    case "choice": {
      const choices: { name: string; value: string | typeof SKIP }[] = (field.options ?? []).map((o) => ({
        name: inertLine(o.label),
        value: o.value,
      }));
      if (!field.required) choices.push({ name: "Skip (no answer)", value: SKIP });
      const answer = await io.ask(
        select<string | typeof SKIP>,
        { message, choices, default: typeof current === "string" ? current : undefined, pageSize: 10 },
        signal,
      );
      return answer === SKIP ? undefined : answer;
    }
    case "multi-choice": {
      const selected = Array.isArray(current) ? current : [];
      const choices = (field.options ?? []).map((o) => ({ name: inertLine(o.label), value: o.value, checked: selected.includes(o.value) }));
      const answer = await io.ask(
        checkbox<string>,
        {
          message,
          choices,
          pageSize: 10,
          theme: { style: { error } },
          validate: (chosen) => {
            const values = chosen.map((c) => c.value);
            if (values.length === 0 && !field.required) return true;
            return check(field, values) ?? true;
          },
        },
        signal,
      );
      return answer.length === 0 && !field.required ? undefined : answer;
    }
  }
}

/** A typed number, or the text itself when it is not one (so that validation names the problem). */
function parseNumber(s: string): number | string {
  const t = s.trim();
  return /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i.test(t) ? Number(t) : s;
}
