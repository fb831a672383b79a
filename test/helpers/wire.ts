// Validates wire messages against ../shared/spec/<revision>/schema.json with Ajv.
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ProtocolRevision } from "../../src/schema/types.js";
import { loadSpecSchema } from "./spec.js";

const instances = new Map<ProtocolRevision, Ajv>();
const compiled = new Map<string, ValidateFunction>();

function ajvFor(revision: ProtocolRevision): Ajv {
  let ajv = instances.get(revision);
  if (!ajv) {
    const schema = loadSpecSchema(revision);
    ajv = schema.$schema === "http://json-schema.org/draft-07/schema#" ? new Ajv({ strict: false }) : new Ajv2020({ strict: false });
    (addFormats as unknown as (a: Ajv) => void)(ajv);
    ajv.addSchema({ ...schema, $id: `mcp-${revision}` });
    instances.set(revision, ajv);
  }
  return ajv;
}

/** A validator for one definition of a revision's schema.json, e.g. "ElicitRequest". */
export function validatorFor(revision: ProtocolRevision, definition: string): ValidateFunction {
  const key = `${revision}#${definition}`;
  let fn = compiled.get(key);
  if (!fn) {
    const defs = revision === "2025-06-18" ? "definitions" : "$defs";
    fn = ajvFor(revision).compile({ $ref: `mcp-${revision}#/${defs}/${definition}` });
    compiled.set(key, fn);
  }
  return fn;
}

/** Asserts a message is valid for a definition, with Ajv's errors in the failure message. */
export function assertWire(revision: ProtocolRevision, definition: string, message: unknown): void {
  const validate = validatorFor(revision, definition);
  if (!validate(message)) {
    throw new Error(`${definition} is not valid on ${revision}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(message)}`);
  }
}
