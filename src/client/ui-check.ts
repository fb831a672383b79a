// A UI is checked when it is attached: a JavaScript host's UI that lacks a method the client calls
// would otherwise fail only when that method is first needed, in the middle of a server's request,
// which the server then gets as "-32603 options.ui.notice is not a function".

/** Throws a TypeError naming the first of `methods` that `ui` does not have as a function. */
export function requireUIMethods(ui: unknown, methods: readonly string[], where: string): void {
  if (typeof ui !== "object" || ui === null) throw new TypeError(`${where}: options.ui must be an object with ${methods.join(", ")}.`);
  for (const method of methods) {
    if (typeof (ui as Record<string, unknown>)[method] !== "function")
      throw new TypeError(`${where}: options.ui.${method} must be a function (the UI contract in mcp-elicit/client's ui.ts).`);
  }
}
