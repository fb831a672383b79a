// applyDefaults: the answer a form starts from (renderers) or ends with (servers and clients).
import { describeFields } from "./fields.js";
import type { SchemaInput } from "./normalize.js";
import type { FormContent, ProtocolRevision } from "./types.js";

export interface ApplyDefaultsOptions {
  /** The revision the form came on: 2025-06-18 defines only boolean defaults, so only those apply there. */
  protocol?: ProtocolRevision;
}

/** Fills every field the content leaves out with the field's default; the content wins where present. */
export function applyDefaults(schema: SchemaInput, content: Record<string, unknown> = {}, options: ApplyDefaultsOptions = {}): FormContent {
  const out: Record<string, unknown> = {};
  // Own properties only: a field named like a prototype member (`constructor`) is not "present" by inheritance.
  for (const key of Object.keys(content)) define(out, key, content[key]);
  for (const f of describeFields(schema)) {
    if (f.default === undefined || (Object.hasOwn(out, f.name) && out[f.name] !== undefined)) continue;
    if (options.protocol === "2025-06-18" && typeof f.default !== "boolean") continue;
    define(out, f.name, Array.isArray(f.default) ? [...f.default] : f.default);
  }
  return out as FormContent;
}

// `out.__proto__ = v` would set the prototype; defineProperty makes it an own key like any other.
const define = (out: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
