// applyDefaults: the answer a form starts from (renderers) or ends with (servers and clients).
import { describeFields } from "./compiled.js";
import { getOwn, setOwn } from "./own.js";
import type { SchemaInput } from "./normalize.js";
import type { FormContent, ProtocolRevision } from "./types.js";

export interface ApplyDefaultsOptions {
  /** The revision the form came on: 2025-06-18 defines only boolean defaults, so only those apply there. */
  protocol?: ProtocolRevision;
}

/** Fills every field the content leaves out with the field's default; the content wins where present. */
export function applyDefaults(schema: SchemaInput, content: Record<string, unknown> = {}, options: ApplyDefaultsOptions = {}): FormContent {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(content)) setOwn(out, key, content[key]);
  for (const f of describeFields(schema)) {
    if (f.default === undefined || getOwn(out, f.name) !== undefined) continue;
    if (options.protocol === "2025-06-18" && typeof f.default !== "boolean") continue;
    setOwn(out, f.name, Array.isArray(f.default) ? [...f.default] : f.default);
  }
  return out as FormContent;
}
