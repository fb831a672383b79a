// `elicit call`, as a user runs it (`elicit demo --answers` is in demo-answers.test.ts): the built bin against `elicit serve
// travel` over stdio and over Streamable HTTP, on each protocol revision; against a recording
// 2026-07-28 server for what it sends (tools/list first, Mcp-Param headers, no $ref fetched); against
// a hostile server for what reaches the terminal; and against a server that never answers.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createServer as createNetServer } from "node:net";
import { join } from "node:path";
import { BIN, CLI_TEST, runCli, serveBinHttp } from "../helpers/cli.js";
import { scratchFiles } from "../helpers/files.js";
import { killOnExit } from "../helpers/cleanup.js";
import { BOOT_STDERR, HOSTILE, MARKERS } from "../fixtures/hostile-server.js";
import { startRecorder, type Recorder } from "../fixtures/mcp-recorder.js";

const { dir, file } = scratchFiles("elicit-call-");
// Groups whose tests share nothing they change run three at a time: one after another, this file outlasted
// the runner's per-file limit on a busy 2-core machine (each test spends most of its time starting processes).
const PARALLEL = { concurrency: 3 };

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

const serveHttp = () => serveBinHttp("travel");

describe("elicit call book_trip with an answers file", PARALLEL, () => {
  let http: { url: string; child: ChildProcess };
  before(async () => (http = await serveHttp()));
  after(() => http.child.kill("SIGTERM"));

  for (const revision of REVISIONS) {
    for (const transport of ["stdio", "http"] as const) {
      test(`${revision} over ${transport}: booked, with the result as JSON on stdout and exit 0`, CLI_TEST, async () => {
        const server = transport === "stdio" ? STDIO : ["--url", http.url];
        const r = await runCli(["call", "book_trip", "--args", TRIP, "--answers", ANSWERS, "--protocol", revision, ...server]);
        assert.equal(r.code, 0, r.stderr);
        const result = JSON.parse(r.stdout);
        assert.equal(result.structuredContent.booked, true);
        assert.match(result.structuredContent.reference, /^ELC-[0-9A-Z]{6}$/);
        // Flights + hotel $3,000 and the $150 insurance the answers ticked.
        assert.equal(result.structuredContent.totalUsd, 3150);
        assert.match(result.content[0].text, /for Ana Garcia \(seat: aisle, room: garden view, travel insurance \$150\)/);
        // Every question matched an answer: at most a line per answer saying which entry answered it
        // (and the progress line of a connection that took over a second, as on a busy machine).
        for (const line of r.stderr.split("\n").filter(Boolean))
          assert.match(line, /^elicit: (answers entry \[\d\]|connecting to )/, r.stderr);
      });
    }
  }

  test("a declined confirmation books nothing and says so (exit 0: the tool did its job)", CLI_TEST, async () => {
    const r = await runCli(["call", "book_trip", "--args", TRIP, "--answers", file("decline.json", '[{"action":"decline"}]'), ...STDIO]);
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout);
    assert.deepEqual([result.structuredContent.booked, result.structuredContent.reason], [false, "declined"]);
    assert.match(result.content[0].text, /^Nothing was booked/);
  });

  test("an unmatched question is cancelled with a notice on stderr", CLI_TEST, async () => {
    const r = await runCli([
      "call",
      "book_trip",
      "--args",
      TRIP,
      "--answers",
      file("none.json", '[{"match":"^never$","action":"accept"}]'),
      ...STDIO,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /no scripted answer matches "Please confirm your Barcelona/);
    assert.equal(JSON.parse(r.stdout).structuredContent.reason, "cancelled");
  });

  test("a scripted answer that breaks the form's rules is never sent: errors on stderr, answered cancel", CLI_TEST, async () => {
    const bad = file("bad.yaml", '- action: accept\n  content: { confirmBooking: true, seatPreference: "middle" }\n');
    const r = await runCli(["call", "book_trip", "--args", TRIP, "--answers", bad, ...STDIO]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Not sent to mcp-elicit-travel: the answer is invalid/);
    assert.match(r.stderr, /seatPreference|Seat/i);
    assert.equal(JSON.parse(r.stdout).structuredContent.reason, "cancelled");
  });
});

describe("elicit call: exit codes", PARALLEL, () => {
  test("a tool error exits 1 with the result on stdout", CLI_TEST, async () => {
    const r = await runCli([
      "call",
      "search_flights",
      "--args",
      '{"destination":"Atlantis","departDate":"2026-06-15","returnDate":"2026-06-22"}',
      ...STDIO,
    ]);
    assert.equal(r.code, 1);
    const result = JSON.parse(r.stdout);
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /Unknown destination "Atlantis"/);
  });

  test("a tool the server does not list is not called: exit 2, naming the tools it has", CLI_TEST, async () => {
    const r = await runCli(["call", "no_such_tool", ...STDIO]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, "");
    assert.match(
      r.stderr,
      /^elicit: no tool named "no_such_tool": the server offers: search_flights, find_best_flight, book_trip, save_itinerary, watch_fare, pay_for_booking, connect_frequent_flyer\.$/m,
    );
  });

  test("--args that break the tool's input schema are refused before the call, naming each field and rule", CLI_TEST, async () => {
    const r = await runCli(["call", "search_flights", "--args", '{"destination":5,"departDate":"2026-06-15"}', ...STDIO]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^elicit: --args do not fit the input schema of search_flights; nothing was called:$/m);
    assert.match(r.stderr, /^ {2}destination: must be string \[type\]$/m);
    assert.match(r.stderr, /^ {2}returnDate: required, but not given \[required\]$/m);
  });

  test("a usage error says only what is wrong: no word about answers or terminals first", CLI_TEST, async () => {
    const r = await runCli(["call", "search_flights", "--protocol", "2024-01-01", ...STDIO]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `elicit: --protocol must be auto or one of 2025-06-18, 2025-11-25, 2026-07-28; got "2024-01-01".\n`);
  });

  test(
    "without --answers or a terminal, the notice comes when the server first asks, and the question is cancelled",
    CLI_TEST,
    async () => {
      const r = await runCli(["call", "book_trip", "--args", TRIP, ...STDIO]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stderr,
        /^elicit: the server asks a question, but there is no --answers file and no terminal: every question is cancelled\.\nelicit: no scripted answer matches "Please confirm your Barcelona/m,
      );
      assert.equal(JSON.parse(r.stdout).structuredContent.reason, "cancelled");
    },
  );

  const usage: [string, string[], RegExp][] = [
    ["no server", ["call", "search_flights"], /no server: give --url URL .* or -- command/],
    ["both --url and a command", ["call", "x", "--url", "http://127.0.0.1:9/mcp", "--", "node"], /either --url URL or -- command/],
    ["--args that is not JSON", ["call", "x", "--args", "{nope", ...STDIO], /--args is not valid JSON/],
    ["--args that is not an object", ["call", "x", "--args", "[1]", ...STDIO], /--args must be a JSON object/],
    ["a bad --protocol", ["call", "x", "--protocol", "2024-01-01", ...STDIO], /--protocol must be auto or one of/],
    ["a bad --modes", ["call", "x", "--modes", "form,sms", ...STDIO], /--modes takes form, url or form,url/],
    ["a missing answers file", ["call", "x", "--answers", join(dir, "missing.yaml"), ...STDIO], /cannot read answers file .*ENOENT/],
    [
      "an answers entry without action",
      ["call", "x", "--answers", file("noaction.json", '[{"match":"x"}]'), ...STDIO],
      /\[0\]: each entry needs `action`/,
    ],
    [
      "a server that cannot be reached",
      ["call", "x", "--url", "http://127.0.0.1:9/mcp"],
      /Could not connect to http:\/\/127\.0\.0\.1:9\/mcp/,
    ],
    ["a server command that does not exist", ["call", "x", "--", "/nonexistent/server"], /Could not connect to \/nonexistent\/server/],
    ["a root that is not a directory", ["call", "x", "--root", ANSWERS, ...STDIO], /not a directory/],
    [
      "a --connect-timeout that is not a positive number",
      ["call", "x", "--connect-timeout", "soon", ...STDIO],
      /--connect-timeout takes a number of seconds greater than 0, e\.g\. 30; got "soon"/,
    ],
  ];
  for (const [what, args, message] of usage) {
    test(`${what}: exit 2 with a one-line reason`, CLI_TEST, async () => {
      const r = await runCli(args);
      assert.equal(r.code, 2, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, "");
    });
  }

  test("--help documents the answers file and the exit codes", CLI_TEST, async () => {
    const r = await runCli(["call", "--help"]);
    assert.equal(r.code, 0);
    for (const words of [/Exit codes: 0/, /sample: \{ action: approve/, /--answers <file>/, /--root <dir>/, /ELICIT_MODEL_BASE_URL/])
      assert.match(r.stdout, words);
  });
});

const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]|\p{Cf}/u;

