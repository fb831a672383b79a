// The "everything server" of the official MCP conformance suite (@modelcontextprotocol/conformance),
// built with this package: every tool, resource and prompt its server scenarios call, on every
// protocol revision (2025-era sessions and 2026-07-28 stateless requests alike).
//
// Elicitation goes through `kit.registerTool` + `ctx.elicit`, so the same straight-line handler
// runs as live requests on 2025-06-18/2025-11-25 and as sealed replay on 2026-07-28. Sampling,
// roots, and input requests mixing them with elicitation use the SDK's own APIs (the kit only
// elicits). Run it with `elicit serve conformance [--http [HOST:]PORT]`.
import { McpServer } from "@modelcontextprotocol/server";
import type { Elicitation } from "../../server/kit/elicitation.js";
import { registerClientRequestTools } from "./client-requests.js";
import { registerContentTools } from "./content.js";
import { registerElicitationTools } from "./elicitation.js";
import { registerResourcesAndPrompts } from "./resources.js";
import { registerTaskTools } from "./tasks.js";

export { defaultsForm, enumsForm, PNG_BASE64, userForm, WAV_BASE64 } from "./fixtures.js";

export interface ConformanceServerOptions {
  /** Which era the instance serves (the factory context of serveHttp/serveStdio); default "legacy". */
  era?: "legacy" | "modern";
}

/** A fresh conformance server instance (one per 2025-era session or 2026-07-28 request). */
export function createConformanceServer(kit: Elicitation, options: ConformanceServerOptions = {}): McpServer {
  const era = options.era ?? "legacy";
  const s = new McpServer(
    { name: "mcp-elicit-conformance-server", version: "1.0.0" },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
      },
    },
  );
  registerContentTools(s);
  registerElicitationTools(s, kit);
  registerClientRequestTools(s);
  registerTaskTools(s, kit);
  registerResourcesAndPrompts(s, era);
  return s;
}
