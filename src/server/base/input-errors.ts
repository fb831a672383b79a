// The errors of asking the client: it cannot be asked, or its answer cannot be used.
import type { Field } from "../../schema/fields.js";
import { ElicitError } from "../../schema/errors.js";

/** What each capability a tool may need lets it do, for the error message. */
const NEEDS: Record<string, string> = {
  sampling: "an LLM completion from the client (sampling/createMessage)",
  "sampling.tools": "sampling with tools (sampling/createMessage with tools or toolChoice)",
  roots: "the client's roots (roots/list)",
};

/** The client did not declare a capability this request needs (2025 eras; 2026-07-28 answers -32021 instead). */
export class MissingCapabilityError extends ElicitError {
  constructor(
    readonly capability: "sampling" | "sampling.tools" | "roots",
    readonly method: "sampling/createMessage" | "roots/list",
  ) {
    super("capability-missing", `This tool needs ${NEEDS[capability]}, but the client did not declare the "${capability}" capability.`);
  }

  // The same tag as a missing elicitation capability: the client could not be asked what the tool needs.
  protected override details() {
    return { error: "input_unavailable", capability: this.capability, request: this.method };
  }
}

/**
 * A 2025-era call that came without a session: no initialize reached this server (a stateless handler,
 * such as the SDK's createMcpHandler in its legacy stateless mode or Vercel's mcp-handler), so it neither
 * knows what the client supports nor has a stream to ask on. Said as such, never as a client that does
 * not support elicitation: the client may well have declared it, to a server that never saw it.
 */
export class SessionRequiredError extends ElicitError {
  constructor(
    readonly request: string,
    /** `no_session`: the call came without one; `worker`: the session is held by a Worker outside a Durable Object. */
    readonly reason: "no_session" | "worker" = "no_session",
  ) {
    super(
      "session-required",
      reason === "worker"
        ? `This tool needs input from the user ("${request}"), but on Cloudflare Workers a 2025-era session can be asked only inside the Durable Object that holds it: this session is held by the Worker itself, where the answer, which arrives in another request, cannot settle the question. Route 2025 sessions with routeSession and serve them with sessionObjectHandler (mcp-elicit/cloudflare). A 2026-07-28 client needs neither.`
        : `This tool needs input from the user ("${request}"), but this server cannot ask on a 2025 protocol revision without a session: the request came without one (no initialize reached this server, so it has neither the client's capabilities nor a stream to ask on). Serve 2025-era clients with sessions: createFetchHandler (mcp-elicit/server) or serveHttp (mcp-elicit/node) keep one per client, and on Cloudflare Workers each session is kept in a Durable Object (mcp-elicit/cloudflare). A 2026-07-28 client needs no session.`,
    );
  }

  protected override details() {
    return { error: "input_unavailable", reason: this.reason, request: this.request };
  }
}

/** The client cannot be asked (it declared no elicitation, or not this mode). */
export class InputUnavailableError extends ElicitError {
  constructor(
    readonly request: string,
    readonly fields: readonly Field[],
    readonly capability: string,
  ) {
    super(
      "input-unavailable",
      `This tool needs input from the user, but the client does not support ${capability}. Needed: "${request}" with fields: ${fields.map((f) => `${f.label}${f.required ? " (required)" : ""}`).join(", ")}.`,
    );
  }

  protected override details() {
    return {
      error: "input_unavailable",
      capability: this.capability,
      request: this.request,
      fields: this.fields.map((f) => ({
        name: f.name,
        label: f.label,
        kind: f.kind,
        required: f.required,
        ...(f.help ? { help: f.help } : {}),
      })),
    };
  }
}

/** A sampling request the tool built breaks the protocol's rules; nothing was sent. */
export class SamplingParamsError extends ElicitError {
  constructor(readonly problem: string) {
    super("sampling-params-invalid", `Invalid sampling request: ${problem}`);
  }
}

/** The client answered a sampling or roots request with something that is not a valid result. */
export class InvalidClientResultError extends ElicitError {
  constructor(
    readonly method: string,
    readonly problem: string,
  ) {
    super("client-result-invalid", `The client's answer to ${method} is not valid: ${problem}`);
  }
}
