// What the webUI server and its page say to each other: the whole pending state, pushed over SSE
// (event "state") on every change and on every (re)connect, and answers POSTed back as JSON.
// Types only, so the page bundle and the Node server share them without sharing code.
import type { SamplingAnswerView, SamplingRequestView } from "../../../client/ui.js";

export interface PageServer {
  name: string;
  version?: string;
}

interface Base {
  /** Random per request; answers name it. */
  id: string;
  server: PageServer;
}

/** A form, from a server or the host's own (`own`: no "Form from SERVER" heading, no Decline). */
export interface FormCard extends Base {
  kind: "form";
  message: string;
  requestedSchema: object;
  own?: { title: string; submitLabel?: string };
}

/** Consent to open a URL. */
export interface UrlCard extends Base {
  kind: "url";
  message: string;
  url: string;
}

/** Waiting while the person finishes a URL flow out of band. */
export interface UrlWaitCard extends Base {
  kind: "url-wait";
  message: string;
  /** The host the person went to, as shown by the client. */
  host: string;
}

export interface SamplingRequestCard extends Base {
  kind: "sampling-request";
  request: SamplingRequestView;
}

/** `answer` absent: no model answered, the person types the answer. */
export interface SamplingAnswerCard extends Base {
  kind: "sampling-answer";
  request: SamplingRequestView;
  answer?: SamplingAnswerView;
}

export type Card = FormCard | UrlCard | UrlWaitCard | SamplingRequestCard | SamplingAnswerCard;

export interface PageNotice {
  id: number;
  server: string;
  message: string;
}

/** What the host is doing while nothing is asked (e.g. "Connecting to travel…"); `failed`: it could not. */
export interface PageStatus {
  text: string;
  failed?: boolean;
}

/** Everything the page shows: the queue in order (the first is the current one), the latest notices, the host's status. */
export interface PageState {
  requests: Card[];
  notices: PageNotice[];
  status?: PageStatus;
}

/** The body of POST answers. `answer` is the `detail` of the element's mcp-elicit-answer event. */
export interface AnswerBody {
  id: string;
  answer: unknown;
}

/** Where the page finds things, relative to its own address (the secret is part of the path). */
export const PAGE_PATHS = {
  events: "events",
  answers: "answers",
  elements: "elements.js",
  script: "page.js",
  styles: "page.css",
  icon: "icon.svg",
} as const;
