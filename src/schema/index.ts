// mcp-elicit/schema: the form-schema language of MCP elicitation.
export * from "./types.js";
export { text, number, integer, yesNo, choice, multiChoice, form } from "./builders.js";
export type { Infer } from "./infer.js";
export type { Form, FieldBuilder, BaseFieldOptions, TextOptions, NumberOptions, ChoiceOptions, MultiChoiceOptions } from "./builders.js";
export { fromZod } from "./zod.js";
export type { SchemaInput } from "./normalize.js";
export { toRequestedSchema, describeFields, encodeForRevision } from "./compiled.js";
export { checkSchema, hasErrors, type CheckOptions } from "./check.js";
export {
  ElicitError,
  InvalidSchemaError,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  type ErrorCode,
  type JsonRpcError,
  type ToolErrorResult,
} from "./errors.js";
export { SCHEMA_RULES, type SchemaIssue, type SchemaRuleCode, type Severity } from "./rules.js";
export {
  validateContent,
  compileValidator,
  type CompiledValidator,
  type FieldError,
  type ValidationResult,
  type ValidationRule,
} from "./validate.js";
export { applyDefaults, type ApplyDefaultsOptions } from "./defaults.js";
export { humanize, type Field, type FieldKind, type FieldOption, type FieldConstraints } from "./fields.js";
export { sensitiveKind, SENSITIVE_LABELS, type SensitiveKind } from "./sensitive.js";
export { FORMAT_HINTS, matchesFormat } from "./formats.js";
