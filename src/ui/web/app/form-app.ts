// The kit's form app (an MCP App: the io.modelcontextprotocol/ui extension), bundled into dist/web/form-app.js and
// served inline by the server as ui://elicit/form-app.html (src/server/apps/form-app-resource.ts). The host
// shows it with a tool call whose question the host could not ask itself: the app reads the question from the
// tool result's _meta, shows it with the kit's own elements (<mcp-elicit-form>, <mcp-elicit-url-consent>),
// answers through the app-only tool elicit_answer, shows each further question in place, and at the end shows
// the result and gives it to the model. It speaks only to its host frame (ext-apps' PostMessageTransport with
// the parent window as the only source), and every server text it shows is made inert first.
import {
  App,
  PostMessageTransport,
  applyDocumentTheme,
  applyHostStyleVariables,
  type McpUiHostContext,
} from "@modelcontextprotocol/ext-apps";
import type { CallToolResult } from "@modelcontextprotocol/client";
import "../elements/entries/form.js";
import "../elements/entries/url-consent.js";
import { ANSWER_EVENT } from "../elements/answer-event.js";
import { inert, inertLine } from "../elements/inert.js";
import type { ElementAnswer } from "../elements/types.js";
import { MAX_LONG_TEXT_LENGTH } from "../../../common/sanitize.js";
import type { AppAsk } from "../../../server/apps/app-result.js";
import { APP_META_KEY } from "../../../server/apps/ui-extension.js";
import { adoptAppStyles } from "./app-styles.js";

type Action = "accept" | "decline" | "cancel";

const root = document.getElementById("app") ?? document.body.appendChild(document.createElement("main"));
const app = new App({ name: "mcp-elicit form", version: "1.0.0" }, {}, { autoResize: true });
/** Whether the person answered here: then the call's end is news to the model, which saw only "the person is answering". */
let answeredHere = false;

/** The app's part of a tool result: a question (with the state to answer it), the call's end, or nothing of ours. */
function appMeta(result: CallToolResult): AppAsk | { final: true } | undefined {
  const meta = result._meta?.[APP_META_KEY];
  if (!meta || typeof meta !== "object") return undefined;
  const ask = meta as Partial<AppAsk>;
  if (typeof ask.state === "string" && typeof ask.tool === "string" && ask.question && typeof ask.question.key === "string")
    return ask as AppAsk;
  return { final: true };
}

function status(text: string, error = false): HTMLElement {
  const p = document.createElement("p");
  p.className = error ? "status error" : "status";
  p.setAttribute("role", error ? "alert" : "status");
  p.textContent = inert(text);
  return p;
}

/** Shows whatever a tool result holds for the app. */
function show(result: CallToolResult): void {
  const meta = appMeta(result);
  if (meta && "state" in meta) {
    if (meta.question.request.mode === "url") showLink(meta);
    else showForm(meta);
    return;
  }
  void showEnd(result);
}

function showForm(ask: AppAsk): void {
  const form = document.createElement("mcp-elicit-form");
  form.request = {
    message: String(ask.question.request.message ?? ""),
    requestedSchema: (ask.question.request.requestedSchema ?? {}) as object,
    server: { name: String(ask.server?.name ?? "") },
  };
  form.addEventListener(ANSWER_EVENT, (event) => {
    const detail = (event as CustomEvent<ElementAnswer>).detail as { action: Action; content?: Record<string, unknown> };
    void answer(ask, detail.action, detail.content);
  });
  root.replaceChildren(form);
}

/**
 * A URL-mode question: the consent card; Open asks the host to open the link (ui/open-link), then the app
 * answers "accept", which waits on the server a bounded time for the page to end the flow. The same link
 * coming back means the page is not done yet: the app answers "accept" again, until the flow ends or the
 * person cancels (sent with the round that is current then: a round takes one answer).
 */
