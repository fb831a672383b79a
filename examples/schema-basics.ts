// Build a form, check it for a protocol revision, validate an answer. Run: npx tsx examples/schema-basics.ts
import { checkSchema, choice, compileValidator, form, validateContent, yesNo, text, type Infer } from "mcp-elicit/schema";

//#region form
const booking = form({
  confirmBooking: yesNo({ description: "Confirm the booking (Flights + Hotel = $3,000)" }),
  seatPreference: choice({ window: "Window", aisle: "Aisle", "no preference": "No preference" }).optional(),
  email: text({ title: "Email", format: "email" }),
});
type Booking = Infer<typeof booking>; // { confirmBooking: boolean; email: string; seatPreference?: "window" | "aisle" | "no preference" }
//#endregion form

//#region checkSchema
// Titled options need 2025-11-25 or later; on 2025-06-18 they are an error.
console.log(checkSchema(booking, { protocol: "2025-06-18" }).map((i) => `${i.path} ${i.code}`));
// -> [ '/properties/seatPreference/oneOf revision-titled-enum' ]
//#endregion checkSchema

//#region validateContent
const answer = validateContent(booking, { confirmBooking: true, email: "not-an-email" });
if (!answer.ok) console.log(answer.errors.map((e) => e.message));
// -> [ 'Email must be an email address, like name@example.com' ]
//#endregion validateContent

const good = validateContent(booking, { confirmBooking: true, email: "ana@example.com", extra: "dropped" });
if (good.ok) {
  const value: Booking = good.value;
  console.log(value); // -> { confirmBooking: true, email: 'ana@example.com' }
}

// A form checked again and again (each keystroke, each answer): compile it once and call the validator.
// validateContent does the same through a cache keyed by the schema object.
const checkBooking = compileValidator(booking);
console.log(checkBooking({ confirmBooking: false, email: "ana@example.com", seatPreference: "aisle" }).ok); // -> true
