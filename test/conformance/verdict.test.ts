// The verdict scripts/conformance.sh gives on the official conformance suites (server and client
// parts), and how the client runner reads the suite's scenario list and writes the README table.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { judge, parseKnown, readServerRuns, report, type Check, type ScenarioRun } from "../../scripts/conformance-verdict.js";
import { parseClientScenarios, revisionsOf, table } from "../../scripts/conformance-clients.js";

const run = (scenario: string, checks: [string, Check["status"]][], scored = true): ScenarioRun => ({
  scenario,
  label: `0.2.0 ${scenario} @2026-07-28`,
  scored,
  checks: checks.map(([id, status]) => ({ id, status, ...(status === "FAILURE" ? { errorMessage: `${id} broke` } : {}) })),
});

describe("parseKnown", () => {
  test("scenario:check with a reason; * matches anything; comments and blank lines are skipped", () => {
    const known = parseKnown(
      "\n# a comment\nauth/*:*  OAuth is another issue\ntools_call:tool-add-numbers  reason two # trailing comment\n",
    );
    assert.deepEqual(
      known.map((k) => [k.pattern, k.reason]),
      [
        ["auth/*:*", "OAuth is another issue"],
        ["tools_call:tool-add-numbers", "reason two"],
      ],
    );
    assert.ok(known[0]!.matches("auth/metadata-default", "token-request"));
    assert.ok(!known[0]!.matches("authx", "token-request"));
    assert.ok(known[1]!.matches("tools_call", "tool-add-numbers"));
    assert.ok(!known[1]!.matches("tools_call", "tool-add-numbers-2"));
  });

  test("an entry without a reason, or that is not scenario:check, is an error naming the line", () => {
    assert.throws(() => parseKnown("tools_call:x"), /KNOWN line 1: "tools_call:x" has no reason/);
    assert.throws(() => parseKnown("\ntools_call  why"), /KNOWN line 2: "tools_call" is not scenario:check-id/);
  });
});

describe("judge", () => {
  test("all passing: ok, with passed, failed and warnings counted", () => {
    const v = judge(
      [
        run("a", [
          ["x", "SUCCESS"],
          ["y", "WARNING"],
          ["z", "INFO"],
          ["w", "SKIPPED"],
        ]),
      ],
      [],
    );
    assert.equal(v.ok, true);
    assert.deepEqual([v.passed, v.failed, v.warnings], [1, 0, 1]);
  });

  test("a failure nobody listed fails the run and is named", () => {
    const v = judge(
      [
        run("a", [
          ["x", "SUCCESS"],
          ["y", "FAILURE"],
        ]),
      ],
      [],
    );
    assert.equal(v.ok, false);
    assert.deepEqual(v.unexpected, ["0.2.0 a @2026-07-28: y: y broke"]);
  });

  test("a known failure does not fail the run; its reason goes with it", () => {
    const v = judge(
      [
        run("a", [
          ["x", "SUCCESS"],
          ["y", "FAILURE"],
        ]),
      ],
      parseKnown("a:y  not yet"),
    );
    assert.equal(v.ok, true);
    assert.deepEqual(v.known, ["0.2.0 a @2026-07-28: y: y broke [known: not yet]"]);
    assert.deepEqual(v.tallies[0]!.known, ["not yet"]);
  });

  test("a known entry whose checks all pass is stale and fails the run; one that matches nothing here is not judged", () => {
    const v = judge([run("a", [["y", "SUCCESS"]])], parseKnown("a:y  fixed now\nother:*  runs elsewhere"));
    assert.equal(v.ok, false);
    assert.deepEqual(v.stale, ["a:y"]);
  });

  test("a wildcard entry stays while any check it covers fails", () => {
    const v = judge(
      [
        run("auth/x", [
          ["ok", "SUCCESS"],
          ["bad", "FAILURE"],
        ]),
        run("auth/y", [["ok", "SUCCESS"]]),
      ],
      parseKnown("auth/*:*  no OAuth"),
    );
    assert.equal(v.ok, true);
    assert.deepEqual(v.stale, []);
  });

  test("not-scored scenarios never fail the run, and are reported when they fail", () => {
    const v = judge([run("a", [["x", "SUCCESS"]]), run("ext", [["y", "FAILURE"]], false)], []);
    assert.equal(v.ok, true);
    assert.deepEqual(v.unscoredFailing, ["0.2.0 ext @2026-07-28"]);
  });

  test("no scored run at all is not a pass", () => {
    assert.equal(judge([], []).ok, false);
  });

  test("report: one summary line, then the failures; many known failures of one reason in one line", () => {
    const runs = [
      run("auth/a", [
        ["1", "FAILURE"],
        ["2", "FAILURE"],
        ["3", "FAILURE"],
        ["4", "FAILURE"],
      ]),
      run("b", [["x", "FAILURE"]]),
    ];
    const lines = report("suite", judge(runs, parseKnown("auth/*:*  no OAuth")), "2 runs", "scripts/conformance.sh");
    assert.equal(lines[0], "FAIL  suite: 2 runs [scored: 0 passed, 5 failed, 0 warning(s); 4 known failure(s)]");
    assert.equal(lines[1], "      ✗ 0.2.0 b @2026-07-28: x: x broke");
    assert.match(lines[2]!, /^ {6}~ 4 known failures: no OAuth \(e\.g\. 0\.2\.0 auth\/a @2026-07-28: 1: 1 broke\)$/);
    assert.equal(lines.length, 3);
  });
});

