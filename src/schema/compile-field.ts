// One field's check, built once from its Field: every decision the schema fixes (kind, bounds, options,
// pattern, format, the messages) is taken here, so the check a call runs only looks at the value.
// The messages are the ones a person has always seen; only a stray multi-choice item's is built per call.
import { excerpt } from "./excerpt.js";
import type { Field, FieldOption } from "./fields.js";
import { FORMAT_HINTS, formatCheck } from "./formats.js";
import { plural } from "./plural.js";
import type { ValidationRule } from "./validation-result.js";

/** A broken rule and the sentence for a person; shared between calls, so never mutated. */
export interface Problem {
  readonly rule: ValidationRule;
  readonly message: string;
}

/** Checks one present value: the problem, or undefined when the value is valid. */
export type FieldCheck = (value: unknown) => Problem | undefined;

// Answers hold option values; where a title differs, both are named so a person typing one knows the other.
const quoteList = (options: FieldOption[]) => options.map((o) => (o.label === o.value ? o.value : `${o.value} (${o.label})`)).join(", ");

/** Code points in a string, as `[...s].length` counts them (a lone surrogate is one), without the iterator. */
export function codePointLength(s: string): number {
  const units = s.length;
  let n = units;
  for (let i = 0; i < units - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n--;
      i++;
    }
  }
  return n;
}

// Up to this many options a linear scan of === beats hashing a string that was just parsed.
const SCAN_LIMIT = 8;

/** Membership in a field's option values, decided by how many there are. */
function optionTest(options: FieldOption[]): (value: unknown) => boolean {
  const values = options.map((o) => o.value);
  if (values.length > SCAN_LIMIT) {
    const set = new Set<unknown>(values);
    return (value) => set.has(value);
  }
  return (value) => {
    for (let i = 0; i < values.length; i++) if (values[i] === value) return true;
    return false;
  };
}

export interface FieldCheckOptions {
  /**
   * The check words a value that a test of the format alone already refused (compile-walk's fast test):
   * a string is then known to break the format, and the format is not tested a second time.
   */
  formatFailed?: boolean;
}

/** Builds the check for one field of a schema that checkSchema accepted. */
export function compileFieldCheck(f: Field, options: FieldCheckOptions = {}): FieldCheck {
  const c = f.constraints;
  const problem = (rule: ValidationRule, message: string): Problem => Object.freeze({ rule, message: `${f.label} ${message}` });
  switch (f.kind) {
    case "boolean": {
      const type = problem("type", "must be yes or no (true or false)");
      return (v) => (typeof v === "boolean" ? undefined : type);
    }
    case "number":
    case "integer": {
      const integer = f.kind === "integer";
      const type = problem("type", integer ? "must be a whole number" : "must be a number");
      // An absent bound becomes one no finite number breaks, so the check has no branch for it.
      const min = c.minimum ?? -Infinity;
      const max = c.maximum ?? Infinity;
      const tooSmall = problem("minimum", `must be at least ${c.minimum}`);
      const tooLarge = problem("maximum", `must be at most ${c.maximum}`);
      return (v) => {
        if (typeof v !== "number" || !Number.isFinite(v) || (integer && !Number.isInteger(v))) return type;
        if (v < min) return tooSmall;
        if (v > max) return tooLarge;
        return undefined;
      };
    }
    case "multi-choice": {
      const list = quoteList(f.options!);
      const type = problem("type", `must be a list of choices from: ${list}`);
      const allowed = optionTest(f.options!);
      const minItems = c.minItems ?? 0;
      const maxItems = c.maxItems ?? Infinity;
      const tooFew = problem("minItems", `needs at least ${plural(c.minItems ?? 0, "choice")}`);
      const tooMany = problem("maxItems", `allows at most ${plural(c.maxItems ?? 0, "choice")}`);
      return (v) => {
        if (!Array.isArray(v)) return type;
        // Every index, holes included: an entry that is not an option (undefined too) is refused.
        for (let i = 0; i < v.length; i++) {
          const item: unknown = v[i];
          if (!allowed(item)) return problem("option", `cannot include ${excerpt(item)}; choose from: ${list}`);
        }
        if (v.length < minItems) return tooFew;
        if (v.length > maxItems) return tooMany;
        return undefined;
      };
    }
    default:
      return compileStringCheck(f, problem, options.formatFailed === true);
  }
}

/** Text and single-choice fields: a choice is still a string schema, so length, pattern and format apply to it too. */
function compileStringCheck(f: Field, problem: (rule: ValidationRule, message: string) => Problem, formatFailed: boolean): FieldCheck {
  const c = f.constraints;
  const type = problem("type", "must be text");
  const allowed = f.kind === "choice" ? optionTest(f.options!) : undefined;
  const notAnOption = problem("option", `must be one of: ${quoteList(f.options ?? [])}`);
  const minLength = c.minLength ?? 0;
  const maxLength = c.maxLength ?? Infinity;
  const counted = c.minLength !== undefined || c.maxLength !== undefined;
  const tooShort = problem("minLength", `must be at least ${plural(c.minLength ?? 0, "character")} long`);
  const tooLong = problem("maxLength", `must be at most ${plural(c.maxLength ?? 0, "character")} long`);
  // Compiled once: the pattern has no g or y flag, so the RegExp keeps no state between calls.
  const pattern = c.pattern !== undefined ? new RegExp(c.pattern, "u") : undefined;
  const noMatch = problem("pattern", `must match the pattern ${c.pattern}`);
  const format = f.format ? (formatFailed ? () => false : formatCheck(f.format)) : undefined;
  const badFormat = f.format ? problem("format", `must be ${FORMAT_HINTS[f.format].noun}, like ${FORMAT_HINTS[f.format].example}`) : type;
  return (v) => {
    if (typeof v !== "string") return type;
    if (allowed !== undefined && !allowed(v)) return notAnOption;
    if (counted) {
      // A string has between length/2 and length code points: count them only when that range straddles a bound.
      const units = v.length;
      if (units < 2 * minLength || units > maxLength) {
        const length = codePointLength(v);
        if (length < minLength) return tooShort;
        if (length > maxLength) return tooLong;
      }
    }
    if (pattern !== undefined && !pattern.test(v)) return noMatch;
    if (format !== undefined && !format(v)) return badFormat;
    return undefined;
  };
}