describe("elicit call lists the tools first (a recording 2026-07-28 server)", PARALLEL, () => {
  const recorders: Recorder[] = [];
  after(() => Promise.all(recorders.map((r) => r.close())));
  const record = async () => {
    const recorder = await startRecorder({
      tools: (canary) => [
        {
          name: "headers_tool",
          description: "Mirrors two parameters into headers",
          inputSchema: {
            type: "object",
            properties: {
              region: { type: "string", "x-mcp-header": "Region" },
              priority: { type: "integer", "x-mcp-header": "Priority" },
              note: { type: "string" },
            },
            required: ["region"],
          },
        },
        {
          name: "bad_header_tool",
          description: "A header name with a space",
          inputSchema: { type: "object", properties: { value: { type: "string", "x-mcp-header": "My Region" } } },
        },
        {
          name: "ref_tool",
          description: "Refers to a local definition and to a schema on the network",
          inputSchema: {
            $schema: "https://json-schema.org/draft/2020-12/schema",
            type: "object",
            $defs: { userId: { type: "string", pattern: "^[a-z0-9-]+$" } },
            properties: { id: { $ref: "#/$defs/userId" }, profile: { $ref: canary } },
            required: ["id"],
          },
        },
      ],
    });
    recorders.push(recorder);
    return recorder;
  };

  test("tools/list comes before tools/call, and x-mcp-header parameters ride in Mcp-Param-* headers", CLI_TEST, async () => {
    const server = await record();
    const r = await runCli([
      "call",
      "headers_tool",
      "--args",
      '{"region":"us-west1","priority":42,"note":"not a header"}',
      "--url",
      server.url,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      JSON.parse(r.stdout).content[0].text,
      'called headers_tool with {"region":"us-west1","priority":42,"note":"not a header"}',
    );
    const methods = server.requests.map((q) => q.method);
    assert.ok(methods.indexOf("tools/list") >= 0 && methods.indexOf("tools/list") < methods.indexOf("tools/call"), methods.join(", "));
    const [call] = server.calls();
    assert.equal(call!.headers["mcp-param-region"], "us-west1");
    assert.equal(call!.headers["mcp-param-priority"], "42");
    assert.equal(call!.headers["mcp-param-note"], undefined, "no header for a parameter without x-mcp-header");
    assert.deepEqual([call!.headers["mcp-method"], call!.headers["mcp-name"]], ["tools/call", "headers_tool"]);
  });

  test("a tool the SDK excludes (invalid x-mcp-header) is refused with the SDK's reason, and nothing is called", CLI_TEST, async () => {
    const server = await record();
    const r = await runCli(["call", "bad_header_tool", "--args", '{"value":"x"}', "--url", server.url]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, "");
    assert.deepEqual(server.calls(), []);
    assert.match(r.stderr, /^\[mcp-sdk\] excluding tool 'bad_header_tool' from tools\/list: invalid x-mcp-header declaration/m);
    assert.match(
      r.stderr,
      /^elicit: not calling bad_header_tool: the MCP SDK excluded it from the server's tools \(invalid x-mcp-header declaration — value: x-mcp-header 'My Region' is not a valid RFC 9110 token/m,
    );
  });

  test("a null for a parameter that is not required passes the check, is sent, and gets no Mcp-Param header", CLI_TEST, async () => {
    const server = await record();
    const r = await runCli(["call", "headers_tool", "--args", '{"region":"eu","priority":null}', "--url", server.url]);
    assert.equal(r.code, 0, r.stderr);
    const [call] = server.calls();
    assert.deepEqual(call!.params.arguments, { region: "eu", priority: null });
    assert.equal(call!.headers["mcp-param-priority"], undefined);
    const required = await runCli(["call", "headers_tool", "--args", '{"region":null}', "--url", server.url]);
    assert.equal(required.code, 2, required.stderr);
    assert.match(required.stderr, /^ {2}region: must be string \[type\]$/m);
  });

  test("elicit tools prints the list as the SDK keeps it: the excluded tool left out, with the SDK's warning", CLI_TEST, async () => {
    const server = await record();
    const r = await runCli(["tools", "--url", server.url]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      JSON.parse(r.stdout).tools.map((t: { name: string }) => t.name),
      ["headers_tool", "ref_tool"],
    );
    assert.match(r.stderr, /^\[mcp-sdk\] excluding tool 'bad_header_tool' from tools\/list/m);
    assert.deepEqual(server.calls(), []);
  });

  test("a $ref to a network URI is never fetched; local $defs still check --args", CLI_TEST, async () => {
    const server = await record();
    const ok = await runCli(["call", "ref_tool", "--args", '{"id":"ana-1","profile":{"displayName":"Ana"}}', "--url", server.url]);
    assert.equal(ok.code, 0, ok.stderr);
    const bad = await runCli(["call", "ref_tool", "--args", '{"id":"Ana Garcia"}', "--url", server.url]);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /^ {2}id: must match pattern "\^\[a-z0-9-\]\+\$" \[pattern\]$/m);
    assert.equal(server.canaryHits, 0, "the canary URL was fetched");
    assert.equal(server.calls().length, 1, "only the valid call reached the server");
  });
});

