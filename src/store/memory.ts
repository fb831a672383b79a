// The default store: one process's maps, entries dropped when read after their expiry and by a sweep
// (unref'd, so it never keeps a process alive). Right for one instance; a fleet needs a shared store.
// The sweep starts with the first write, not at construction: Workers forbid timers in global scope, and
// a store made at module scope (by createElicitation's defaults, say) must still load there.
import type { KeyValueStore } from "./types.js";
import { unref } from "../common/unref.js";

export interface MemoryStoreOptions {
  /** How often expired entries are swept (default 60 s). */
  sweepMs?: number;
}

/**
 * Written by each store, read by none. JSON.stringify and template strings hand back a string as a
 * tree of pieces (a finished call's result: several objects), and V8 keeps it so until something needs it
 * in one piece; a number conversion is such a thing (the trick of the flatstr package). Assigned here,
 * the conversion cannot be optimized away.
 */
let _flattened = 0;

export function memoryStore(options: MemoryStoreOptions = {}): KeyValueStore {
  // Values and expiry times in two maps of primitives, not one map of { value, expires } records: the
  // call ledger keeps every finished call's result for half an hour, and each entry is then its two
  // strings alone, fewer objects for the garbage collector to mark and fewer bytes kept. Times count
  // from the store's start so that they stay small integers, which V8 stores unboxed.
  const values = new Map<string, string>();
  const expiries = new Map<string, number>();
  const start = Date.now();
  const now = () => Date.now() - start;
  const forget = (key: string) => {
    values.delete(key);
    expiries.delete(key);
  };
  const live = (key: string) => {
    const value = values.get(key);
    if (value === undefined) return undefined;
    if (expiries.get(key)! > now()) return value;
    forget(key);
    return undefined;
  };
  const put = (key: string, value: string, ttlMs: number) => {
    _flattened = Number(key) + Number(value); // each kept as one string: see `_flattened`
    values.set(key, value);
    expiries.set(key, now() + ttlMs);
    startSweep();
  };
  let sweep: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const startSweep = () => {
    if (sweep !== undefined || closed) return;
    sweep = setInterval(() => {
      const at = now();
      for (const [key, expires] of expiries) if (expires <= at) forget(key);
    }, options.sweepMs ?? 60_000);
    unref(sweep);
  };
  return {
    async get(key) {
      return live(key);
    },
    async add(key, value, ttlMs) {
      if (live(key) !== undefined) return false;
      put(key, value, ttlMs);
      return true;
    },
    async swap(key, expected, value, ttlMs) {
      if (live(key) !== expected) return false;
      if (value === undefined) forget(key);
      else put(key, value, ttlMs);
      return true;
    },
    async set(key, value, ttlMs) {
      put(key, value, ttlMs);
    },
    async delete(key) {
      forget(key);
    },
    async keys(prefix) {
      return [...values.keys()].filter((key) => key.startsWith(prefix) && live(key) !== undefined);
    },
    async close() {
      closed = true;
      clearInterval(sweep);
      values.clear();
      expiries.clear();
    },
  };
}
