// The per-field rules of checkSchema: everything one property schema can get wrong.
import { excerpt, quoteText } from "./excerpt.js";
import { matchesFormat, FORMAT_HINTS } from "./formats.js";
import { isObject } from "./is-object.js";
import { issue, pointer, type SchemaIssue } from "./rules.js";
import { sensitiveKind, SENSITIVE_LABELS } from "./sensitive.js";
import { STRING_FORMATS, type ProtocolRevision, type StringFormat } from "./types.js";

const isNonNegativeInteger = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0;
const codePoints = (s: string) => [...s].length;

const COMPOSITION = ["$ref", "allOf", "anyOf", "oneOf", "not", "if", "then", "else"] as const;
const KNOWN: Record<string, readonly string[]> = {
  common: ["type", "title", "description", "default", "enum"],
  string: ["minLength", "maxLength", "format", "pattern", "enum", "enumNames", "oneOf"],
  number: ["minimum", "maximum"],
  integer: ["minimum", "maximum"],
  boolean: [],
  array: ["items", "minItems", "maxItems"],
};

type Add = (code: Parameters<typeof issue>[0], path: string, message: string) => void;

/** Reads a titled option list (`oneOf` / `items.anyOf`); undefined when it is not one. */
function titledOptions(list: unknown): { const: unknown; title: unknown }[] | undefined {
  if (!Array.isArray(list) || !list.every((o) => isObject(o) && "const" in o)) return undefined;
  return list as { const: unknown; title: unknown }[];
}

/** One field under check: its name and schema, its known type, and where its issues go. */
interface FieldCheck {
  name: string;
  field: Record<string, unknown>;
  type: string;
  protocol: ProtocolRevision;
  /** The schema of a multi-select's options (`items`), when it is an object. */
  items: Record<string, unknown> | undefined;
  /** A single choice with titled options (`oneOf` of { const, title }). */
  isTitledSingle: boolean;
  /** A multi-select with titled options (`items.anyOf` of { const, title }). */
  isTitledMulti: boolean;
  /** The JSON pointer of this field, or of one of its keywords. */
  at: (...rest: (string | number)[]) => string;
  add: Add;
}

export function checkField(name: string, field: unknown, protocol: ProtocolRevision): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  const at = (...rest: (string | number)[]) => pointer("properties", name, ...rest);
  const add: Add = (code, path, message) => out.push(issue(code, path, message));

  if (!isObject(field)) {
    add("field-not-object", at(), `Field ${quoteText(name)} must be a JSON object schema, got ${excerpt(field)}.`);
    return out;
  }
  const isTitledSingle = field.type === "string" && titledOptions(field.oneOf) !== undefined;
  const items = isObject(field.items) ? field.items : undefined;
  const isTitledMulti = field.type === "array" && items !== undefined && titledOptions(items.anyOf) !== undefined;
  checkComposition(name, field, isTitledSingle, at, add);
  const type = knownType(name, field, at, add);
  if (type === undefined) return out;

  const check: FieldCheck = { name, field, type, protocol, items, isTitledSingle, isTitledMulti, at, add };
  checkKeywords(check);
  checkBounds(check);
  const options = checkOptions(check);
  checkFormatAndPattern(check);
  checkRevisionLimits(check);
  if ("default" in field) checkDefault(name, type, field, options, at("default"), add);
  return out;
}

/** `$ref`, `allOf` and the other composition keywords: a form is a flat list of fields (titled `oneOf` aside). */
function checkComposition(name: string, field: Record<string, unknown>, isTitledSingle: boolean, at: FieldCheck["at"], add: Add) {
  for (const key of COMPOSITION) {
    if (!(key in field) || (key === "oneOf" && isTitledSingle)) continue;
    add(
      "composition-keyword",
      at(key),
      `Field ${quoteText(name)} uses ${quoteText(key)}, which elicitation forms do not support; forms are flat lists of primitive fields.`,
    );
  }
}

