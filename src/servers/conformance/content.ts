// The content, logging and progress tools: plain SDK tools.
import type { McpServer } from "@modelcontextprotocol/server";

import { noArgs, PNG_BASE64, say, sleep, WAV_BASE64 } from "./fixtures.js";

export function registerContentTools(s: McpServer): void {
  // ---- content tools ----
  s.registerTool("test_simple_text", { description: "Returns a simple text response" }, () =>
    say("This is a simple text response for testing."),
  );
  s.registerTool("test_image_content", { description: "Returns an image" }, () => ({
    content: [{ type: "image", data: PNG_BASE64, mimeType: "image/png" }],
  }));
  s.registerTool("test_audio_content", { description: "Returns audio" }, () => ({
    content: [{ type: "audio", data: WAV_BASE64, mimeType: "audio/wav" }],
  }));
  s.registerTool("test_embedded_resource", { description: "Returns an embedded resource" }, () => ({
    content: [
      {
        type: "resource",
        resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." },
      },
    ],
  }));
  s.registerTool("test_multiple_content_types", { description: "Returns text, an image and a resource" }, () => ({
    content: [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: PNG_BASE64, mimeType: "image/png" },
      {
        type: "resource",
        resource: {
          uri: "test://mixed-content-resource",
          mimeType: "application/json",
          text: JSON.stringify({ test: "data", value: 123 }),
        },
      },
    ],
  }));
  s.registerTool("test_error_handling", { description: "Always fails" }, () => {
    throw new Error("This tool intentionally returns an error for testing");
  });

  // ---- logging and progress ----
  s.registerTool(
    "test_tool_with_logging",
    { description: "Logs three messages while it runs", inputSchema: noArgs },
    async (_args, ctx) => {
      const steps = ["Tool execution started", "Tool processing data", "Tool execution completed"];
      for (const [i, message] of steps.entries()) {
        if (i > 0) await sleep(50);
        await ctx.mcpReq.log("info", message); // 2025: obeys logging/setLevel; 2026-07-28: only with a _meta logLevel
      }
      return say("Tool with logging executed successfully");
    },
  );
  s.registerTool("test_tool_with_progress", { description: "Reports progress 0, 50, 100", inputSchema: noArgs }, async (_args, ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    for (const progress of [0, 50, 100]) {
      if (progress > 0) await sleep(50);
      if (progressToken !== undefined) {
        await ctx.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken, progress, total: 100, message: `Completed step ${progress} of 100` },
        });
      }
    }
    return say(`Progress tool completed (token ${String(progressToken)})`);
  });
}
