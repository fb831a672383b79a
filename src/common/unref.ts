// A timer that does not keep the process alive, where the runtime has such timers (Node, Deno, Bun);
// Workers' timers return no object with unref, and an isolate is not kept alive by them anyway.

export function unref<T>(timer: T): T {
  (timer as { unref?: () => void } | undefined)?.unref?.();
  return timer;
}
