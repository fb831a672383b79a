// The size of the load tests (test/fleet/load*.test.ts). npm test runs them at DEFAULT_LOAD_SESSIONS,
// which holds on a busy 2-core machine; `npm run test:load` runs the 1,000 (LOAD_SESSIONS=1000),
// and LOAD_SESSIONS=<n> any other size. What each run checks is the same at every size.
const DEFAULT_LOAD_SESSIONS = 200;

function sessions(): number {
  const raw = process.env.LOAD_SESSIONS;
  if (raw === undefined || raw === "") return DEFAULT_LOAD_SESSIONS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 20) throw new Error(`LOAD_SESSIONS must be a whole number of at least 20, got "${raw}"`);
  return n;
}

/** Concurrent sessions (or calls) a load test runs. */
export const LOAD_SESSIONS = sessions();

/** A load test's deadline: a minute, plus 0.3 s per session (the 1,000-session runs took 45-120 s on the busy 2-core machine). */
export const loadTimeoutMs = (base = 60_000) => base + LOAD_SESSIONS * 300;
