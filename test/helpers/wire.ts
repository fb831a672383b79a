// Wire checks. Every message is validated by an oracle installed from npm: the official SDK's
// runtime schemas (`specTypeSchemas` of @modelcontextprotocol/client, the revision-neutral model),
// plus small zod schemas written from the spec for what the SDK does not export
// (InputRequiredResult, URLElicitationRequiredError) and a few rules where a revision is stricter
// than the neutral model. When MCP_SPEC_DIR points at a folder with <revision>/schema.json (the
// official files; CI sets it), each message is also validated against that revision's schema.json
// with Ajv.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { specTypeSchemas, type SpecTypeName } from "@modelcontextprotocol/client";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import * as z from "zod";
import type { ProtocolRevision } from "../../src/schema/types.js";

/** One reason a message is not valid: which check said so, where, and why. */
export interface WireIssue {
  check: "sdk" | "spec-rule" | "schema.json";
  path: string;
  message: string;
}

/** A check of one definition on one revision: `validate(message)` is true or sets `validate.errors`. */
export interface WireValidator {
  (message: unknown): boolean;
  errors: WireIssue[] | null;
}

type Check = (value: unknown) => WireIssue[];

const pathOf = (path: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined, prefix = "") =>
  prefix + (path ?? []).map((p) => `/${String(typeof p === "object" ? p.key : p)}`).join("");

/** A check by one of the SDK's spec type schemas (StandardSchema, synchronous). */
function sdk(name: SpecTypeName, prefix = ""): Check {
  const schema = specTypeSchemas[name];
  return (value) => {
    const result = schema["~standard"].validate(value);
    return (result.issues ?? []).map((i) => ({ check: "sdk", path: pathOf(i.path, prefix), message: i.message }));
  };
}

/** A check by a zod schema written here from the spec. */
function local(schema: z.ZodType, prefix = ""): Check {
  return (value) => {
    const result = schema.safeParse(value);
    return result.success ? [] : result.error.issues.map((i) => ({ check: "spec-rule", path: pathOf(i.path, prefix), message: i.message }));
  };
}

const all =
  (...checks: Check[]): Check =>
  (value) =>
    checks.flatMap((c) => c(value));
const rule = (path: string, message: string): WireIssue[] => [{ check: "spec-rule", path, message }];
const isObject = (v: unknown): v is Record<string, any> => typeof v === "object" && v !== null && !Array.isArray(v);

// Where a revision is stricter than (or differs from) the SDK's neutral model.

/** 2025-06-18 has no URL mode and no multi-select: a form field is never an array. */
const formOnly2025_06: Check = (params) => {
  if (!isObject(params)) return [];
  if ("mode" in params && params.mode !== "form") return rule("/mode", "2025-06-18 has form mode only");
  const properties =
    isObject(params.requestedSchema) && isObject(params.requestedSchema.properties) ? params.requestedSchema.properties : {};
  return Object.entries(properties).flatMap(([name, field]) =>
    isObject(field) && field.type === "array"
      ? rule(`/requestedSchema/properties/${name}/type`, "2025-06-18 has no multi-select (array) fields")
      : [],
  );
};

/** 2025-06-18 answers are strings, numbers and booleans only. */
const scalarAnswers2025_06: Check = (result) => {
  if (!isObject(result) || !isObject(result.content)) return [];
  return Object.entries(result.content).flatMap(([name, value]) =>
    Array.isArray(value) ? rule(`/content/${name}`, "2025-06-18 answers are strings, numbers or booleans, never arrays") : [],
  );
};

/** 2026-07-28 dropped elicitationId from URL mode; the SDK's neutral model still requires it, so a placeholder stands in. */
function withoutElicitationId(name: "ElicitRequestParams" | "ElicitRequestURLParams"): Check {
  const check = sdk(name);
  return (params) =>
    check(isObject(params) && params.mode === "url" && !("elicitationId" in params) ? { ...params, elicitationId: "-" } : params);
}

/** A check of a request's params, reported at /params. */
function atParams(check: Check): Check {
  return (message) => (isObject(message) ? check(message.params).map((i) => ({ ...i, path: `/params${i.path}` })) : []);
}

/** 2025-11-25 defines requests and notifications with their JSON-RPC envelope (jsonrpc "2.0", and an id for requests). */
const jsonRpcRequest = sdk("JSONRPCRequest");
const jsonRpcNotification = sdk("JSONRPCNotification");

