// Limits on the shape of untrusted JSON, checked before anything walks it recursively (a check, a
// message, a seal): a value nested thousands of levels deep would otherwise end in a stack overflow.

export interface ShapeLimits {
  /** Deepest nesting of arrays and objects (the value itself is level 1). */
  maxDepth: number;
  /** Most values in all (every array item, object member and the value itself). */
  maxNodes: number;
}

/** For a form schema: root → properties → field → items → anyOf → option is 6 levels. */
export const SCHEMA_LIMITS: ShapeLimits = { maxDepth: 16, maxNodes: 50_000 };
/** For a whole request or answer (sampling content and tool input nest deeper than forms). */
export const MESSAGE_LIMITS: ShapeLimits = { maxDepth: 64, maxNodes: 500_000 };

export type ShapeProblem = { limit: "depth"; max: number } | { limit: "size"; max: number };

/** The first limit `value` breaks, or undefined; iterative, so any depth is safe to measure. */
export function shapeProblem(value: unknown, limits: ShapeLimits): ShapeProblem | undefined {
  const stack: [unknown, number][] = [[value, 1]];
  let nodes = 0;
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (++nodes > limits.maxNodes) return { limit: "size", max: limits.maxNodes };
    if (typeof v !== "object" || v === null) continue;
    if (depth > limits.maxDepth) return { limit: "depth", max: limits.maxDepth };
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return undefined;
}

/** "nested more than 16 levels deep" / "more than 50000 values": for a message naming the limit. */
export const describeProblem = (p: ShapeProblem) =>
  p.limit === "depth" ? `nested more than ${p.max} levels deep` : `more than ${p.max} values in all`;