/** The field's type when it is one a form has; undefined (and the issue added) when it is missing, an object or unknown. */
function knownType(name: string, field: Record<string, unknown>, at: FieldCheck["at"], add: Add): string | undefined {
  const type = field.type;
  if (type === undefined) {
    add(
      isObject(field.properties) ? "nested-object" : "type-missing",
      at(),
      isObject(field.properties)
        ? `Field ${quoteText(name)} is a nested object; elicitation forms are flat.`
        : `Field ${quoteText(name)} has no "type"; use string, number, integer, boolean or array.`,
    );
    return undefined;
  }
  if (type === "object") {
    add(
      "nested-object",
      at("type"),
      `Field ${quoteText(name)} is a nested object; elicitation forms are flat: move its fields to the top level.`,
    );
    return undefined;
  }
  if (typeof type !== "string" || !Object.hasOwn(KNOWN, type) || type === "common") {
    add("unknown-type", at("type"), `Field ${quoteText(name)} has type ${excerpt(type)}; use string, number, integer, boolean or array.`);
    return undefined;
  }
  return type;
}

/** Annotations that are not strings, keywords outside the subset, and a field that asks for a secret. */
function checkKeywords({ name, field, type, at, add }: FieldCheck) {
  for (const key of ["title", "description"]) {
    if (key in field && typeof field[key] !== "string")
      add("annotation-invalid", at(key), `Field ${quoteText(name)}: ${quoteText(key)} must be a string.`);
  }
  for (const key of Object.keys(field)) {
    if (KNOWN.common!.includes(key) || KNOWN[type]!.includes(key) || (COMPOSITION as readonly string[]).includes(key)) continue;
    add(
      "unsupported-keyword",
      at(key),
      `Field ${quoteText(name)}: ${quoteText(key)} is not part of the elicitation schema subset; clients will ignore it.`,
    );
  }
  const kind = sensitiveKind(name, field.title, field.description);
  if (kind) {
    add(
      "sensitive-field",
      at(),
      `Field ${quoteText(name)} looks like it asks for ${SENSITIVE_LABELS[kind]}; the spec forbids collecting that in form mode: use a URL-mode elicitation.`,
    );
  }
}

/** Bounds: each must be well-formed, and each min must not exceed its max. */
function checkBounds({ name, field, type, at, add }: FieldCheck) {
  const boundPairs: [string, string, boolean][] =
    type === "string"
      ? [["minLength", "maxLength", true]]
      : type === "array"
        ? [["minItems", "maxItems", true]]
        : type === "number" || type === "integer"
          ? [["minimum", "maximum", false]]
          : [];
  for (const [lo, hi, counts] of boundPairs) {
    for (const key of [lo, hi]) {
      if (!(key in field)) continue;
      const ok = counts ? isNonNegativeInteger(field[key]) : typeof field[key] === "number" && Number.isFinite(field[key]);
      if (!ok)
        add(
          "bound-invalid",
          at(key),
          `Field ${quoteText(name)}: ${quoteText(key)} must be ${counts ? "a non-negative integer" : "a number"}, got ${excerpt(field[key])}.`,
        );
    }
    const [a, b] = [field[lo], field[hi]];
    if (typeof a === "number" && typeof b === "number" && a > b) {
      add("bounds-inverted", at(lo), `Field ${quoteText(name)}: ${lo} (${a}) is greater than ${hi} (${b}), so no answer can be valid.`);
    }
  }
}

/** The options of a choice or a multi-select, checked; the option values when they are usable, for the default. */
function checkOptions(check: FieldCheck): string[] | undefined {
  const { name, field, type, isTitledSingle, at, add } = check;
  let options: string[] | undefined;
  if ("enum" in field && type !== "string") {
    add(
      "enum-not-string",
      at("enum"),
      `Field ${quoteText(name)} has "enum" but type "${type}"; options are only defined for string fields.`,
    );
  }
  if (type === "string" && "enum" in field && "oneOf" in field) {
    add("options-conflict", at("oneOf"), `Field ${quoteText(name)} has both "enum" and "oneOf"; give its options one way only.`);
  }
  if (type === "string" && "enum" in field) options = checkOptionValues(field.enum, at("enum"), name, add);
  if (isTitledSingle) options = checkTitled(field.oneOf, at("oneOf"), name, add);
  if (type === "string" && "enumNames" in field) checkEnumNames(check);
  if (type === "array") options = checkMultiSelect(check);
  return options;
}