const elicitRequest: Record<ProtocolRevision, Check> = {
  "2025-06-18": all(sdk("ElicitRequest"), atParams(formOnly2025_06)),
  "2025-11-25": all(sdk("ElicitRequest"), jsonRpcRequest),
  "2026-07-28": all(
    local(z.looseObject({ method: z.literal("elicitation/create") })),
    atParams(withoutElicitationId("ElicitRequestParams")),
  ),
};
const createMessageRequest: Record<ProtocolRevision, Check> = {
  "2025-06-18": sdk("CreateMessageRequest"),
  "2025-11-25": all(sdk("CreateMessageRequest"), jsonRpcRequest),
  "2026-07-28": sdk("CreateMessageRequest"),
};
const listRootsRequest: Record<ProtocolRevision, Check> = {
  "2025-06-18": sdk("ListRootsRequest"),
  "2025-11-25": all(sdk("ListRootsRequest"), jsonRpcRequest),
  "2026-07-28": sdk("ListRootsRequest"),
};

/** A sampling result: single content, or (2025-11-25 on, with tools) an array of blocks. */
const createMessageResult: Check = (value) => {
  const single = sdk("CreateMessageResult")(value);
  if (single.length === 0 || !isObject(value) || !Array.isArray(value.content)) return single;
  return sdk("CreateMessageResultWithTools")(value);
};

/**
 * Root URIs: the spec's prose says they start with file:// "for now" and the SDK holds to that, but
 * schema.json asks only for a URI, and test/servers/travel.test.ts sends an https: root on purpose
 * (the server must refuse it clearly) with every close checking the wire. So, like schema.json,
 * any absolute URI passes here; everything else about the result is the SDK's check.
 */
const listRootsResult: Check = (value) =>
  sdk("ListRootsResult")(value).filter((issue) => {
    const index = /^\/roots\/(\d+)\/uri$/.exec(issue.path)?.[1];
    const uri = index !== undefined && isObject(value) && Array.isArray(value.roots) ? value.roots[Number(index)]?.uri : undefined;
    return !(typeof uri === "string" && URL.canParse(uri));
  });

/** 2026-07-28 InputRequiredResult (not in the SDK's public schemas): embedded requests are checked by the oracle. */
const embeddedRequests: Record<string, Check> = {
  "elicitation/create": elicitRequest["2026-07-28"],
  "sampling/createMessage": createMessageRequest["2026-07-28"],
  "roots/list": listRootsRequest["2026-07-28"],
};
const inputRequiredEnvelope = z
  .looseObject({
    _meta: z.record(z.string(), z.unknown()).optional(),
    resultType: z.literal("input_required"),
    inputRequests: z
      .record(z.string(), z.looseObject({ method: z.enum(Object.keys(embeddedRequests) as [string, ...string[]]) }))
      .optional(),
    requestState: z.string().optional(),
  })
  .refine((r) => r.inputRequests !== undefined || r.requestState !== undefined, {
    message: "at least one of inputRequests or requestState must be present",
  });
const inputRequiredResult: Check = (value) => {
  const issues = local(inputRequiredEnvelope)(value);
  if (issues.length > 0) return issues;
  const requests = (value as { inputRequests?: Record<string, { method: string }> }).inputRequests ?? {};
  return Object.entries(requests).flatMap(([key, request]) =>
    embeddedRequests[request.method]!(request).map((i) => ({ ...i, path: `/inputRequests/${key}${i.path}` })),
  );
};

/** 2025-11-25 `-32042` error response (not in the SDK's public schemas): each elicitation is checked by the oracle. */
const urlElicitationRequiredEnvelope = z.object({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string(), z.number().int()]).optional(),
  error: z.looseObject({
    code: z.literal(-32042),
    message: z.string(),
    data: z.looseObject({ elicitations: z.array(z.unknown()) }),
  }),
});
const urlElicitationRequiredError: Check = (value) => {
  const issues = local(urlElicitationRequiredEnvelope)(value);
  if (issues.length > 0) return issues;
  return (value as { error: { data: { elicitations: unknown[] } } }).error.data.elicitations.flatMap((e, i) =>
    sdk("ElicitRequestURLParams", `/error/data/elicitations/${i}`)(e),
  );
};