describe("readServerRuns", () => {
  test("reads server-<scenario>-<timestamp>/checks.json; scenarios the log shows as not scored are marked so", () => {
    const dir = mkdtempSync(join(tmpdir(), "verdict-"));
    try {
      for (const [name, checks] of [
        ["server-tools-list-2026-07-28T10-00-00-000Z", [{ id: "t", status: "SUCCESS" }]],
        ["server-tasks-lifecycle-2026-07-28T10-00-01-000Z", [{ id: "u", status: "FAILURE" }]],
      ] as const) {
        mkdirSync(join(dir, name));
        writeFileSync(join(dir, name, "checks.json"), JSON.stringify(checks));
      }
      const runs = readServerRuns(dir, "Not scored:\n  ✗ tasks-lifecycle (extension)\n", "next");
      assert.deepEqual(
        runs.map((r) => [r.scenario, r.label, r.scored]),
        [
          ["tasks-lifecycle", "next tasks-lifecycle", false],
          ["tools-list", "next tools-list", true],
        ],
      );
      assert.equal(judge(runs, []).ok, true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the client runner's reading of the suite", () => {
  const LISTING = `Server scenarios (test against a server):
  - server-initialize [2025-06-18,2025-11-25]

Client scenarios (test against a client):
  - initialize [2025-06-18,2025-11-25]
  - tools_call [2025-06-18,2025-11-25,2026-07-28]
  - auth/2025-03-26-oauth-metadata-backcompat [2025-03-26]
  - sep-2640-client-no-prefetch [extension]

Authorization server scenarios (test against an authorization server):
  - authorization-code-grant [2025-03-26]
`;

  test("client scenarios and their tags, from `conformance list`", () => {
    assert.deepEqual(parseClientScenarios(LISTING), [
      { name: "initialize", tags: ["2025-06-18", "2025-11-25"] },
      { name: "tools_call", tags: ["2025-06-18", "2025-11-25", "2026-07-28"] },
      { name: "auth/2025-03-26-oauth-metadata-backcompat", tags: ["2025-03-26"] },
      { name: "sep-2640-client-no-prefetch", tags: ["extension"] },
    ]);
  });

  test("each scenario runs at 2025-11-25 and 2026-07-28 where it applies, else at the suite's default", () => {
    const [initialize, toolsCall, backcompat, extension] = parseClientScenarios(LISTING);
    assert.deepEqual(revisionsOf(initialize!), ["2025-11-25"]);
    assert.deepEqual(revisionsOf(toolsCall!), ["2025-11-25", "2026-07-28"]);
    assert.deepEqual(revisionsOf(backcompat!), [undefined]);
    assert.deepEqual(revisionsOf(extension!), [undefined]);
  });

  test("the table counts the suite's own checks, not the runner's elicit-* ones, and gives the known reason", () => {
    const runs = [
      run("sep-2322", [
        ["a", "SUCCESS"],
        ["b", "SKIPPED"],
        ["elicit-client-exit", "FAILURE"],
        ["elicit-dispatcher", "SUCCESS"],
      ]),
    ];
    const v = judge(runs, parseKnown("sep-2322:elicit-client-exit  the SDK refuses it"));
    assert.equal(
      table(v.tallies),
      [
        "| scenario | suite | revision | checks passed | known failure, rule |",
        "| --- | --- | --- | --- | --- |",
        "| `sep-2322` | 0.2.0 | 2026-07-28 | 1/1 (1 skipped) | the SDK refuses it |",
      ].join("\n"),
    );
  });

  test("a scenario family (auth/…) is one row per suite version, its counts summed", () => {
    const runs = [
      run("auth/a", [
        ["x", "SUCCESS"],
        ["y", "FAILURE"],
      ]),
      run("auth/b", [["x", "FAILURE"]]),
      run("tools_call", [["t", "SUCCESS"]]),
    ];
    const lines = table(judge(runs, parseKnown("auth/*:*  no OAuth")).tallies)
      .split("\n")
      .slice(2);
    assert.deepEqual(lines, [
      "| `auth/*` (2 scenarios, 2 runs) | 0.2.0 | all | 1/3 | no OAuth |",
      "| `tools_call` | 0.2.0 | 2026-07-28 | 1/1 |  |",
    ]);
  });
});
