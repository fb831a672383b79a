// App-answered calls: a kit tool called by a host that renders apps but cannot be asked (ui-extension.ts)
// runs as a 2026-07-28 call does, round by round on the call ledger (rounds/call.ts), and each round ends
// the tool call with a result the host shows as the kit's form app (app-result.ts). The app answers through
// the app-only tool `elicit_answer`, which is the round's retry in other clothes: the same tool, the same
// arguments, the round's sealed state and the answer, sent through the kit's state guard to the tool. So
// every guarantee of a round holds: the state is single use and bound to principal, tool and arguments
// (refused -32602 otherwise), each ctx.step runs once, and a state used twice gets the ledger's outcome.
import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type InputRequiredResult,
  type McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";
import * as z from "zod";
import { requestHandlers, SdkInternalsError, serverName } from "../../common/sdk-internals.js";
import { clientCapabilities, requestRevision } from "../base/capabilities.js";
import type { ProtocolRevision } from "../../schema/types.js";
import { askResult, finalResult } from "./app-result.js";
import { formAppResource } from "./form-app-resource.js";
import { declareAppElicitation } from "./app-elicitation.js";
import { ANSWER_TOOL, APP_META_KEY, APP_MIME_TYPE, FORM_APP_URI, answeredByApp } from "./ui-extension.js";

type Handler = (request: { method?: string; params?: Record<string, unknown> }, ctx: ServerContext) => Promise<unknown>;

/** What `elicit_answer` takes: the call (tool, arguments), the round's state, and the answer to one of its questions. */
export const ANSWER_INPUT = z.object({
  tool: z.string().min(1).max(128).describe("The tool whose question this answers (the result's _meta says it)"),
  arguments: z.record(z.string(), z.unknown()).optional().describe("The tool's arguments, as in the call that asked"),
  state: z.string().min(1).max(1_048_576).describe("The sealed state the question came with"),
  key: z.string().min(1).max(128).describe("The question's key"),
  action: z.enum(["accept", "decline", "cancel"]),
  content: z.record(z.string(), z.unknown()).optional().describe("The form's answers (accept only)"),
});

/** Per server: the tools whose questions the form app answers (all kits on the server share one answer tool). */
// Module-level, keyed by the SDK's McpServer (not ours to add a field to): every kit on a server shares it.
const appTools = new WeakMap<McpServer, Set<string>>();
/** The requests `elicit_answer` forwarded to a tool: answered through the app whatever their caller declared. */
// Module-level: the mark goes on the SDK's request object, read by whichever kit owns the forwarded tool.
const forwarded = new WeakSet<object>();

export interface AppAnswersOptions {
  /** false: no tool lists the form app, and no call is answered through it. */
  enabled: boolean;
  /** App-rendered elicitation (app-elicitation.ts): the form app's resource is registered, and the server declares it. */
  appElicitation: boolean;
}

/** One round of a call, as rounds/call.ts runs it: the handler until it ends or waits on answers. */
export type Round = () => Promise<CallToolResult | InputRequiredResult>;

/** A kit's side of app-answered calls. */
export class AppAnswers {
  constructor(private readonly options: AppAnswersOptions) {}

  /**
   * Makes `tool` answerable through the form app on `server`. The server's first such tool registers the
   * form app's resource and `elicit_answer`; call it after the kit's state guard is in front of tools/call.
   */
  add(server: McpServer, tool: string): void {
    if (this.options.appElicitation) {
      registerFormApp(server);
      declareAppElicitation(server);
    }
    if (!this.options.enabled) return;
    let tools = appTools.get(server);
    if (!tools) {
      appTools.set(server, (tools = new Set()));
      install(server, tools);
    }
    tools.add(tool);
  }

  /** Whether this call of a kit tool is answered through the app: an answer the app sent, or a caller that renders apps and cannot be asked. */
  answers(server: McpServer, ctx: ServerContext, protocol: ProtocolRevision): boolean {
    if (!this.options.enabled) return false;
    return forwarded.has(ctx.mcpReq) || answeredByApp(clientCapabilities(server, ctx, protocol));
  }

  /** Runs one round of an app-answered call of `tool` (called with `args` as sent) and shapes its outcome for the app. */
  async run(server: McpServer, tool: string, args: unknown, round: Round): Promise<CallToolResult> {
    const outcome = await round();
    if (!isInputRequiredResult(outcome)) return finalResult(outcome);
    const shown = askResult(serverName(server.server), tool, args, outcome);
    if (shown) return shown;
    // Not reached while appDelivery refuses what the app cannot answer; said plainly if it ever is.
    return finalResult({
      content: [{ type: "text", text: `The tool "${tool}" asked for something the form app cannot answer.` }],
      isError: true,
    });
  }
}