/** The oracle: each definition on the revisions that define it. */
const ORACLE: Record<string, Partial<Record<ProtocolRevision, Check>>> = {
  ElicitRequest: elicitRequest,
  ElicitRequestParams: { "2025-11-25": sdk("ElicitRequestParams"), "2026-07-28": withoutElicitationId("ElicitRequestParams") },
  ElicitRequestFormParams: { "2025-11-25": sdk("ElicitRequestFormParams"), "2026-07-28": sdk("ElicitRequestFormParams") },
  ElicitRequestURLParams: { "2025-11-25": sdk("ElicitRequestURLParams"), "2026-07-28": withoutElicitationId("ElicitRequestURLParams") },
  ElicitResult: {
    "2025-06-18": all(sdk("ElicitResult"), scalarAnswers2025_06),
    "2025-11-25": sdk("ElicitResult"),
    "2026-07-28": sdk("ElicitResult"),
  },
  ElicitationCompleteNotification: { "2025-11-25": all(sdk("ElicitationCompleteNotification"), jsonRpcNotification) },
  URLElicitationRequiredError: { "2025-11-25": urlElicitationRequiredError },
  CreateMessageRequest: createMessageRequest,
  CreateMessageResult: { "2025-06-18": sdk("CreateMessageResult"), "2025-11-25": createMessageResult, "2026-07-28": createMessageResult },
  ListRootsRequest: listRootsRequest,
  ListRootsResult: { "2025-06-18": listRootsResult, "2025-11-25": listRootsResult, "2026-07-28": listRootsResult },
  InputRequiredResult: { "2026-07-28": inputRequiredResult },
};

/** The oracle's check of one definition (no schema.json involved); throws for a definition the revision does not have. */
export function oracleFor(revision: ProtocolRevision, definition: string): (message: unknown) => WireIssue[] {
  const check = ORACLE[definition]?.[revision];
  if (!check) {
    const where = Object.keys(ORACLE[definition] ?? {});
    throw new Error(
      where.length === 0
        ? `no wire check for ${definition} (known: ${Object.keys(ORACLE).join(", ")})`
        : `${definition} is not defined on ${revision} (only on ${where.join(", ")})`,
    );
  }
  return check;
}

// The extra check against the official schema.json files, when MCP_SPEC_DIR is set.

const ajvs = new Map<string, { ajv: Ajv; defs: string }>();
const compiled = new Map<string, ValidateFunction>();

/** The folder holding <revision>/schema.json, from MCP_SPEC_DIR (read on each call), or undefined. */
export function specDir(): string | undefined {
  const dir = process.env.MCP_SPEC_DIR;
  return dir ? resolve(dir) : undefined;
}

/** A validator for one definition of `<dir>/<revision>/schema.json`, e.g. "ElicitRequest". */
export function schemaJsonValidator(dir: string, revision: ProtocolRevision, definition: string): ValidateFunction {
  const file = join(dir, revision, "schema.json");
  const key = `${file}#${definition}`;
  let fn = compiled.get(key);
  if (fn) return fn;
  let loaded = ajvs.get(file);
  if (!loaded) {
    if (!existsSync(file)) throw new Error(`MCP_SPEC_DIR is set to ${dir}, but ${file} does not exist`);
    const schema = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const ajv = schema.$schema === "http://json-schema.org/draft-07/schema#" ? new Ajv({ strict: false }) : new Ajv2020({ strict: false });
    (addFormats as unknown as (a: Ajv) => void)(ajv);
    ajv.addSchema({ ...schema, $id: "mcp" });
    loaded = { ajv, defs: "definitions" in schema ? "definitions" : "$defs" };
    ajvs.set(file, loaded);
  }
  fn = loaded.ajv.compile({ $ref: `mcp#/${loaded.defs}/${definition}` });
  compiled.set(key, fn);
  return fn;
}

/**
 * A validator for one definition of a revision: the oracle, and when MCP_SPEC_DIR is set, the
 * revision's schema.json too. `validate.errors` lists every issue with the check that found it.
 */
export function validatorFor(revision: ProtocolRevision, definition: string): WireValidator {
  const oracle = oracleFor(revision, definition);
  const dir = specDir();
  const official = dir ? schemaJsonValidator(dir, revision, definition) : undefined;
  const validate = ((message: unknown) => {
    const issues = oracle(message);
    if (official && !official(message)) {
      for (const e of official.errors ?? [])
        issues.push({ check: "schema.json", path: e.instancePath, message: `${e.message} (${e.schemaPath})` });
    }
    validate.errors = issues.length > 0 ? issues : null;
    return issues.length === 0;
  }) as WireValidator;
  validate.errors = null;
  return validate;
}

/** Asserts a message is valid for a definition, with every issue in the failure message. */
export function assertWire(revision: ProtocolRevision, definition: string, message: unknown): void {
  const validate = validatorFor(revision, definition);
  if (!validate(message)) {
    throw new Error(`${definition} is not valid on ${revision}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(message)}`);
  }
}
