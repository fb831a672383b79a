// The four string formats of the subset, checked exactly as Ajv + ajv-formats ("full" mode)
// check them, by calling ajv-formats' own definitions rather than copying their regexes.
import { fullFormats } from "ajv-formats/dist/formats.js";
import type { StringFormat } from "./types.js";

type FormatCheck = (value: string) => boolean;

function toCheck(definition: unknown): FormatCheck {
  if (definition instanceof RegExp) return (v) => definition.test(v);
  if (typeof definition === "function") return definition as FormatCheck;
  const validate = (definition as { validate: RegExp | FormatCheck }).validate;
  return toCheck(validate);
}

const CHECKS: Record<StringFormat, FormatCheck> = {
  email: toCheck(fullFormats.email),
  uri: toCheck(fullFormats.uri),
  date: toCheck(fullFormats.date),
  "date-time": toCheck(fullFormats["date-time"]),
};

/** What each format means to a person, with an example: used in error messages and hints. */
export const FORMAT_HINTS: Record<StringFormat, { noun: string; example: string }> = {
  email: { noun: "an email address", example: "name@example.com" },
  uri: { noun: "an absolute URI", example: "https://example.com/page" },
  date: { noun: "a date as YYYY-MM-DD", example: "2026-06-15" },
  "date-time": { noun: "a date and time (RFC 3339)", example: "2026-06-15T09:30:00Z" },
};

export function matchesFormat(format: StringFormat, value: string): boolean {
  return CHECKS[format](value);
}

/** The check of one format itself, for a validator that picks it once per field rather than per value. */
export function formatCheck(format: StringFormat): (value: string) => boolean {
  return CHECKS[format];
}
