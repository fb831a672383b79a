// Reads the reference spec copies in ../shared/spec: schema examples from the pages, and schema.json.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import type { ProtocolRevision } from "../../src/schema/types.js";

export const SHARED = fileURLToPath(new URL("../../../shared/", import.meta.url));
export const SPEC_DIR = join(SHARED, "spec");

/** Parses the JSON of a spec code block: drops `//` comments and trailing commas, wraps `"key": {...}` fragments. */
export function parseJsonc(text: string): unknown {
  let body = text.replace(/(^|[\s,{[])\/\/.*$/gm, "$1").replace(/,(\s*[}\]])/g, "$1").trim();
  if (body.startsWith('"')) body = `{${body}}`;
  return JSON.parse(body);
}

function collectRequestedSchemas(node: unknown, out: unknown[]): void {
  if (Array.isArray(node)) node.forEach((n) => collectRequestedSchemas(n, out));
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "requestedSchema") out.push(value);
      else collectRequestedSchemas(value, out);
    }
  }
}

export interface SpecExample {
  source: string;
  schema: unknown;
}

/**
 * Every form schema example on a revision's spec pages: each `requestedSchema` in a code block,
 * and each primitive field schema block, wrapped in a one-field form.
 */
export function specSchemaExamples(revision: ProtocolRevision): SpecExample[] {
  const dir = join(SPEC_DIR, revision);
  const out: SpecExample[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".mdx"))) {
    const page = readFileSync(join(dir, file), "utf8");
    const blocks = [...page.matchAll(/```jsonc?\n([\s\S]*?)```/g)].map((m) => m[1]!);
    blocks.forEach((block, i) => {
      const source = `${revision}/${file} block ${i + 1}`;
      const doc = parseJsonc(block) as Record<string, unknown>;
      const found: unknown[] = [];
      collectRequestedSchemas(doc, found);
      found.forEach((schema) => out.push({ source, schema }));
      if (found.length === 0 && ["string", "number", "integer", "boolean", "array"].includes(doc.type as string)) {
        out.push({ source: `${source} (field)`, schema: { type: "object", properties: { field: doc } } });
      }
    });
  }
  return out;
}

export function loadSpecSchema(revision: ProtocolRevision): Record<string, unknown> {
  return JSON.parse(readFileSync(join(SPEC_DIR, revision, "schema.json"), "utf8"));
}
