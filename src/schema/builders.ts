// Builders for form schemas whose answer type TypeScript infers:
//   const f = form({ seat: choice({ window: "Window", aisle: "Aisle" }), insurance: yesNo({ default: false }) });
//   type Answer = Infer<typeof f>; // { seat: "window" | "aisle"; insurance: boolean }
// `form()` returns the plain wire schema; the answer type rides along as a type-only brand.
import { setOwn } from "./own.js";
import type {
  BooleanSchema,
  MultiSelectEnumSchema,
  NumberSchema,
  PrimitiveSchema,
  RequestedSchema,
  SingleSelectEnumSchema,
  StringFormat,
  StringSchema,
} from "./types.js";

declare const answerType: unique symbol;

/** One field under construction: its wire schema, whether it is required, and its value type. */
export interface FieldBuilder<T, Required extends boolean = true> {
  readonly schema: PrimitiveSchema;
  readonly isRequired: Required;
  /** The same field, not required: the answer may leave it out. */
  optional(): FieldBuilder<T, false>;
  readonly [answerType]?: T;
}

/** A wire `requestedSchema` that remembers the TypeScript type of its answer. */
export type Form<T> = RequestedSchema & { readonly [answerType]?: T };

/** The answer type a form built with `form()` carries (never for anything else); `Infer` is the public name. */
export type BrandOf<F> = F extends { readonly [answerType]?: infer T } ? Exclude<T, undefined> : never;

type Shape = Record<string, FieldBuilder<unknown, boolean>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type ValueOf<B> = B extends FieldBuilder<infer T, boolean> ? T : never;
type RequiredKeys<S extends Shape> = { [K in keyof S]: S[K] extends FieldBuilder<unknown, true> ? K : never }[keyof S];
type OptionalKeys<S extends Shape> = Exclude<keyof S, RequiredKeys<S>>;
export type ShapeAnswer<S extends Shape> = Simplify<{ [K in RequiredKeys<S>]: ValueOf<S[K]> } & { [K in OptionalKeys<S>]?: ValueOf<S[K]> }>;

function field<T>(schema: PrimitiveSchema): FieldBuilder<T, true> {
  const make = <R extends boolean>(isRequired: R): FieldBuilder<T, R> => ({
    schema,
    isRequired,
    optional: () => make(false),
  });
  return make(true);
}

/** Drops keys whose value is undefined so the wire schema stays minimal. */
function compact<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

/** What every field builder takes: the title and description shown to the person, and a default. */
export interface BaseFieldOptions<D> {
  title?: string;
  description?: string;
  default?: D;
}

export interface TextOptions extends BaseFieldOptions<string> {
  format?: StringFormat;
  minLength?: number;
  maxLength?: number;
}

/** Free text; `format` asks for an email, absolute URI, date (YYYY-MM-DD) or date-time (RFC 3339). */
export function text(options: TextOptions = {}): FieldBuilder<string> {
  return field(compact<StringSchema>({ type: "string", ...options }));
}

export interface NumberOptions extends BaseFieldOptions<number> {
  minimum?: number;
  maximum?: number;
}

export function number(options: NumberOptions = {}): FieldBuilder<number> {
  return field(compact<NumberSchema>({ type: "number", ...options }));
}

export function integer(options: NumberOptions = {}): FieldBuilder<number> {
  return field(compact<NumberSchema>({ type: "integer", ...options }));
}

export function yesNo(options: BaseFieldOptions<boolean> = {}): FieldBuilder<boolean> {
  return field(compact<BooleanSchema>({ type: "boolean", ...options }));
}

/** Options as a plain list of values, or as `{ value: "Label" }`. */
export type ChoiceOptions = readonly string[] | Readonly<Record<string, string>>;
type ChoiceValue<O> = O extends readonly (infer V)[] ? V : keyof O & string;

/** `{ value: "Label" }` options as `{ const, title }` entries; undefined for a plain list. */
function optionsToTitled(options: ChoiceOptions): { const: string; title: string }[] | undefined {
  if (Array.isArray(options)) return undefined;
  return Object.entries(options as Record<string, string>).map(([value, title]) => ({ const: value, title }));
}

/** One of several options. A plain list goes out as `enum`; titled options as `oneOf` of `{ const, title }`. */
export function choice<const O extends ChoiceOptions>(
  options: O,
  extra: BaseFieldOptions<NoInfer<ChoiceValue<O>>> = {},
): FieldBuilder<ChoiceValue<O>> {
  const titled = optionsToTitled(options);
  const schema = titled
    ? { type: "string" as const, oneOf: titled, ...extra }
    : { type: "string" as const, enum: [...(options as readonly string[])], ...extra };
  return field(compact<SingleSelectEnumSchema>(schema));
}

export interface MultiChoiceOptions<V> extends BaseFieldOptions<V[]> {
  minItems?: number;
  maxItems?: number;
}

/** Any number of options (bounded by minItems/maxItems): `type: "array"` of enum items. */
export function multiChoice<const O extends ChoiceOptions>(
  options: O,
  extra: MultiChoiceOptions<NoInfer<ChoiceValue<O>>> = {},
): FieldBuilder<ChoiceValue<O>[]> {
  const titled = optionsToTitled(options);
  const items = titled ? { anyOf: titled } : { type: "string" as const, enum: [...(options as readonly string[])] };
  return field(compact({ type: "array", items, ...extra } as MultiSelectEnumSchema));
}

/**
 * The wire schema of a form; `Infer<typeof f>` is the type of its accepted answer.
 *
 * @example
 * ```ts region=examples/schema-basics.ts#form
 * const booking = form({
 *   confirmBooking: yesNo({ description: "Confirm the booking (Flights + Hotel = $3,000)" }),
 *   seatPreference: choice({ window: "Window", aisle: "Aisle", "no preference": "No preference" }).optional(),
 *   email: text({ title: "Email", format: "email" }),
 * });
 * type Booking = Infer<typeof booking>; // { confirmBooking: boolean; email: string; seatPreference?: "window" | "aisle" | "no preference" }
 * ```
 */
export function form<S extends Shape>(shape: S): Form<ShapeAnswer<S>> {
  const properties: Record<string, PrimitiveSchema> = {};
  const required: string[] = [];
  for (const [name, builder] of Object.entries(shape)) {
    setOwn(properties, name, builder.schema);
    if (builder.isRequired) required.push(name);
  }
  return required.length ? { type: "object", properties, required } : { type: "object", properties };
}
