// The field model every renderer uses, defaults, and a form as each revision writes it. Run: npx tsx examples/schema-fields.ts
import { applyDefaults, choice, describeFields, encodeForRevision, form, multiChoice, InvalidSchemaError, text, yesNo } from "mcp-elicit/schema";

const booking = form({
  seat: choice({ window: "Window", aisle: "Aisle" }, { default: "aisle" }),
  insurance: yesNo({ default: false, description: "Add travel insurance ($120)" }),
  apiKey: text().optional(),
});

for (const f of describeFields(booking)) console.log(f.name, f.kind, JSON.stringify(f.label), f.required, f.default, f.sensitive ?? "-");
// -> seat choice "Seat" true aisle -
// -> insurance boolean "Insurance" true false -
// -> apiKey text "Api key" false undefined api-key

console.log(applyDefaults(booking, { insurance: true })); // -> { insurance: true, seat: 'aisle' }

// 2025-06-18 writes titled options as enum + enumNames and keeps only boolean defaults.
console.log(JSON.stringify(encodeForRevision(booking, "2025-06-18").properties.seat));
// -> {"type":"string","enum":["window","aisle"],"enumNames":["Window","Aisle"]}
try {
  encodeForRevision(form({ meals: multiChoice(["veg", "fish"]) }), "2025-06-18");
} catch (error) {
  if (error instanceof InvalidSchemaError) console.log(error.code, error.issues[0]?.path);
  // -> revision-multi-select /properties/meals
}
