// A zod object schema as a form: one answer type name, Infer, for zod, builders and raw schemas. Run: npx tsx examples/schema-zod.ts
import * as z from "zod";
import { checkSchema, fromZod, InvalidSchemaError, validateContent, type Infer } from "mcp-elicit/schema";

const contact = z.object({
  fullName: z.string().min(2).describe("As it appears on your passport"),
  email: z.email(),
  seat: z.enum(["window", "aisle"]).optional(),
  bags: z.number().int().min(0).max(3).default(1),
});
type Contact = Infer<typeof contact>; // z.output: { fullName: string; email: string; seat?: "window" | "aisle"; bags: number }

//#region fromZod
// fromZod gives the requestedSchema that goes on the wire (ctx.elicit and validateContent take the zod schema itself).
const schema = fromZod(contact);
console.log(JSON.stringify(schema.properties.email)); // -> {"type":"string","format":"email"}
console.log(checkSchema(schema, { protocol: "2025-06-18" }).map((i) => i.code)); // -> [ 'revision-default' ]
//#endregion fromZod

const answer = validateContent(contact, { fullName: "Ana Garcia", email: "ana@example.com", bags: 2 });
if (answer.ok) {
  const value: Contact = answer.value;
  console.log(value); // -> { fullName: 'Ana Garcia', email: 'ana@example.com', bags: 2 }
}

// What a flat form cannot express is refused, naming the field and the rule it breaks.
try {
  fromZod(z.object({ address: z.object({ city: z.string() }) }));
} catch (error) {
  if (error instanceof InvalidSchemaError) console.log(error.code, error.issues[0]?.path);
  // -> nested-object /properties/address
}
