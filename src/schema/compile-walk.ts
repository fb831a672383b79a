// The walk over a form's fields that a compiled validator runs per answer, in two builds with one result:
// - generated: one function per form, made with `new Function`, that reads each field with a constant key
//   (`data["email"]`). V8 then caches each read by the answer's shape, as it does for Ajv's generated code;
//   a loop reading `data[name]` with changing names cannot be cached so and is several times slower.
// - closures: the same walk as a loop, for where code cannot be generated (a browser page whose
//   Content-Security-Policy has no 'unsafe-eval', Node with --disallow-code-generation-from-strings).
// The only schema text that enters generated code is field names, each written as JSON.stringify(name):
// a string literal, never an identifier. Everything else (checks, messages) is passed in as values.
import type { FieldCheck, Problem } from "./compile-field.js";
import { setOwn } from "./own.js";
import type { FormContent } from "./types.js";
import type { FieldError, ValidationResult } from "./validation-result.js";

export interface CompiledField {
  name: string;
  required: boolean;
  missing: Problem;
  check: FieldCheck;
  /**
   * A test that accepts only values `check` accepts, cheap enough to write into generated code: the
   * type alone, the option values, a number in its bounds, or a string in its format. When it fails,
   * `check` decides (and words the problem).
   */
  accepts?: FastAccept;
  /** What generated code calls instead of `check` once `accepts` refused a value, where that knows more. */
  rejected?: FieldCheck;
}

export type FastAccept =
  | { type: "boolean" | "string" }
  | { options: string[] }
  | { number: "number" | "integer"; min: number; max: number }
  | { format: (value: string) => boolean }
  /** A format that is one RegExp: its test is written inline, as Ajv writes it (no wrapper call). */
  | { regex: RegExp };

export type Walk = (content: unknown) => ValidationResult<FormContent>;

