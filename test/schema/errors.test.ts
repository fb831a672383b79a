// One error family: every error class an entry point exports is an ElicitError with a documented code, and
// each says what it becomes on the wire (a tool result, a JSON-RPC error) without a list of classes anywhere.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { ElicitError, InvalidSchemaError, SCHEMA_RULES, encodeForRevision, form, multiChoice } from "../../src/schema/index.js";
import { InputUnavailableError, StateError, StepBusyError } from "../../src/server/index.js";
import { describeFields } from "../../src/schema/compiled.js";

/** The library entry points package.json exports, as their sources (the CLI's runs the program when loaded). */
const entries = Object.values(JSON.parse(readFileSync("package.json", "utf8")).exports as Record<string, { types?: string }>)
  .flatMap((e) => (typeof e === "object" && e.types ? [e.types.replace(/^\.\/dist\//, "../../src/").replace(/\.d\.ts$/, ".js")] : []))
  .filter((source) => !source.includes("/cli/"));

test("every error class an entry point exports extends ElicitError", async () => {
  const classes: string[] = [];
  for (const entry of entries) {
    const module = (await import(entry)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (typeof value !== "function" || !(value.prototype instanceof Error) || value === ElicitError) continue;
      classes.push(name);
      assert.ok(value.prototype instanceof ElicitError, `${entry}: ${name} is an Error outside the ElicitError family`);
    }
  }
  // The check saw the errors of several layers, so it cannot pass by finding none.
  for (const name of ["InvalidSchemaError", "StateError", "InputTimeoutError", "ServerGoneError", "ProviderError", "StoreFileDamagedError"])
    assert.ok(classes.includes(name), `${name} not found among ${classes.join(", ")}`);
});

/** Every layer's list of the codes it throws: each `error-codes.ts` of src/ and its `*_ERROR_CODES` exports. */
async function codeLists(): Promise<Map<string, Record<string, string>>> {
  const lists = new Map<string, Record<string, string>>();
  for (const file of readdirSync("src", { recursive: true, encoding: "utf8" }).filter((f) => basename(f) === "error-codes.ts")) {
    const module = (await import(pathToFileURL(join(process.cwd(), "src", file)).href)) as Record<string, unknown>;
    for (const [name, list] of Object.entries(module))
      if (name.endsWith("_ERROR_CODES")) lists.set(`src/${file}: ${name}`, list as Record<string, string>);
  }
  return lists;
}

test("each layer's codes are its own, none is a schema rule, and docs/reference/errors.md lists each, and no other", async () => {
  const lists = await codeLists();
  const owner = new Map<string, string>();
  for (const [list, codes] of lists)
    for (const code of Object.keys(codes)) {
      assert.ok(!owner.has(code), `${code} is declared by ${owner.get(code)} and by ${list}`);
      assert.ok(!(code in SCHEMA_RULES), `${code} is both a schema rule and an error code (${list})`);
      owner.set(code, list);
    }
  // The lists of several layers were found, so the checks below cannot pass by finding none.
  for (const code of [
    "peer-missing",
    "store-file-damaged",
    "input-unavailable",
    "server-gone",
    "prompt-cancelled",
    "command-failed",
    "unsafe-write",
  ])
    assert.ok(owner.has(code), `${code} is in no layer's list: ${[...lists.keys()].join(", ")}`);
  // A code given to super() in src/ that is in no list fails the type-check (each list joins ErrorCode); the page
  // has a row for each listed code, and a row only for a listed code.
  const page = readFileSync("docs/reference/errors.md", "utf8");
  const rows = [...page.slice(page.indexOf("## Codes")).matchAll(/^\| `([a-z-]+)` \| `\w+` \|/gm)].map((m) => m[1]!);
  assert.deepEqual([...rows].sort(), [...owner.keys()].sort());
});

test("a tool error becomes its tool result: isError, the message, and its details as structuredContent", () => {
  const busy = new StepBusyError("charge");
  assert.equal(busy.code, "step-busy");
  assert.equal(busy.name, "StepBusyError");
  assert.deepEqual(busy.toResult(), { isError: true, content: [{ type: "text", text: busy.message }] });
  const unavailable = new InputUnavailableError(
    "Who travels?",
    describeFields(form({ seat: multiChoice(["a", "b"]) })),
    "form-mode elicitation",
  );
  assert.deepEqual(unavailable.toResult().structuredContent, {
    error: "input_unavailable",
    capability: "form-mode elicitation",
    request: "Who travels?",
    fields: [{ name: "seat", label: "Seat", kind: "multi-choice", required: true }],
  });
});

test("a refused request becomes its JSON-RPC error: StateError is -32602 with data.reason, others -32603", () => {
  const expired = new StateError("expired", "it expired.");
  assert.deepEqual(expired.toJsonRpc(), { code: -32602, message: "Invalid requestState: it expired.", data: { reason: "expired" } });
  assert.deepEqual(new StepBusyError("x").toJsonRpc(), { code: -32603, message: new StepBusyError("x").message });
});

test("the schema engine's refusals are one error with issues[]: code is the first error's", () => {
  let caught: unknown;
  try {
    encodeForRevision(form({ a: multiChoice(["x"]), b: multiChoice(["y"]) }), "2025-06-18");
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof InvalidSchemaError);
  assert.equal(caught.code, "revision-multi-select");
  assert.deepEqual(caught.issues[0]!.path, "/properties/a");
  assert.throws(
    () => describeFields({ type: "object", properties: { n: { type: "number", minimum: 5, maximum: 1 } }, required: ["x"] }),
    (e: unknown) =>
      e instanceof InvalidSchemaError &&
      e.code === e.issues[0]!.code &&
      e.issues.map((i) => i.code).join() === "bounds-inverted,required-unknown-field" &&
      e.message.split("\n").length === 3,
  );
});
