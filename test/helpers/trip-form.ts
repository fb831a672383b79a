// The form the browser tests fill in: every field kind, with titles, descriptions, formats, defaults and limits.
export const TRIP = {
  type: "object",
  properties: {
    name: { type: "string", title: "Full name", description: "As on your passport", minLength: 2 },
    email: { type: "string", title: "Email", format: "email" },
    website: { type: "string", title: "Website", format: "uri" },
    departDate: { type: "string", title: "Depart date", format: "date" },
    arrival: { type: "string", title: "Arrival time", format: "date-time" },
    travellers: { type: "integer", title: "Travellers", minimum: 1, maximum: 9, default: 2 },
    budget: { type: "number", title: "Budget", minimum: 0 },
    insurance: { type: "boolean", title: "Travel insurance" },
    newsletter: { type: "boolean", title: "Newsletter", default: false },
    seat: { type: "string", title: "Seat", enum: ["window", "aisle"] },
    cabin: {
      type: "string",
      title: "Cabin",
      oneOf: [
        { const: "eco", title: "Economy" },
        { const: "biz", title: "Business" },
      ],
      default: "eco",
    },
    meals: { type: "array", title: "Meals", minItems: 1, maxItems: 2, items: { type: "string", enum: ["veg", "fish", "meat"] } },
    extras: {
      type: "array",
      title: "Extras",
      items: {
        anyOf: [
          { const: "bag", title: "Extra bag" },
          { const: "lounge", title: "Lounge access" },
        ],
      },
    },
  },
  required: ["name", "email", "departDate", "travellers", "insurance", "seat", "meals"],
};

export const SERVER = { name: "travel", version: "1.0.0" };
