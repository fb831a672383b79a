// Type tests: compiled by `npm run typecheck` (part of `npm test`). A wrong inference fails the build.
import * as z from "zod";
import { choice, form, fromZod, integer, multiChoice, number, text, validateContent, yesNo, type Infer } from "../../src/schema/index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

const booking = form({
  confirmBooking: yesNo({ description: "Confirm the booking" }),
  seat: choice(["window", "aisle", "no preference"]).optional(),
  room: choice({ sea: "Sea view", city: "City view" }, { default: "sea" }),
  meals: multiChoice({ veg: "Vegetarian", halal: "Halal" }, { maxItems: 2 }).optional(),
  nights: integer({ minimum: 1 }),
  budget: number().optional(),
  email: text({ format: "email" }),
});

export type BookingChecks = [
  Expect<
    Equal<
      Infer<typeof booking>,
      {
        confirmBooking: boolean;
        room: "sea" | "city";
        nights: number;
        email: string;
        seat?: "window" | "aisle" | "no preference";
        meals?: ("veg" | "halal")[];
        budget?: number;
      }
    >
  >,
];

// validateContent carries the inferred type into `value`.
const result = validateContent(booking, {});
if (result.ok) {
  const room: "sea" | "city" = result.value.room;
  // @ts-expect-error seat may be absent
  const seat: string = result.value.seat;
  void room;
  void seat;
}

// A default must be one of the options.
// @ts-expect-error "mountain" is not an option
choice({ sea: "Sea view" }, { default: "mountain" });
// @ts-expect-error defaults of a multi-choice are arrays of its values
multiChoice(["a", "b"], { default: ["c"] });
// @ts-expect-error text defaults are strings
text({ default: 3 });

// zod: the answer type is the schema's output type.
const contact = fromZod(z.object({ name: z.string(), age: z.number().optional(), plan: z.enum(["free", "pro"]) }));
export type ZodChecks = [Expect<Equal<Infer<typeof contact>, { name: string; age?: number | undefined; plan: "free" | "pro" }>>];
const zodResult = validateContent(z.object({ n: z.int() }), { n: 1 });
if (zodResult.ok) {
  const n: number = zodResult.value.n;
  void n;
}

// One name for every way of writing a form: a zod object as it is, and a raw schema (plain content).
const zodForm = z.object({ city: z.string(), nights: z.int().optional() });
const raw = { type: "object", properties: { city: { type: "string" } } } as const;
export type OneName = [
  Expect<Equal<Infer<typeof zodForm>, { city: string; nights?: number | undefined }>>,
  Expect<Equal<Infer<typeof raw>, import("../../src/schema/index.js").FormContent>>,
];
