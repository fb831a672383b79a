// A reply the SDK drops (see shared/dropped.ts) would leave a 2025-era tool waiting its whole timeout
// for the person; instead the waits on that connection end at once with a clear error.
import type { McpServer } from "@modelcontextprotocol/server";
import { watchDropped, type DroppedWatch } from "../../common/dropped.js";
import { InvalidClientResultError } from "./input-errors.js";

/** Watches one connection's server for dropped messages (idempotent). */
export const watchDroppedMessages = (server: McpServer): DroppedWatch =>
  watchDropped(
    server.server,
    () =>
      new InvalidClientResultError(
        "a request of this tool",
        "the client's reply was malformed (neither a result nor an error with a code), so it was dropped and no answer can come.",
      ),
  );
