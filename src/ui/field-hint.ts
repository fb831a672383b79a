// What a field accepts, in words, for every renderer (terminal and page): the format, length, pattern,
// number range and choice count. Each renderer adds how to leave an optional field out in its own controls.
import { sanitizeText } from "../common/sanitize.js";
import type { Field } from "../schema/fields.js";
import { FORMAT_HINTS } from "../schema/formats.js";
import { plural } from "../schema/plural.js";

const range = (min: number | undefined, max: number | undefined, unit: (n: number) => string) =>
  min !== undefined && max !== undefined
    ? min === max
      ? `exactly ${unit(min)}`
      : `${min} to ${unit(max)}`
    : min !== undefined
      ? `at least ${unit(min)}`
      : max !== undefined
        ? `at most ${unit(max)}`
        : undefined;

/** The parts of the hint, lower-case, e.g. ["an email address, like name@example.com", "at most 254 characters"]. */
export function acceptsParts(field: Field): string[] {
  const c = field.constraints;
  const parts: string[] = [];
  switch (field.kind) {
    case "text": {
      if (field.format) parts.push(`${FORMAT_HINTS[field.format].noun}, like ${FORMAT_HINTS[field.format].example}`);
      const length = range(c.minLength, c.maxLength, (n) => plural(n, "character"));
      if (length) parts.push(length);
      if (c.pattern !== undefined) parts.push(`matching ${sanitizeText(c.pattern, { maxLength: Infinity, multiline: false })}`);
      break;
    }
    case "number":
    case "integer": {
      const noun = field.kind === "integer" ? "a whole number" : "a number";
      const bounds =
        c.minimum !== undefined && c.maximum !== undefined
          ? ` from ${c.minimum} to ${c.maximum}`
          : c.minimum !== undefined
            ? ` of at least ${c.minimum}`
            : c.maximum !== undefined
              ? ` of at most ${c.maximum}`
              : "";
      parts.push(noun + bounds);
      break;
    }
    case "multi-choice": {
      const count = range(c.minItems, c.maxItems, (n) => plural(n, "choice"));
      if (count) parts.push(`choose ${count}`);
      break;
    }
  }
  return parts;
}
