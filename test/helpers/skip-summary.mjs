// A node:test reporter that prints one line at the end of the run: the test groups skipped because a
// program they drive is missing (their reason comes from test/helpers/needs.ts), counted per program,
// with the line that installs it. `npm test` runs it after the spec reporter:
//
//   Skipped 25 groups and 9 tests for missing programs: chromium 22 (apt-get install chromium, or set ELICIT_CHROMIUM); …
//
// Node reports a skipped test or suite as test:pass with data.skip set (newer versions may say test:skip);
// its own "skipped" count leaves skipped suites out, hence groups and tests apart here.
const NEEDS = /^needs (\S+): (.*)$/;

export default async function* skipSummary(source) {
  let groups = 0;
  let tests = 0;
  /** program -> { count, hint } */
  const programs = new Map();
  for await (const event of source) {
    if (event.type !== "test:pass" && event.type !== "test:skip") continue;
    const reason = event.data.skip;
    if (typeof reason !== "string") continue;
    const parts = reason
      .split("; ")
      .map((part) => NEEDS.exec(part))
      .filter(Boolean);
    if (!parts.length) continue;
    if (event.data.details?.type === "suite") groups++;
    else tests++;
    for (const [, name, hint] of parts) {
      const seen = programs.get(name) ?? { count: 0, hint: hint.replace(/ \((.*)\)$/, ", $1") };
      seen.count++;
      programs.set(name, seen);
    }
  }
  if (!groups && !tests) {
    yield "No group or test was skipped for a missing program (chromium, redis-server, haproxy).\n";
    return;
  }
  const each = [...programs].map(([name, { count, hint }]) => `${name} ${count} (${hint})`);
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const counted = [groups && plural(groups, "group"), tests && plural(tests, "test")].filter(Boolean).join(" and ");
  yield `Skipped ${counted} for missing programs: ${each.join("; ")}. See docs/testing.md.\n`;
}
