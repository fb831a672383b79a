// Reading a JSON object from a POST (the URL pages' hosted form and webUI's answers): the same checks and
// the same answers for what is not one, so every boundary that takes a browser's JSON refuses alike.
import type { Context } from "hono";

/** The request's media type, lower-case, without parameters ("" when absent). */
export const mediaType = (c: Context) => (c.req.header("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase();

/** The body as a JSON object, or the response that refuses it (415 not JSON by type, 400 not parseable or not an object). */
export async function jsonObjectBody(c: Context, shape: string): Promise<Record<string, unknown> | Response> {
  if (mediaType(c) !== "application/json") return c.json({ error: "Content-Type must be application/json." }, 415);
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    return c.json({ error: "The body is not JSON." }, 400);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return c.json({ error: `The body must be ${shape}.` }, 400);
  return body as Record<string, unknown>;
}
