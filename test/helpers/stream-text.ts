// The text a child process writes (its stderr, its stdout), kept as it comes, and waited on with a
// deadline: a test waits for what the program says, never for a fixed time.
import type { Readable } from "node:stream";

/** Text read from a stream; `waitFor` resolves with the first match of `pattern`, or fails after `ms` naming what was read. */
export function watchText(stream: Readable | null | undefined, defaultMs: number) {
  let text = "";
  const waiting = new Set<() => void>();
  stream?.setEncoding("utf8");
  stream?.on("data", (chunk: string) => {
    text += chunk;
    for (const check of waiting) check();
  });
  return {
    text: () => text,
    waitFor(pattern: RegExp, ms = defaultMs): Promise<RegExpExecArray> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => (waiting.delete(check), reject(new Error(`no ${pattern} within ${ms} ms in:\n${text}`))), ms);
        const check = () => {
          const match = pattern.exec(text);
          if (!match) return;
          clearTimeout(timer);
          waiting.delete(check);
          resolve(match);
        };
        waiting.add(check);
        check();
      });
    },
  };
}
