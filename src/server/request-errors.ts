// Errors of ctx.sample and ctx.roots. A leaf module: live.ts, sample.ts and roots.ts throw these,
// and errors.ts (which imports live.ts) turns them into tool results.

/** What each capability a tool may need lets it do, for the error message. */
const NEEDS: Record<string, string> = {
  sampling: "an LLM completion from the client (sampling/createMessage)",
  "sampling.tools": "sampling with tools (sampling/createMessage with tools or toolChoice)",
  roots: "the client's roots (roots/list)",
};

/** The client did not declare a capability this request needs (2025 eras; 2026-07-28 answers -32021 instead). */
export class MissingCapabilityError extends Error {
  constructor(readonly capability: "sampling" | "sampling.tools" | "roots", readonly method: "sampling/createMessage" | "roots/list") {
    super(`This tool needs ${NEEDS[capability]}, but the client did not declare the "${capability}" capability.`);
    this.name = "MissingCapabilityError";
  }
}

/** A sampling request the tool built breaks the protocol's rules; nothing was sent. */
export class SamplingParamsError extends Error {
  constructor(readonly problem: string) {
    super(`Invalid sampling request: ${problem}`);
    this.name = "SamplingParamsError";
  }
}

/** The client answered a sampling or roots request with something that is not a valid result. */
export class InvalidClientResultError extends Error {
  constructor(readonly method: string, readonly problem: string) {
    super(`The client's answer to ${method} is not valid: ${problem}`);
    this.name = "InvalidClientResultError";
  }
}