describe("elicit call: connecting", () => {
  const HANG = ["--", process.execPath, "-e", "setTimeout(() => {}, 100000)"];
  const hang = `${process.execPath} -e setTimeout(() => {}, 100000)`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

  test(
    "a server that never answers: a notice while waiting, then exit 2 after --connect-timeout, saying what did not answer",
    CLI_TEST,
    async () => {
      const r = await runCli(["call", "x", "--connect-timeout", "1.5", ...HANG]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, new RegExp(`^elicit: connecting to ${hang}… \\(gives up after 1\\.5 s; see --connect-timeout\\)$`, "m"));
      assert.match(
        r.stderr,
        new RegExp(
          `^elicit: ${hang} started but did not answer server/discover or initialize within 1\\.5 s \\(wait longer with --connect-timeout SECONDS\\)\\.$`,
          "m",
        ),
      );
    },
  );

  test("ELICIT_CONNECT_TIMEOUT sets it too; a pinned 2025 revision names its handshake", CLI_TEST, async () => {
    const r = await runCli(["call", "x", "--protocol", "2025-11-25", ...HANG], { env: { ELICIT_CONNECT_TIMEOUT: "1" } });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`^elicit: ${hang} started but did not answer initialize within 1 s`, "m"));
  });

  test("an HTTP server that accepts the connection and never answers", CLI_TEST, async () => {
    const sockets: import("node:net").Socket[] = [];
    const silent = createNetServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(silent.address() as import("node:net").AddressInfo).port}/mcp`;
    try {
      const r = await runCli(["call", "x", "--connect-timeout", "1", "--url", url]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(`^elicit: ${url.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} did not answer server/discover or initialize within 1 s`, "m"),
      );
    } finally {
      sockets.forEach((s) => s.destroy());
      silent.close();
    }
  });
});

describe("elicit call: what a hostile server gets onto the terminal", () => {
  const FIXTURE = join(import.meta.dirname, "..", "fixtures", "hostile-server.ts");
  const HOSTILE_STDIO = ["--", process.execPath, "--import", "tsx", FIXTURE];

  test("its stderr arrives line by line as inert `[server]` lines; the JSON on stdout has every control escaped", CLI_TEST, async () => {
    const r = await runCli(["call", "hostile_tool", "--args", '{"region":"eu"}', ...HOSTILE_STDIO]);
    assert.equal(r.code, 0, r.stderr);
    // Every line is the server's, labelled; but elicit's own progress line of a connection that took over
    // a second (the fixture starts through tsx: on a busy machine it does).
    for (const line of r.stderr.split("\n").filter((l) => l && !l.startsWith("elicit: connecting to ")))
      assert.match(line, /^\[server\] /, `unlabelled: ${JSON.stringify(line)}`);
    assert.match(r.stderr, /^\[server\] HOSTILE-BOOT-LINE one two click me three$/m);
    assert.match(r.stderr, /^\[server\] coloured c1 osc dsr$/m);
    assert.match(
      r.stderr,
      /^\[server\] fake-prompt\n\[server\] txet desrever end$/m,
      "a lone CR starts a new line instead of overwriting one",
    );
    assert.match(r.stderr, new RegExp(`^\\[server\\] ${MARKERS.call} `, "m"));
    assert.doesNotMatch(r.stderr, CONTROLS);
    assert.doesNotMatch(r.stdout, CONTROLS);
    // Escaped, not changed: the value is the server's, byte for byte.
    const result = JSON.parse(r.stdout);
    assert.equal(result.content[0].text, `result ${Object.values(HOSTILE).join("")}`);
    assert.ok(BOOT_STDERR.every((line) => !r.stderr.includes(line)));
  });

  test("the SDK's warning about its invalid x-mcp-header (over HTTP, 2026-07-28) is made inert too", CLI_TEST, async () => {
    const server = killOnExit(spawn(process.execPath, ["--import", "tsx", FIXTURE, "--http"], { stdio: ["ignore", "pipe", "ignore"] }));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        server.stdout!.on("data", (d) => {
          out += d;
          if (out.includes("\n")) resolve(out.trim());
        });
        server.on("exit", (code) => reject(new Error(`hostile server exited ${code}`)));
      });
      const r = await runCli(["call", "hostile_tool", "--url", url]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(
          `^\\[mcp-sdk\\] excluding tool 'hostile_tool' from tools/list: invalid x-mcp-header declaration — region: x-mcp-header '${MARKERS.header}click me$`,
          "m",
        ),
      );
      assert.match(r.stderr, /^elicit: not calling hostile_tool: the MCP SDK excluded it/m);
      assert.doesNotMatch(r.stderr, CONTROLS);
      assert.equal(r.stdout, "");
    } finally {
      server.kill("SIGTERM");
    }
  });
});
