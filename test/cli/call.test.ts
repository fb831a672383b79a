// `elicit call` and `elicit demo --answers`, as a user runs them: the built bin against `elicit serve
// travel` over stdio and over Streamable HTTP, on each protocol revision.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, runCli } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "elicit-call-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, body: string) => {
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
};

const TRIP = JSON.stringify({ destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" });
const ANSWERS = file(
  "answers.yaml",
  `# the seed's booking confirmation, then the contact details
- match: "Barcelona"
  action: accept
  content: { confirmBooking: true, seatPreference: aisle, roomType: garden view, travelInsurance: true }
- match: "contact|traveler"
  action: accept
  content: { fullName: Ana Garcia, email: ana@example.com, phone: "+34 600 123 456" }
`,
);
const STDIO = ["--", process.execPath, BIN, "serve", "travel"];
const REVISIONS = ["2025-06-18", "2025-11-25", "2026-07-28"] as const;

/** `elicit serve travel --http 0` in the background; resolves with its URL. */
function serveHttp(): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "serve", "travel", "--http", "0"], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d) => {
      stderr += d;
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m) resolve({ url: m[1]!, child });
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

describe("elicit call book_trip with an answers file", () => {
  let http: { url: string; child: ChildProcess };
  before(async () => (http = await serveHttp()));
  after(() => http.child.kill("SIGTERM"));

  for (const revision of REVISIONS) {
    for (const transport of ["stdio", "http"] as const) {
      test(`${revision} over ${transport}: booked, with the result as JSON on stdout and exit 0`, async () => {
        const server = transport === "stdio" ? STDIO : ["--url", http.url];
        const r = await runCli(["call", "book_trip", "--args", TRIP, "--answers", ANSWERS, "--protocol", revision, ...server]);
        assert.equal(r.code, 0, r.stderr);
        const result = JSON.parse(r.stdout);
        assert.equal(result.structuredContent.booked, true);
        assert.match(result.structuredContent.reference, /^ELC-[0-9A-Z]{6}$/);
        // Flights + hotel $3,000 and the $150 insurance the answers ticked.
        assert.equal(result.structuredContent.totalUsd, 3150);
        assert.match(result.content[0].text, /for Ana Garcia \(seat: aisle, room: garden view, travel insurance \$150\)/);
        assert.equal(r.stderr, "", "every question matched an answer");
      });
    }
  }

  test("a declined confirmation books nothing and says so (exit 0: the tool did its job)", async () => {
    const r = await runCli(["call", "book_trip", "--args", TRIP, "--answers", file("decline.json", '[{"action":"decline"}]'), ...STDIO]);
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout);
    assert.deepEqual([result.structuredContent.booked, result.structuredContent.reason], [false, "declined"]);
    assert.match(result.content[0].text, /^Nothing was booked/);
  });

  test("an unmatched question is cancelled with a notice on stderr", async () => {
    const r = await runCli(["call", "book_trip", "--args", TRIP, "--answers", file("none.json", '[{"match":"^never$","action":"accept"}]'), ...STDIO]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /no scripted answer matches "Please confirm your Barcelona/);
    assert.equal(JSON.parse(r.stdout).structuredContent.reason, "cancelled");
  });

  test("a scripted answer that breaks the form's rules is never sent: errors on stderr, answered cancel", async () => {
    const bad = file("bad.yaml", '- action: accept\n  content: { confirmBooking: true, seatPreference: "middle" }\n');
    const r = await runCli(["call", "book_trip", "--args", TRIP, "--answers", bad, ...STDIO]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Not sent to mcp-elicit-travel: the answer is invalid/);
    assert.match(r.stderr, /seatPreference|Seat/i);
    assert.equal(JSON.parse(r.stdout).structuredContent.reason, "cancelled");
  });
});

