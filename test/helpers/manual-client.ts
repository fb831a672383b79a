// A 2026-07-28 client that hands input_required results back to the test instead of answering them,
// for tests that drive the rounds by hand (inputResponses and requestState written by the test).
import { Client } from "@modelcontextprotocol/client";

/** tools/call params with the 2026-07-28 round fields. */
export type ManualCall = {
  name: string;
  arguments: Record<string, unknown>;
  inputResponses?: unknown;
  requestState?: unknown;
  _meta?: Record<string, unknown>;
};

/** A client pinned to 2026-07-28 that never fulfils input requests itself; it declares `capabilities`. */
export function manualClient(capabilities: Record<string, unknown> = { elicitation: { form: {} } }): Client {
  return new Client({ name: "manual", version: "1.0.0" }, {
    capabilities,
    versionNegotiation: { mode: { pin: "2026-07-28" } },
    inputRequired: { autoFulfill: false },
  } as never);
}

/** tools/call on `client` that returns an input_required result as it is. */
export const callWith = (client: Client) => (params: ManualCall) =>
  client.callTool(params as never, { allowInputRequired: true } as never) as Promise<Record<string, any>>;
