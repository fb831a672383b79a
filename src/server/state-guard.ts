// Refuses a bad requestState with JSON-RPC -32602 and a message saying what is wrong with it.
// McpServer turns every error thrown inside a tool into an `isError` result, and the SDK's own
// requestState.verify hook answers a fixed "Invalid or expired requestState"; so we check the
// state in front of McpServer's stored tools/call handler instead (SDK 2.4, see README).
import { ProtocolError, ProtocolErrorCode, type McpServer, type ServerContext, type StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { StateError } from "./state.js";

type Handler = (request: { params?: Record<string, unknown> }, ctx: ServerContext) => Promise<unknown>;
type Verify = (ctx: ServerContext, args: unknown, state: string) => unknown;

interface Guarded {
  tools: Map<string, { schema?: StandardSchemaWithJSON; verify: Verify }>;
}
const guards = new WeakMap<McpServer, Guarded>();

async function parseArgs(schema: StandardSchemaWithJSON | undefined, raw: unknown): Promise<{ ok: boolean; value: unknown }> {
  if (!schema) return { ok: true, value: {} };
  const result = await schema["~standard"].validate(raw ?? {});
  return "value" in result && !result.issues ? { ok: true, value: result.value } : { ok: false, value: undefined };
}

export function installStateGuard(server: McpServer, tool: string, schema: StandardSchemaWithJSON | undefined, verify: Verify): void {
  let guard = guards.get(server);
  if (!guard) {
    const handlers = (server.server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
    const inner = handlers?.get("tools/call");
    if (!inner) throw new Error("mcp-elicit: the SDK's tools/call handler was not found; this SDK version is not supported.");
    guard = { tools: new Map() };
    const tools = guard.tools;
    handlers.set("tools/call", async (request, ctx) => {
      const params = request.params ?? {};
      const entry = tools.get(params.name as string);
      // The SDK lifts requestState out of the params into the context before handlers run.
      const state = ctx.mcpReq.requestState() as unknown;
      if (entry && state !== undefined) {
        if (typeof state !== "string") {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid requestState: it must be the string this server issued.", { reason: "malformed" });
        }
        const args = await parseArgs(entry.schema, params.arguments);
        // Arguments that fail the tool's schema are McpServer's to report.
        if (args.ok) {
          try {
            entry.verify(ctx, args.value, state);
          } catch (error) {
            if (!(error instanceof StateError)) throw error;
            throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid requestState: ${error.message}`, { reason: error.problem });
          }
        }
      }
      return inner(request, ctx);
    });
    guards.set(server, guard);
  }
  guard.tools.set(tool, { schema, verify });
}