describe("elicit call: exit codes", () => {
  test("a tool error exits 1 with the result on stdout", async () => {
    const r = await runCli(["call", "search_flights", "--args", '{"destination":"Atlantis","departDate":"2026-06-15","returnDate":"2026-06-22"}', ...STDIO]);
    assert.equal(r.code, 1);
    const result = JSON.parse(r.stdout);
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /Unknown destination "Atlantis"/);
  });

  test("an unknown tool is a JSON-RPC error from the server: exit 1, the error as JSON", async () => {
    const r = await runCli(["call", "no_such_tool", ...STDIO]);
    assert.equal(r.code, 1, r.stderr);
    assert.ok(JSON.parse(r.stdout).error || JSON.parse(r.stdout).isError, r.stdout);
  });

  const usage: [string, string[], RegExp][] = [
    ["no server", ["call", "search_flights"], /no server: give --url URL .* or -- command/],
    ["both --url and a command", ["call", "x", "--url", "http://127.0.0.1:9/mcp", "--", "node"], /either --url URL or -- command/],
    ["--args that is not JSON", ["call", "x", "--args", "{nope", ...STDIO], /--args is not valid JSON/],
    ["--args that is not an object", ["call", "x", "--args", "[1]", ...STDIO], /--args must be a JSON object/],
    ["a bad --protocol", ["call", "x", "--protocol", "2024-01-01", ...STDIO], /--protocol must be auto or one of/],
    ["a bad --modes", ["call", "x", "--modes", "form,sms", ...STDIO], /--modes takes form, url or form,url/],
    ["a missing answers file", ["call", "x", "--answers", join(dir, "missing.yaml"), ...STDIO], /cannot read answers file .*ENOENT/],
    ["an answers entry without action", ["call", "x", "--answers", file("noaction.json", '[{"match":"x"}]'), ...STDIO], /\[0\]: each entry needs `action`/],
    ["a server that cannot be reached", ["call", "x", "--url", "http://127.0.0.1:9/mcp"], /Could not connect to http:\/\/127\.0\.0\.1:9\/mcp/],
    ["a server command that does not exist", ["call", "x", "--", "/nonexistent/server"], /Could not connect to \/nonexistent\/server/],
    ["a root that is not a directory", ["call", "x", "--root", ANSWERS, ...STDIO], /not a directory/],
  ];
  for (const [what, args, message] of usage) {
    test(`${what}: exit 2 with a one-line reason`, async () => {
      const r = await runCli(args);
      assert.equal(r.code, 2, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, "");
    });
  }

  test("--help documents the answers file and the exit codes", async () => {
    const r = await runCli(["call", "--help"]);
    assert.equal(r.code, 0);
    for (const words of [/Exit codes: 0/, /sample: \{ action: approve/, /--answers <file>/, /--root <dir>/, /ELICIT_MODEL_BASE_URL/]) assert.match(r.stdout, words);
  });
});

describe("elicit demo --answers", () => {
  test("books the Barcelona trip with the person's typed model answer and saves the itinerary into the root", async () => {
    const root = join(dir, "trips");
    mkdirSync(root);
    const answers = file(
      "demo.yaml",
      `- sample: { text: "BCN-14 BCN-11 BCN-12\\nAer Lingus leaves earliest." }
- match: "Barcelona"
  action: accept
  content: { confirmBooking: true, seatPreference: window, roomType: sea view }
- match: "contact|traveler"
  action: accept
  content: { fullName: Ana Garcia, email: ana@example.com, phone: "+34 600 123 456" }
`,
    );
    const r = await runCli(["demo", "--answers", answers, "--root", root], { timeoutMs: 30_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /1 of 4: search flights[\s\S]*44 round-trip fares/);
    assert.match(r.stdout, /chosen by the client's model \(typed-by-person\)[\s\S]*1\. BCN-14/);
    const reference = /Booked! Reference (ELC-[0-9A-Z]{6})/.exec(r.stdout)?.[1];
    assert.ok(reference, r.stdout);
    const saved = join(root, `itinerary-${reference}.md`);
    assert.ok(existsSync(saved), r.stdout);
    assert.deepEqual(readdirSync(root), [`itinerary-${reference}.md`]);
    assert.match(readFileSync(saved, "utf8"), new RegExp(`${reference}[\\s\\S]*Ana Garcia`));
  });

  test("without a terminal or --answers it exits 2 and says why", async () => {
    const r = await runCli(["demo"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /run it in a terminal, or give --answers FILE/);
  });
});