const NOT_AN_OBJECT = "The answer must be an object with one entry per field.";
const notAnObject = (): ValidationResult<FormContent> => ({ ok: false, errors: [{ field: "", rule: "object", message: NOT_AN_OBJECT }] });
const hasOwn = Object.hasOwn;
const isArray = Array.isArray;
const getPrototypeOf = Object.getPrototypeOf;
const ObjectPrototype = Object.prototype;
// Generated only under Node: in a browser, a `new Function` that the page's policy refuses is also
// reported as a Content-Security-Policy violation, so it is not even tried there.
const IN_NODE = typeof (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node === "string";

/** The loop form: own keys only, so an inherited "constructor" or a polluted prototype is not an answer. */
export function closureWalk(fields: CompiledField[]): Walk {
  const count = fields.length;
  return (content) => {
    if (typeof content !== "object" || content === null || isArray(content)) return notAnObject();
    const input = content as Record<string, unknown>;
    const value: Record<string, unknown> = {};
    let errors: FieldError[] | undefined;
    for (let i = 0; i < count; i++) {
      const f = fields[i]!;
      const v = hasOwn(input, f.name) ? input[f.name] : undefined;
      if (v === undefined) {
        if (f.required) (errors ??= []).push({ field: f.name, rule: "required", message: f.missing.message });
        continue;
      }
      const problem = f.check(v);
      if (problem !== undefined) (errors ??= []).push({ field: f.name, rule: problem.rule, message: problem.message });
      else if (errors === undefined) setOwn(value, f.name, v);
    }
    return errors === undefined ? { ok: true, value: value as FormContent } : { ok: false, errors };
  };
}

/** The cheap test as code: literals only through JSON.stringify. */
function fastTest(accepts: FastAccept, i: number): string {
  if ("type" in accepts) return `typeof v === ${JSON.stringify(accepts.type)}`;
  if ("options" in accepts) return accepts.options.map((o) => `v === ${JSON.stringify(o)}`).join(" || ");
  // Bounds and the format test are values passed in (min0, format0 ...), never written into the code.
  // `v - v === 0` is true for finite numbers only (Infinity - Infinity and NaN - NaN are NaN).
  if ("number" in accepts)
    return `${accepts.number === "integer" ? "isInteger(v)" : 'typeof v === "number" && v - v === 0'} && v >= min${i} && v <= max${i}`;
  if ("regex" in accepts) return `typeof v === "string" && regex${i}.test(v)`;
  return `typeof v === "string" && format${i}(v)`;
}

/** The values one field's generated test reads. */
function fastValues(accepts: FastAccept | undefined, i: number): string {
  if (accepts && "number" in accepts) return ` const min${i} = F[${i}].accepts.min, max${i} = F[${i}].accepts.max;`;
  if (accepts && "format" in accepts) return ` const format${i} = F[${i}].accepts.format;`;
  if (accepts && "regex" in accepts) return ` const regex${i} = F[${i}].accepts.regex;`;
  return "";
}

// Whether the answer's prototype is Object.prototype, asked once per call after the first field is read.
// Named through the global `Object` (checked to be the real one), the call is one V8 knows: with the
// answer's shape known from that read it folds to a constant. Passed in as a value, it was a call into
// the runtime on every answer (about 120 instructions of the booking form's 500).
const PLAIN = "plain = Object.getPrototypeOf === getPrototypeOf && Object.getPrototypeOf(data) === P;";

// Up to this many optional fields, the value is one object literal per combination of those present (16).
const SHAPES_UP_TO = 4;

/**
 * The code that builds `value` from the checked locals v0, v1 ..., keys in schema order, and returns it in
 * its result. With few optional fields, a tree of `=== undefined` tests on them picks the one literal with
 * exactly the keys present: the object is made at its final shape, in the same statement as its result
 * (V8 then folds the two allocations into one). A tree rather than a switch on a bit mask: the tests are
 * the branches, with no mask to compute first (4 fewer instructions per valid booking answer under
 * callgrind). Otherwise (or with a field named "__proto__", stored by setOwn) the leading required fields
 * are one literal and the rest are stored in turn.
 */
function buildValue(fields: CompiledField[]): string {
  const entry = (i: number) => `${JSON.stringify(fields[i]!.name)}: v${i}`;
  const all = fields.map((_, i) => i);
  const optional = all.filter((i) => !fields[i]!.required);
  if (optional.length <= SHAPES_UP_TO && !fields.some((f) => f.name === "__proto__")) {
    const tree = (depth: number, present: Set<number>, indent: string): string => {
      if (depth === optional.length) {
        const keys = all.filter((i) => fields[i]!.required || present.has(i));
        return `${indent}return { ok: true, value: { ${keys.map(entry).join(", ")} } };`;
      }
      const i = optional[depth]!;
      return [
        `${indent}if (v${i} === undefined) {`,
        tree(depth + 1, present, indent + "  "),
        `${indent}} else {`,
        tree(depth + 1, new Set([...present, i]), indent + "  "),
        `${indent}}`,
      ].join("\n");
    };
    return tree(0, new Set(), "");
  }
  let lead = 0;
  while (lead < fields.length && fields[lead]!.required && fields[lead]!.name !== "__proto__") lead++;
  const stores = all.slice(lead).map((i) => {
    const f = fields[i]!;
    const K = JSON.stringify(f.name);
    const store = f.name === "__proto__" ? `setOwn(value, ${K}, v${i});` : `value[${K}] = v${i};`;
    return f.required ? store : `if (v${i} !== undefined) ${store}`;
  });
  return [`const value = { ${all.slice(0, lead).map(entry).join(", ")} };`, ...stores, "return { ok: true, value };"].join("\n");
}

/**
 * The generated form, or undefined where code cannot be generated. Whether a value is the answer's own:
 * an object whose prototype is Object.prototype can only inherit what Object.prototype holds, so for a
 * name Object.prototype does not have (checked per call: `K in P`, accessors and later additions
 * included) a value read is the object's own; otherwise Object.hasOwn decides, as in the loop form.
 */
export function generatedWalk(fields: CompiledField[]): Walk | undefined {
  if (!IN_NODE) return undefined;
  const lines: string[] = [];
  const fail = (error: string) => `if (errors === undefined) errors = [${error}]; else errors.push(${error});`;
  fields.forEach((f, i) => {
    const K = JSON.stringify(f.name);
    const checked = `if ((p = check${i}(v)) !== undefined) { ${fail(`{ field: ${K}, rule: p.rule, message: p.message }`)} } else v${i} = v;`;
    lines.push(`v = data[${K}];`);
    if (i === 0) lines.push(PLAIN);
    lines.push(
      `if (v !== undefined && ((plain && !(${K} in P)) || hasOwn(data, ${K}))) {`,
      `  ${f.accepts ? `if (${fastTest(f.accepts, i)}) v${i} = v; else ${checked}` : checked}`,
      f.required ? `} else { ${fail(`{ field: ${K}, rule: "required", message: missing${i} }`)} }` : "}",
    );
  });
  const setup = fields
    .map((f, i) => `const check${i} = F[${i}].rejected ?? F[${i}].check, missing${i} = F[${i}].missing.message;${fastValues(f.accepts, i)}`)
    .join("\n");
  const body = `"use strict";
${setup}
return function validate(data) {
  if (typeof data !== "object" || data === null || isArray(data)) return notAnObject();
  let errors, v, p, plain${fields.map((_, i) => `, v${i}`).join("")};
${lines.join("\n")}
  if (errors !== undefined) return { ok: false, errors };
${buildValue(fields)}
};`;
  try {
    const factory = new Function("F", "hasOwn", "isArray", "isInteger", "getPrototypeOf", "P", "setOwn", "notAnObject", body);
    return factory(fields, hasOwn, isArray, Number.isInteger, getPrototypeOf, ObjectPrototype, setOwn, notAnObject) as Walk;
  } catch {
    return undefined; // code generation refused (EvalError): the loop form serves
  }
}
