// The one test for "a JSON object": not null, not an array. Shared by the schema checks and the server's
// sampling checks; in schema/, the lowest layer that needs it.

/** Whether `v` is an object that is neither null nor an array. */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