/** The legacy `enumNames`: strings, one per `enum` value, and only where 2025-06-18 needs them. */
function checkEnumNames({ name, field, protocol, at, add }: FieldCheck) {
  const names = field.enumNames;
  if (!Array.isArray(names) || !names.every((n) => typeof n === "string")) {
    add("enum-not-string", at("enumNames"), `Field ${quoteText(name)}: "enumNames" must be an array of strings.`);
  } else if (!Array.isArray(field.enum) || names.length !== field.enum.length) {
    add(
      "enum-names-length",
      at("enumNames"),
      `Field ${quoteText(name)}: "enumNames" has ${names.length} names but "enum" has ${Array.isArray(field.enum) ? field.enum.length : "no"} values.`,
    );
  }
  if (protocol !== "2025-06-18") {
    add(
      "enum-names-legacy",
      at("enumNames"),
      `Field ${quoteText(name)}: "enumNames" is legacy since 2025-11-25; use "oneOf": [{ "const", "title" }].`,
    );
  }
}

/** An array field must be a multi-select: `items` with string `enum` values or titled `anyOf` options, nothing else. */
function checkMultiSelect({ name, items, isTitledMulti, at, add }: FieldCheck): string[] | undefined {
  if (!items || !("enum" in items || isTitledMulti)) {
    add(
      "array-not-enum",
      at("items"),
      `Field ${quoteText(name)} is an array but not a multi-select: "items" must have "enum" (string values) or "anyOf" of { const, title }.`,
    );
    return undefined;
  }
  const options = isTitledMulti
    ? checkTitled(items.anyOf, at("items", "anyOf"), name, add)
    : checkOptionValues(items.enum, at("items", "enum"), name, add);
  if (("enum" in items && items.type !== "string") || ("type" in items && items.type !== "string")) {
    add("enum-not-string", at("items", "type"), `Field ${quoteText(name)}: "items.type" must be "string".`);
  }
  for (const key of Object.keys(items)) {
    if (!["type", "enum", "anyOf"].includes(key)) {
      add(
        "unsupported-keyword",
        at("items", key),
        `Field ${quoteText(name)}: "items.${key}" is not part of the elicitation schema subset; clients will ignore it.`,
      );
    }
  }
  return options;
}

/** A `format` the spec names, and a `pattern` (outside the spec) that at least compiles. */
function checkFormatAndPattern({ name, field, type, at, add }: FieldCheck) {
  if (type === "string" && "format" in field && !(STRING_FORMATS as readonly unknown[]).includes(field.format)) {
    add(
      "unknown-format",
      at("format"),
      `Field ${quoteText(name)} has format ${excerpt(field.format)}; supported formats are ${STRING_FORMATS.join(", ")}.`,
    );
  }
  if ("pattern" in field) {
    add(
      "pattern-unsupported",
      at("pattern"),
      `Field ${quoteText(name)}: "pattern" is not in the spec's schema; most clients ignore it, so validate on the server too.`,
    );
    if (typeof field.pattern !== "string" || !compiles(field.pattern)) {
      add(
        "pattern-invalid",
        at("pattern"),
        `Field ${quoteText(name)}: "pattern" ${excerpt(field.pattern)} is not a valid regular expression.`,
      );
    }
  }
}

