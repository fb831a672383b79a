// The spec's form examples, as the project's own test data (test/data/spec-forms.json).
import { readFileSync } from "node:fs";
import type { ProtocolRevision } from "../../src/schema/types.js";

export interface SpecExample {
  /** Where the example is on the spec pages: `<revision>/<page>.mdx block <n>`, `(field)` when wrapped. */
  source: string;
  schema: unknown;
}

let forms: Record<ProtocolRevision, SpecExample[]> | undefined;

/**
 * Every form schema example on a revision's spec pages: each `requestedSchema` in a code block,
 * and each primitive field schema block, wrapped in a one-field form (field name `field`).
 */
export function specSchemaExamples(revision: ProtocolRevision): SpecExample[] {
  forms ??= (
    JSON.parse(readFileSync(new URL("../data/spec-forms.json", import.meta.url), "utf8")) as {
      revisions: Record<ProtocolRevision, SpecExample[]>;
    }
  ).revisions;
  const examples = forms[revision];
  if (!examples) throw new Error(`test/data/spec-forms.json has no examples for ${revision}`);
  return structuredClone(examples);
}
