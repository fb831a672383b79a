// `--ui app`: a host that renders MCP Apps but cannot be asked (Claude Desktop) gets the server's questions
// as the kit's form app, with the kit's wire contract (docs/design/apps.md): a tool result whose
// `_meta["mcp-elicit.app"]` carries the question, answered with the app-only tool `elicit_answer`. The
// gateway does not replay anything: the call to the server stays open in this process, held as a
// 2026-07-28 host's call is (held-calls.ts), and each answer goes to the question waiting in it. The host's
// tools/call ends at the first question; each elicit_answer call ends at the next question or at the
// server's result. A state names one question of one call: issued here, used once, refused for another.
import { isDeepStrictEqual } from "node:util";
import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequiredResult,
} from "@modelcontextprotocol/server";
import * as z from "zod";
import { ANSWER_INPUT } from "../../server/apps/app-calls.js";
import { askResult, finalResult } from "../../server/apps/app-result.js";
import { formAppResource } from "../../server/apps/form-app-resource.js";
import { ANSWER_TOOL, APP_MIME_TYPE, FORM_APP_URI } from "../../server/apps/ui-extension.js";
import type { ProtocolRevision } from "../../schema/types.js";
import { HELD_IDLE_MS, HeldCalls, type HeldCall } from "./held-calls.js";
import { checkHostAnswer } from "./host-answer.js";
import type { Result } from "./forward.js";

/** What the app answers, as a host declaring it would: forms and links (sampling and roots go to the page, or to a host that declared them). */
export const APP_CAPABILITIES: ClientCapabilities = { elicitation: { form: {}, url: {} } };
/** The revision the app's questions are written in: the form app reads every schema the kit knows. */
export const APP_PROTOCOL: ProtocolRevision = "2025-11-25";

/** The answer tool as the host lists it: for the app only (SEP-1865 visibility), never offered to the model. */
const ANSWER_TOOL_LISTED = {
  name: ANSWER_TOOL,
  title: "Answer a question",
  description:
    "Used by the form app only: sends the person's answer to a question a tool asked, and returns the tool's next question or its result.",
  inputSchema: z.toJSONSchema(ANSWER_INPUT),
  _meta: { ui: { resourceUri: FORM_APP_URI, visibility: ["app"] } },
};

const FORM_APP_LISTED = {
  uri: FORM_APP_URI,
  name: "mcp-elicit form app",
  mimeType: APP_MIME_TYPE,
  description: "The form in which a person answers the server's questions, on hosts that show apps (elicit gateway --ui app).",
  _meta: { ui: { csp: {}, prefersBorder: true } },
};

const refused = (message: string, reason: string) =>
  new ProtocolError(ProtocolErrorCode.InvalidParams, `${ANSWER_TOOL}: ${message}`, { reason });

interface ListedTool {
  name: string;
  _meta?: Record<string, unknown>;
}

/** The app-answered calls of one gateway, by the state each question carries. */
export class GatewayApps {
  private readonly held: HeldCalls;
  private readonly asked = new WeakMap<HeldCall, { tool: string; args: unknown }>();

  constructor(
    private readonly serverName: string,
    idleMs = HELD_IDLE_MS,
  ) {
    this.held = new HeldCalls(idleMs, (question, answer) => checkHostAnswer(question, answer, APP_PROTOCOL));
  }

  /** A host's call of `tool`: `run` (the call to the server, asking through the held call) starts, and the call ends at its first question or its result. */
  call(tool: string, args: unknown, run: (call: HeldCall) => Promise<Result>, signal: AbortSignal): Promise<Result> {
    const call = this.held.start(run);
    this.asked.set(call, { tool, args });
    return this.shown(call, signal);
  }

  /** elicit_answer: the answer to the question its state names, then the call's next question or its result. */
  answer(params: unknown, signal: AbortSignal): Promise<Result> {
    const parsed = ANSWER_INPUT.safeParse(params ?? {});
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ");
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid arguments for tool ${ANSWER_TOOL}: ${problems}`);
    }
    const { tool, arguments: args = {}, state, key, action, content } = parsed.data;
    let call: HeldCall;
    try {
      call = this.held.resume(state);
    } catch {
      throw refused("the state names no question the gateway waits on (answered already, ended, or from another gateway).", "state");
    }
    const asked = this.asked.get(call)!;
    if (asked.tool !== tool) throw refused(`the state was issued for another tool than "${tool.slice(0, 128)}".`, "tool");
    if (!isDeepStrictEqual(asked.args ?? {}, args)) throw refused("the state was issued for a call with other arguments.", "arguments");
    if (!call.asks(key)) throw refused("the state was issued for another question (or this one was answered already).", "question");
    call.answer({ [key]: action === "accept" ? { action, content: content ?? {} } : { action } });
    return this.shown(call, signal);
  }

  /** tools/list for a host answered through the app: each tool shows the form app (unless it has an app of its own), and the answer tool is listed last. */
  listTools(result: Result): Result {
    const tools = (result.tools as ListedTool[] | undefined) ?? [];
    const shown = tools.map((t) => {
      const ui = t._meta?.ui as Record<string, unknown> | undefined;
      if (ui?.resourceUri !== undefined || t._meta?.["ui/resourceUri"] !== undefined) return t;
      return { ...t, _meta: { ...t._meta, ui: { ...ui, resourceUri: FORM_APP_URI }, "ui/resourceUri": FORM_APP_URI } };
    });
    const last = result.nextCursor === undefined;
    return { ...result, tools: last ? [...shown.filter((t) => t.name !== ANSWER_TOOL), ANSWER_TOOL_LISTED] : shown };
  }

  /** resources/list for such a host: the form app after the server's own (on the last page). */
  listResources(result: Result): Result {
    if (result.nextCursor !== undefined) return result;
    const resources = ((result.resources as Array<{ uri?: unknown }> | undefined) ?? []).filter((r) => r.uri !== FORM_APP_URI);
    return { ...result, resources: [...resources, FORM_APP_LISTED] };
  }

  /** resources/read of the form app. */
  async readApp(): Promise<Result> {
    return { contents: [await formAppResource()] };
  }

  /** Every call still open is cancelled at the server (the gateway stops). */
  close(): void {
    this.held.close();
  }

  /** The call's next round as the app shows it: the first of its questions, or its result marked final. */
  private async shown(call: HeldCall, signal: AbortSignal): Promise<Result> {
    const { tool, args } = this.asked.get(call)!;
    const outcome = await call.round(signal);
    if ((outcome as { resultType?: unknown }).resultType !== "input_required") return finalResult(outcome as CallToolResult);
    const shown = askResult(this.serverName, tool, args, outcome as InputRequiredResult);
    if (shown) return shown;
    // Only elicitations reach the held call (APP_CAPABILITIES); said plainly if anything else ever does.
    call.end(new Error("The server asked for something the form app cannot answer."));
    return finalResult({
      content: [{ type: "text", text: `The tool "${tool}" asked for something the form app cannot answer.` }],
      isError: true,
    });
  }
}