/** What 2025-06-18 cannot carry: titled options, multi-selects, and defaults of anything but a boolean. */
function checkRevisionLimits({ name, field, type, protocol, isTitledSingle, at, add }: FieldCheck) {
  if (protocol !== "2025-06-18") return;
  if (isTitledSingle)
    add(
      "revision-titled-enum",
      at("oneOf"),
      `Field ${quoteText(name)}: titled options ("oneOf") do not exist in 2025-06-18; use "enum" with "enumNames".`,
    );
  if (type === "array")
    add("revision-multi-select", at("type"), `Field ${quoteText(name)}: multi-select fields do not exist in 2025-06-18.`);
  if ("default" in field && type !== "boolean")
    add("revision-default", at("default"), `Field ${quoteText(name)}: 2025-06-18 defines defaults for boolean fields only.`);
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

function checkOptionValues(values: unknown, path: string, name: string, add: Add): string[] | undefined {
  if (!Array.isArray(values) || !values.every((v) => typeof v === "string")) {
    add("enum-not-string", path, `Field ${quoteText(name)}: options must be an array of strings.`);
    return undefined;
  }
  return checkDistinct(values, path, name, add);
}

function checkTitled(list: unknown, path: string, name: string, add: Add): string[] | undefined {
  const opts = titledOptions(list) ?? [];
  const bad = opts.findIndex((o) => typeof o.const !== "string" || typeof o.title !== "string");
  if (bad >= 0) {
    add("option-invalid", `${path}/${bad}`, `Field ${quoteText(name)}: option ${bad} must be { "const": string, "title": string }.`);
    return undefined;
  }
  return checkDistinct(
    opts.map((o) => o.const as string),
    path,
    name,
    add,
  );
}

function checkDistinct(values: string[], path: string, name: string, add: Add): string[] {
  if (values.length === 0) add("enum-empty", path, `Field ${quoteText(name)} has no options to choose from.`);
  const seen = new Set<string>();
  values.forEach((v, i) => {
    if (seen.has(v)) add("enum-duplicate", `${path}/${i}`, `Field ${quoteText(name)}: option ${excerpt(v)} appears more than once.`);
    seen.add(v);
  });
  return values;
}

function checkDefault(name: string, type: string, field: Record<string, unknown>, options: string[] | undefined, path: string, add: Add) {
  const value = field.default;
  const expected =
    type === "integer"
      ? "an integer"
      : type === "number"
        ? "a number"
        : type === "boolean"
          ? "a boolean"
          : type === "array"
            ? "an array of option values"
            : "a string";
  const typeOk =
    type === "string"
      ? typeof value === "string"
      : type === "boolean"
        ? typeof value === "boolean"
        : type === "number"
          ? typeof value === "number" && Number.isFinite(value)
          : type === "integer"
            ? Number.isInteger(value)
            : Array.isArray(value) && value.every((v) => typeof v === "string");
  if (!typeOk) {
    add("default-not-allowed", path, `Field ${quoteText(name)}: default ${excerpt(value)} is not ${expected}.`);
    return;
  }
  const values = Array.isArray(value) ? (value as string[]) : [value];
  const notOption = options ? values.find((v) => !options.includes(v as string)) : undefined;
  if (notOption !== undefined) {
    add("default-not-allowed", path, `Field ${quoteText(name)}: default ${excerpt(notOption)} is not one of the options.`);
  }
  const format = field.format as StringFormat | undefined;
  if (typeof value === "string" && format && FORMAT_HINTS[format] && !matchesFormat(format, value)) {
    add("default-not-allowed", path, `Field ${quoteText(name)}: default ${excerpt(value)} is not ${FORMAT_HINTS[format].noun}.`);
  }
  const bound = (actual: number, key: string, isMin: boolean, what: string) => {
    const limit = field[key];
    if (typeof limit === "number" && (isMin ? actual < limit : actual > limit)) {
      add(
        "default-out-of-bounds",
        path,
        `Field ${quoteText(name)}: default has ${what} ${actual}, ${isMin ? "below" : "above"} ${key} ${limit}.`,
      );
    }
  };
  if (typeof value === "string") {
    bound(codePoints(value), "minLength", true, "length");
    bound(codePoints(value), "maxLength", false, "length");
  } else if (typeof value === "number") {
    bound(value, "minimum", true, "value");
    bound(value, "maximum", false, "value");
  } else if (Array.isArray(value)) {
    bound(value.length, "minItems", true, "item count");
    bound(value.length, "maxItems", false, "item count");
  }
}
