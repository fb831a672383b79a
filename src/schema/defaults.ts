// applyDefaults: the answer a form starts from (renderers) or ends with (servers).
import { describeFields } from "./fields.js";
import type { SchemaInput } from "./normalize.js";
import type { FormContent } from "./types.js";

/** Fills every field the content leaves out with the field's default; the content wins where present. */
export function applyDefaults(schema: SchemaInput, content: Record<string, unknown> = {}): FormContent {
  const out: Record<string, unknown> = { ...content };
  for (const f of describeFields(schema)) {
    if (out[f.name] === undefined && f.default !== undefined) {
      out[f.name] = Array.isArray(f.default) ? [...f.default] : f.default;
    }
  }
  return out as FormContent;
}
