// Why a page cannot go on, in words for the person: rendered as a page (GET and form POSTs) or as JSON
// (the hosted form's fetch). Statuses follow the reason: 404 unknown, 410 used or expired, 403 not yours.
import type { Html } from "./views.js";

export interface Problem {
  status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 500 | 502;
  title: string;
  /** Sentences for the person. */
  text: string[];
  /** Extra content (a sign-out button) on the page form only. */
  extra?: Html | string;
  /** Origins the page's forms may lead to (the sign-out button ends at the authorization server). */
  formTargets?: string[];
  /** The flow the problem concerns, to name who asked. */
  asker?: { server: string; client: string };
}

export const isProblem = (value: unknown): value is Problem =>
  typeof value === "object" && value !== null && "status" in value && "title" in value;
