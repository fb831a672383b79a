// Cleanup that runs however a test file's process ends. The runner cuts a file at --test-timeout with
// SIGTERM, and a signal ends a process without its `after` hooks or 'exit' listeners: child processes
// stayed behind (a `serve travel` still running 33 minutes later), and temporary folders. Once anything is
// registered here, SIGTERM, SIGINT and SIGHUP exit the process instead, so the 'exit' listener runs every
// cleanup. Only SIGKILL escapes it. Cleanups run synchronously (nothing asynchronous runs after 'exit').
import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";

const cleanups = new Set<() => void>();
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  process.once("exit", () => {
    for (const cleanup of cleanups) {
      try {
        cleanup();
      } catch {
        // The others still run.
      }
    }
  });
  for (const [signal, number] of [
    ["SIGTERM", 15],
    ["SIGINT", 2],
    ["SIGHUP", 1],
  ] as const)
    process.once(signal, () => process.exit(128 + number));
}

/** Runs `cleanup` when this process exits, however it ends (but SIGKILL); returns a function that unregisters it. */
export function onExit(cleanup: () => void): () => void {
  install();
  cleanups.add(cleanup);
  return () => void cleanups.delete(cleanup);
}

/** SIGKILLs `child` if it is still running when this process exits; returns the child. */
export function killOnExit<T extends ChildProcess>(child: T): T {
  const unregister = onExit(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  child.once("exit", unregister);
  return child;
}

/** Removes `dir` (recursively) when this process exits; returns a function that unregisters it, for a test that removed it. */
export function removeOnExit(dir: string): () => void {
  return onExit(() => rmSync(dir, { recursive: true, force: true }));
}