/** The servers whose form app resource is registered (by any kit on them). */
// Module-level, keyed by the SDK's McpServer: the first kit on a server registers it, the others must not again.
const withFormApp = new WeakSet<McpServer>();

/** The form app's resource (ui://elicit/form-app.html), once per server. */
function registerFormApp(server: McpServer): void {
  if (withFormApp.has(server)) return;
  withFormApp.add(server);
  server.registerResource(
    "mcp-elicit form app",
    FORM_APP_URI,
    {
      mimeType: APP_MIME_TYPE,
      description: "The form in which a person answers this server's questions, on hosts that show apps.",
      _meta: { ui: { csp: {}, prefersBorder: true } },
    },
    async () => ({ contents: [await formAppResource()] }),
  );
}

/** The form app's resource, elicit_answer, and the listing that shows them to the callers that need them. */
function install(server: McpServer, tools: Set<string>): void {
  registerFormApp(server);
  server.registerTool(
    ANSWER_TOOL,
    {
      title: "Answer a question",
      description:
        "Used by the form app only: sends the person's answer to a question a tool asked, and returns the tool's next question or its result.",
      inputSchema: ANSWER_INPUT,
      _meta: { ui: { resourceUri: FORM_APP_URI, visibility: ["app"] } },
    },
    () => {
      // Calls are taken in front of McpServer (below), so that a bad state is refused as a protocol error.
      throw new Error(`${ANSWER_TOOL} is answered by the kit before McpServer`);
    },
  );
  const handlers = requestHandlers(server.server) as unknown as Map<string, Handler>;
  const call = handlers.get("tools/call");
  const list = handlers.get("tools/list");
  if (!call || !list) throw new SdkInternalsError("tools/call and tools/list handlers of McpServer");
  // The retry goes to the outermost tools/call handler at the time of the answer: a kit that registers tools on
  // this server later puts its own state guard in front of this one, and that guard must open the state.
  const outermost = () => handlers.get("tools/call")!;
  handlers.set("tools/call", (request, ctx) =>
    request.params?.name === ANSWER_TOOL ? answer(outermost(), tools, request, ctx) : call(request, ctx),
  );
  handlers.set("tools/list", async (request, ctx) => listed(server, tools, (await list(request, ctx)) as { tools: ListedTool[] }, ctx));
}

interface ListedTool {
  name: string;
  _meta?: Record<string, unknown>;
}

/**
 * tools/list as each caller needs it: a caller answered through the app sees the form app on each app tool
 * (`_meta.ui.resourceUri`, and the older flat key hosts still read) and elicit_answer; any other caller sees
 * neither, so a host that asks natively shows its own form, and a host without apps never offers the model
 * the app's tool.
 */
function listed(server: McpServer, tools: Set<string>, result: { tools: ListedTool[] }, ctx: ServerContext) {
  const protocol = requestRevision(server, ctx);
  if (!answeredByApp(clientCapabilities(server, ctx, protocol)))
    return { ...result, tools: result.tools.filter((t) => t.name !== ANSWER_TOOL) };
  return {
    ...result,
    tools: result.tools.map((t) => {
      if (!tools.has(t.name)) return t;
      const ui = { ...(t._meta?.ui as Record<string, unknown> | undefined), resourceUri: FORM_APP_URI };
      return { ...t, _meta: { ...t._meta, ui, "ui/resourceUri": FORM_APP_URI } };
    }),
  };
}

/** elicit_answer: the round's retry, sent through tools/call (the kits' state guards, then McpServer) to the tool. */
async function answer(inner: Handler, tools: Set<string>, request: { params?: Record<string, unknown> }, ctx: ServerContext) {
  const parsed = ANSWER_INPUT.safeParse(request.params?.arguments ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ");
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid arguments for tool ${ANSWER_TOOL}: ${problems}`);
  }
  const { tool, arguments: args = {}, state, key, action, content } = parsed.data;
  if (!tools.has(tool))
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${ANSWER_TOOL}: "${tool.slice(0, 128)}" is not a tool whose questions the form app answers.`,
      {
        reason: "tool",
      },
    );
  const answered = action === "accept" ? { action, content: content ?? {} } : { action };
  const mcpReq = {
    ...ctx.mcpReq,
    requestState: (() => state) as ServerContext["mcpReq"]["requestState"],
    inputResponses: { [key]: answered },
  };
  forwarded.add(mcpReq);
  return inner({ method: "tools/call", params: { name: tool, arguments: args } }, { ...ctx, mcpReq });
}

/** The `_meta` key of the app's question, for readers of a result. */
export { APP_META_KEY };
