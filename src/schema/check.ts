// checkSchema: every way a requestedSchema departs from the restricted subset of a revision.
import { checkField } from "./check-field.js";
import { excerpt, quoteText } from "./excerpt.js";
import { describeProblem, SCHEMA_LIMITS, shapeProblem } from "./limits.js";
import { issue, pointer, type SchemaIssue } from "./rules.js";
import { LATEST_REVISION, type ProtocolRevision } from "./types.js";

export interface CheckOptions {
  /** The revision the schema will be sent on; defaults to the latest. */
  protocol?: ProtocolRevision;
}

const ROOT_KEYS = new Set(["$schema", "type", "properties", "required", "title", "description"]);
const ROOT_COMPOSITION = ["$ref", "allOf", "anyOf", "oneOf", "not", "if"];

/**
 * Lists every problem of a requestedSchema for the given revision; errors first, then warnings.
 *
 * @example
 * ```ts region=examples/schema-basics.ts#checkSchema
 * // Titled options need 2025-11-25 or later; on 2025-06-18 they are an error.
 * console.log(checkSchema(booking, { protocol: "2025-06-18" }).map((i) => `${i.path} ${i.code}`));
 * // -> [ '/properties/seatPreference/oneOf revision-titled-enum' ]
 * ```
 */
export function checkSchema(schema: unknown, options: CheckOptions = {}): SchemaIssue[] {
  const protocol = options.protocol ?? LATEST_REVISION;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    return [issue("root-not-object", "", `The schema must be a JSON object, got ${Array.isArray(schema) ? "an array" : excerpt(schema)}.`)];
  }
  // Before anything walks it: the checks below (and every message) must not recurse without bound.
  const shape = shapeProblem(schema, SCHEMA_LIMITS);
  if (shape)
    return [
      issue(
        shape.limit === "depth" ? "schema-too-deep" : "schema-too-large",
        "",
        `The schema is ${describeProblem(shape)}; elicitation forms are flat.`,
      ),
    ];
  const root = schema as Record<string, unknown>;
  const out: SchemaIssue[] = [];
  checkRoot(root, out);
  const hasProperties = checkProperties(root, protocol, out);
  if ("required" in root) checkRequired(root, hasProperties, out);
  // Stable order: errors before warnings, each in schema order.
  return [...out.filter((i) => i.severity === "error"), ...out.filter((i) => i.severity === "warning")];
}

/** The top level: an object type, string annotations, no composition, nothing outside the subset. */
function checkRoot(root: Record<string, unknown>, out: SchemaIssue[]) {
  if (root.type !== "object") {
    out.push(issue("root-not-object", "/type", `The schema's "type" must be "object", got ${excerpt(root.type)}.`));
  }
  for (const key of ["$schema", "title", "description"]) {
    if (Object.hasOwn(root, key) && typeof root[key] !== "string")
      out.push(issue("annotation-invalid", pointer(key), `The schema's ${quoteText(key)} must be a string, got ${excerpt(root[key])}.`));
  }
  for (const key of ROOT_COMPOSITION) {
    if (key in root)
      out.push(
        issue(
          "composition-keyword",
          pointer(key),
          `The schema uses ${quoteText(key)} at the top level; elicitation forms are a flat "properties" object.`,
        ),
      );
  }
  for (const key of Object.keys(root)) {
    if (!ROOT_KEYS.has(key) && !ROOT_COMPOSITION.includes(key)) {
      out.push(
        issue(
          "unsupported-keyword",
          pointer(key),
          `${quoteText(key)} at the top level is not part of the elicitation schema subset; clients will ignore it.`,
        ),
      );
    }
  }
}

/** The fields: a "properties" object with at least one, none named __proto__, each checked. Whether it is an object. */
function checkProperties(root: Record<string, unknown>, protocol: ProtocolRevision, out: SchemaIssue[]): boolean {
  const properties = root.properties;
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) {
    out.push(issue("properties-missing", "/properties", `The schema needs a "properties" object listing the form's fields.`));
    return false;
  }
  const names = Object.keys(properties);
  if (names.length === 0) {
    out.push(issue("form-empty", "/properties", "The form has no fields; several clients render a form that cannot be submitted."));
  }
  for (const name of names) {
    if (name === "__proto__")
      out.push(
        issue(
          "field-name-reserved",
          pointer("properties", name),
          `A field named "__proto__" is dropped from answers by JSON libraries (the MCP SDK's among them), so it could never be answered; rename it.`,
        ),
      );
    out.push(...checkField(name, (properties as Record<string, unknown>)[name], protocol));
  }
  return true;
}

/** "required": field names, each one of the fields (checked only when "properties" is an object). */
function checkRequired(root: Record<string, unknown>, hasProperties: boolean, out: SchemaIssue[]) {
  const required = root.required;
  if (!Array.isArray(required) || !required.every((r) => typeof r === "string")) {
    out.push(issue("required-invalid", "/required", `"required" must be an array of field names.`));
  } else if (hasProperties) {
    required.forEach((name, i) => {
      if (!Object.hasOwn(root.properties as object, name)) {
        out.push(
          issue(
            "required-unknown-field",
            pointer("required", i),
            `"required" names ${quoteText(name)}, which is not a field in "properties".`,
          ),
        );
      }
    });
  }
}

export const hasErrors = (issues: SchemaIssue[]) => issues.some((i) => i.severity === "error");