function showLink(first: AppAsk): void {
  const consent = document.createElement("mcp-elicit-url-consent");
  const url = String(first.question.request.url ?? "");
  consent.request = { message: String(first.question.request.message ?? ""), url, server: { name: String(first.server?.name ?? "") } };
  consent.openLink = (href) => void app.openLink({ url: href }).catch(() => {});
  let current = first;
  let waiting = false;
  let cancelled = false;
  const wait = async () => {
    if (waiting) return;
    waiting = true;
    try {
      for (;;) {
        const result = await send(current, cancelled ? "cancel" : "accept");
        if (!result) return;
        const meta = appMeta(result);
        const again = meta && "state" in meta && meta.question.request.mode === "url" && meta.question.request.url === url;
        if (!again || cancelled) {
          if (!cancelled && !result.isError) consent.completed();
          show(result);
          return;
        }
        current = meta;
      }
    } finally {
      waiting = false;
    }
  };
  consent.addEventListener(ANSWER_EVENT, (event) => {
    const { action } = (event as CustomEvent<ElementAnswer>).detail as { action: Action | "retry" };
    if (action === "accept" || action === "retry") return void wait();
    if (waiting)
      cancelled = true; // the answer in flight comes back with the next round: cancelled there
    else void answer(current, action);
  });
  root.replaceChildren(consent);
}

/** Sends one answer through elicit_answer; undefined (and the reason shown, with a way to send it again) if it did not arrive. */
async function send(ask: AppAsk, action: Action, content?: Record<string, unknown>): Promise<CallToolResult | undefined> {
  answeredHere = true;
  try {
    return (await app.callServerTool({
      name: ask.answerTool,
      arguments: {
        tool: ask.tool,
        arguments: ask.arguments,
        state: ask.state,
        key: ask.question.key,
        action,
        ...(action === "accept" ? { content: content ?? {} } : {}),
      },
    })) as CallToolResult;
  } catch (error) {
    const again = document.createElement("button");
    again.type = "button";
    again.textContent = "Send again";
    again.addEventListener("click", () => void answer(ask, action, content));
    root.replaceChildren(status(`The answer did not reach the server: ${(error as Error)?.message ?? String(error)}`, true), again);
    return undefined;
  }
}

async function answer(ask: AppAsk, action: Action, content?: Record<string, unknown>): Promise<void> {
  const result = await send(ask, action, content);
  if (result) show(result);
}

const textOf = (result: CallToolResult) =>
  result.content
    .filter((c): c is { type: "text"; text: string } => c.type === "text" && typeof (c as { text?: unknown }).text === "string")
    .map((c) => c.text)
    .join("\n");

/** The call's end: shown (inert, scrollable), and given to the model when the person answered here. */
async function showEnd(result: CallToolResult): Promise<void> {
  const text = textOf(result);
  const box = document.createElement("section");
  box.className = "result";
  const heading = document.createElement("h2");
  heading.textContent = result.isError ? "The tool could not finish" : "Done";
  const body = document.createElement("p");
  body.className = result.isError ? "error" : "";
  body.textContent = inert(text, MAX_LONG_TEXT_LENGTH) || "(no text)";
  box.append(heading, body);
  root.replaceChildren(box);
  if (!answeredHere) return;
  const host = app.getHostCapabilities();
  const tool = inertLine(app.getHostContext()?.toolInfo?.tool?.name ?? "the tool");
  const told = `The person answered in the form; ${tool} ${result.isError ? "failed" : "finished"}:\n${text}`;
  try {
    if (host?.updateModelContext)
      await app.updateModelContext({
        content: [{ type: "text", text: told }],
        ...(result.structuredContent ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
      });
    else if (host?.message) await app.sendMessage({ role: "user", content: [{ type: "text", text: told }] });
  } catch {
    // The result is on screen; a host that refuses the context keeps what it has.
  }
}

function applyTheme(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

adoptAppStyles();
app.ontoolresult = (result) => show(result as CallToolResult);
app.ontoolcancelled = () => root.replaceChildren(status("The tool call was cancelled."));
app.onhostcontextchanged = (context) => applyTheme(context);
// The parent window is the only frame whose messages the app reads.
await app.connect(new PostMessageTransport(window.parent, window.parent));
applyTheme(app.getHostContext());
