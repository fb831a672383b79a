// The page webUI serves: follows the host's state over SSE, shows the first pending request with the
// matching custom element (loaded from elements.js), lists the others, and POSTs each answer back.
// All text from servers reaches the DOM through the elements (which make it inert) or textContent.
import type { Card, PageState } from "./protocol.js";
import { PAGE_PATHS } from "./protocol.js";

const $ = (id: string) => document.getElementById(id)!;
const connection = $("connection");
const current = $("current");
const queue = $("queue");
const queueSummary = $("queue-summary");
const queueList = $("queue-list");
const noticeList = $("notice-list");

/** The request on screen; it stays mounted (with what the person typed) while other parts of the state change. */
let mountedId: string | undefined;
let ended = false;

function text(tag: string, content: string, className?: string): HTMLElement {
  const node = document.createElement(tag);
  node.textContent = content;
  if (className) node.className = className;
  return node;
}

const who = (card: Card) => card.server.name || "a server";

/** "Request 1 of 3, from travel 1.0.0"; a form of the host's own is the host's, not the server's. */
function headline(card: Card, position: number, total: number): string {
  if (card.kind === "form" && card.own) return `Request ${position} of ${total}, from this host`;
  return `Request ${position} of ${total}, from ${who(card)}${card.server.version ? ` ${card.server.version}` : ""}`;
}

/** What a card is, in a few words, for the waiting list. */
function describe(card: Card): string {
  switch (card.kind) {
    case "form":
      return card.own ? card.own.title : `Form from ${who(card)}`;
    case "url":
      return `Link from ${who(card)}`;
    case "url-wait":
      return `Waiting for ${card.host} (${who(card)})`;
    case "sampling-request":
      return `Model request from ${who(card)}`;
    case "sampling-answer":
      return `Model answer for ${who(card)}`;
  }
}

/** The ASCII host of a wait's host line ("pаypal.com (xn--pypal-4ve.com)" reads as the part in brackets). */
const asciiHost = (host: string) => /\(([^()\s]+)\)$/.exec(host)?.[1] ?? host;

function elementFor(card: Card): HTMLElement {
  const server = card.server;
  switch (card.kind) {
    case "form": {
      const el = document.createElement("mcp-elicit-form");
      el.request = { message: card.message, requestedSchema: card.requestedSchema, server, ...(card.own ? { own: card.own } : {}) };
      return el;
    }
    case "url": {
      const el = document.createElement("mcp-elicit-url-consent");
      // The element opens the URL on consent; a later wait (when the call needs one) arrives as a card of its own.
      el.waitAfterOpen = false;
      el.request = { message: card.message, url: card.url, server };
      return el;
    }
    case "url-wait": {
      // The waiting phase shows the host of the request's URL; the client gives the wait its host only.
      const el = document.createElement("mcp-elicit-url-consent");
      el.request = { message: card.message, url: `https://${asciiHost(card.host)}/`, server };
      el.phase = "waiting";
      return el;
    }
    case "sampling-request":
    case "sampling-answer": {
      const el = document.createElement("mcp-elicit-sampling-review");
      el.request = { ...card.request, server };
      el.phase = card.kind === "sampling-request" ? "request" : "answer";
      el.answer = card.kind === "sampling-answer" ? card.answer : undefined;
      return el;
    }
  }
}

function mount(card: Card | undefined, position: number, total: number): void {
  mountedId = card?.id;
  current.replaceChildren();
  if (!card) return void current.append(...idle());
  current.append(text("p", headline(card, position, total), "who"));
  const el = elementFor(card);
  const error = text("p", "", "error");
  error.setAttribute("role", "alert");
  let sent = false;
  el.addEventListener("mcp-elicit-answer", (event) => {
    if (sent) return;
    sent = true;
    void post(card.id, (event as CustomEvent).detail).then((problem) => {
      // Refused or not delivered: the request, if still pending and on screen, is shown afresh with the reason.
      if (problem && mountedId === card.id) remount(card, problem);
    });
  });
  current.append(el, error);
}

/** What shows while nothing is asked: the host's status (connecting, calling a tool, a failure) or that nothing waits. */
function idle(): HTMLElement[] {
  const status = lastState?.status;
  const shown: HTMLElement[] = [];
  if (status?.failed) {
    const alert = text("p", status.text, "error");
    alert.setAttribute("role", "alert");
    shown.push(alert);
  }
  if (ended) shown.push(text("p", "This session has ended; you can close this tab.", "empty"));
  else if (status && !status.failed) shown.push(text("p", status.text, "empty busy"));
  else if (!status) shown.push(text("p", "Nothing to answer right now.", "empty"));
  return shown;
}

function remount(card: Card, problem: string): void {
  const total = lastState?.requests.length ?? 1;
  mount(card, 1, total);
  const error = current.querySelector(".error");
  if (error) error.textContent = problem;
}

/** Sends an answer; returns what went wrong, or undefined when the host took it. */
async function post(id: string, answer: unknown): Promise<string | undefined> {
  try {
    const response = await fetch(PAGE_PATHS.answers, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ id, answer }),
    });
    if (response.ok) return undefined;
    const body = (await response.json().catch(() => ({}))) as { error?: unknown };
    if (response.status === 409) return "This request was already answered or withdrawn.";
    return typeof body.error === "string" ? body.error : `The host refused the answer (HTTP ${response.status}).`;
  } catch {
    return "Could not reach the host; the answer was not sent. It will be asked again when the page reconnects.";
  }
}

let lastState: PageState | undefined;

function render(state: PageState): void {
  lastState = state;
  const [first, ...rest] = state.requests;
  // Nothing asked: the idle line follows the host's status, which may have changed.
  if (first?.id !== mountedId || !first) mount(first, 1, state.requests.length);
  else if (first) {
    const line = current.querySelector(".who");
    if (line) line.textContent = headline(first, 1, state.requests.length);
  }

  queue.hidden = rest.length === 0;
  const servers = [...new Set(rest.map(who))];
  queueSummary.textContent = rest.length ? `${rest.length} more waiting (${servers.join(", ")})` : "";
  queueList.replaceChildren(...rest.map((card) => text("li", describe(card))));

  noticeList.replaceChildren(...state.notices.map((n) => text("li", `${n.server}: ${n.message}`)));
}

function connect(): void {
  const events = new EventSource(PAGE_PATHS.events);
  events.addEventListener("open", () => {
    connection.textContent = "Connected to the host.";
    connection.classList.remove("lost");
  });
  events.addEventListener("state", (event) => render(JSON.parse((event as MessageEvent<string>).data) as PageState));
  events.addEventListener("closed", () => {
    ended = true;
    events.close();
    connection.textContent = "The host ended this session.";
    mount(undefined, 0, 0);
    queue.hidden = true;
  });
  events.addEventListener("error", () => {
    if (ended) return;
    // EventSource reconnects by itself; the host sends the whole state again when it does.
    connection.textContent = "Lost the connection to the host; reconnecting…";
    connection.classList.add("lost");
  });
}

connect();
