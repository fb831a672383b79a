// `elicit connect` in a real pseudo-terminal: the built bin (npm test builds first) against `elicit
// serve travel` over stdio. Pick a tool from the menu, fill its arguments through the form built from
// its input schema, read the result; add a root; quit from the menu, or with Ctrl-C. Then against a
// hostile server (nothing of its reaches the pty raw), a server that never answers (a spinner, then a
// timeout), 2026-07-28 servers that name themselves in unusual places; and `elicit serve` at a terminal.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { BIN } from "../helpers/cli.js";
import { HOSTILE, MARKERS } from "../fixtures/hostile-server.js";
import { startRecorder } from "../fixtures/mcp-recorder.js";
import { KEY, NO_MODEL_ENV, SLOW_MS, startProgram, tempDirs, type ProgramSession } from "../helpers/pty.js";
import { killOnExit } from "../helpers/cleanup.js";
import { processGone } from "../helpers/deferred.js";

const tempDir = tempDirs("elicit-connect-pty-");
const NO_MODEL = NO_MODEL_ENV;
const SLOW = SLOW_MS;

function startConnect(root: string): ProgramSession {
  assert.ok(existsSync(BIN), `${BIN} is missing: run npm run build first`);
  return startProgram(process.execPath, [BIN, "connect", "--root", root, "--", process.execPath, BIN, "serve", "travel"], {
    env: NO_MODEL,
    name: "connect",
  });
}

const asking = (label: string) => new RegExp(`^\\? ${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?: |$)`, "m");

describe("elicit connect in a terminal", () => {
  test("call search_flights through its arguments form, add a root, quit from the menu", async () => {
    const root = tempDir();
    const second = tempDir();
    const s = startConnect(root);
    try {
      const menu = await s.waitFor("? What next?", { timeoutMs: SLOW });
      assert.match(menu, /^Connected to mcp-elicit-travel 1\.0\.0 \(protocol [0-9-]+\)\.$/m);
      assert.match(menu, /No model is configured: you will type the answers to sampling requests yourself/);
      assert.match(
        menu,
        new RegExp(
          `❯ Call search_flights\\n {2}Call find_best_flight\\n {2}Call book_trip\\n {2}Call save_itinerary\\n {2}Call watch_fare\\n {2}Call pay_for_booking\\n {2}Call connect_frequent_flyer\\n {2}Add a root directory\\n {2}Remove root ${basename(root)}\\n {2}Quit\\n`,
        ),
      );
      assert.match(menu, /Round-trip fares from New York for a destination and dates/, "the highlighted tool's description");
      s.press(KEY.enter); // Call search_flights

      const form = await s.waitFor("? Answer this form?", { after: "✔ What next? Call search_flights" });
      assert.match(form, /^Arguments for search_flights \(a tool of mcp-elicit-travel 1\.0\.0\)\n {2}Round-trip fares from New York/m);
      assert.doesNotMatch(form, /Form from|Decline/, "the client's own form: not the server's, nobody to decline to");
      assert.match(form, /❯ Fill it in \(3 fields\)\n {2}Cancel \(do not call search_flights\)/);
      s.press(KEY.enter);
      assert.match(
        await s.waitFor("? Destination *", { after: "✔ Answer this form?" }),
        /City or airport code: Barcelona \(BCN\), Lisbon \(LIS\)/,
      );
      s.type("Barcelona");
      s.press(KEY.enter);
      assert.match(await s.waitFor("? Depart date *", { after: "✔ Destination * Barcelona" }), /Outbound date, YYYY-MM-DD/);
      s.type("2026-06-15");
      s.press(KEY.enter);
      assert.match(await s.waitFor("? Return date *", { after: "✔ Depart date * 2026-06-15" }), /Return date, YYYY-MM-DD/);
      s.type("2026-06-22");
      s.press(KEY.enter);
      const review = await s.waitFor("? Send these answers?", { after: "Review your answers" });
      assert.match(review, /Destination \* +Barcelona\n {2}Depart date \* +2026-06-15\n {2}Return date \* +2026-06-22\n/);
      s.press(KEY.enter); // Submit

      const result = await s.waitFor("? What next?", { after: "Calling search_flights on mcp-elicit-travel 1.0.0…", timeoutMs: SLOW });
      assert.match(
        result,
        /^44 round-trip fares from New York to Barcelona \(BCN\), June 15-22, per traveler:\nBCN-01: Delta, economy, \$1,240 round trip/m,
      );
      assert.match(result, /^BCN-44: KLM, economy, \$950 round trip/m);
      assert.match(result, /^Hotel for the stay: Hotel Mar Bella Beachfront \(beachfront hotel\), 7 nights at \$260\/night\.$/m);
      assert.doesNotMatch(result, /The tool reported an error/);

      // A second root, then it is listed.
      s.press(KEY.down, KEY.down, KEY.down, KEY.down, KEY.down, KEY.down, KEY.down); // past the seven tools
      await s.waitFor(new RegExp(`❯ Add a root directory[\\s\\S]*Roots now: ${basename(root)}$`, "m"), { after: "Hotel for the stay" });
      s.press(KEY.enter);
      await s.waitFor(asking("Directory to share with the server:"), { after: "✔ What next? Add a root directory" });
      s.press(KEY.enter);
      await s.waitFor("Type a directory path", { after: "? Directory to share" });
      s.type(second);
      s.press(KEY.enter);
      const added = await s.waitFor("? What next?", { after: `Added root ${pathToFileURL(second).href}` });
      assert.match(added, new RegExp(`Remove root ${basename(root)}\\n {2}Remove root ${basename(second)}\\n {2}Quit`));
      s.press(KEY.down, KEY.down, KEY.down, KEY.down, KEY.down, KEY.down, KEY.down); // past the seven tools
      await s.waitFor(`Roots now: ${basename(root)}, ${basename(second)}`, { after: `Added root` });

      s.press(KEY.down, KEY.down, KEY.down); // past both roots to Quit
      await s.waitFor(/❯ Quit/, { after: "Added root" });
      s.press(KEY.enter);
      assert.equal(await s.exitCode(SLOW), 0);
      assert.match(s.screen(), /✔ What next\? Quit$/);
      assert.ok(s.cursorVisible(), "the cursor is visible again");
    } finally {
      s.close();
    }
  });

  test("a call that becomes a task: its status lines, then its question when the fare drops, then its result", async () => {
    const s = startConnect(tempDir());
    try {
      await s.waitFor("? What next?", { timeoutMs: SLOW });
      s.press(KEY.down, KEY.down, KEY.down, KEY.down, KEY.enter); // Call watch_fare
      await s.waitFor("? Answer this form?", { after: "✔ What next? Call watch_fare" });
      s.press(KEY.enter);
      for (const [label, value] of [
        ["Destination", "Barcelona"],
        ["Depart date", "2026-06-15"],
        ["Return date", "2026-06-22"],
        ["Below", "900"],
      ] as const) {
        await s.waitFor(asking(`${label} *`), { after: "✔ Answer this form?" });
        s.type(value);
        s.press(KEY.enter);
      }
      await s.waitFor("? Send these answers?", { after: "Review your answers" });
      s.press(KEY.enter); // Submit
      const asked = await s.waitFor("? Answer this form?", { after: "Calling watch_fare on mcp-elicit-travel 1.0.0…", timeoutMs: SLOW });
      assert.match(asked, /^elicit: The task is running on the server \(task [0-9a-f-]{36}\)$/m, "the task's status, a line each change");
      assert.match(asked, /Barcelona dropped to \$885 \(under your \$900\)\. Book this fare\?/);
      s.press(KEY.enter); // Fill it in
      await s.waitFor(asking("Book the Barcelona fare at $885"), { after: "Book this fare?" });
      s.press(KEY.up, KEY.enter); // Yes
      await s.waitFor("? Send these answers?", { after: "✔ Book the Barcelona fare at $885 * Yes" });
      s.press(KEY.enter);
      await s.waitFor("? What next?", { after: "Booked the Barcelona fare at $885", timeoutMs: SLOW });
      assert.match(
        s.screen(),
        /^elicit: The task is finished \(task [0-9a-f-]{36}\)\nBooked the Barcelona fare at \$885: reference FW-BCN-885\.$/m,
      );
      const id = /^elicit: The task is finished \(task ([0-9a-f-]{36})\)$/m.exec(s.screen())![1]!;
      // The menu now shows the tasks of this session, as the server has them now.
      s.press(KEY.down, KEY.down, KEY.down, KEY.down, KEY.down, KEY.down, KEY.down); // past the seven tools
      await s.waitFor(/❯ Show tasks/, { after: "Booked the Barcelona fare" });
      s.press(KEY.enter);
      await s.waitFor("? What next?", { after: `${id}  completed` });
      s.press(KEY.ctrlC);
      assert.equal(await s.exitCode(SLOW), 0);
    } finally {
      s.close();
    }
  });

  test("a tool that runs long: a spinner says what is awaited; Ctrl-C then ends with a sentence, exit 130, the server gone", async () => {
    const dir = tempDir();
    const pidFile = join(dir, "server.pid");
    const server = [process.execPath, "--import", "tsx", join(import.meta.dirname, "..", "fixtures", "slow-tool-server.ts"), pidFile];
    const s = startProgram(process.execPath, [BIN, "connect", "--", ...server], { env: NO_MODEL, name: "connect" });
    try {
      await s.waitFor("? What next?", { timeoutMs: SLOW });
      const pid = Number(readFileSync(pidFile, "utf8"));
      s.press(KEY.enter); // Call wait: no arguments, so no form
      await s.waitFor("Waiting for slow-server 1.0.0 (wait)", { timeoutMs: SLOW });
      s.press(KEY.ctrlC);
      await s.waitFor("elicit connect: stopped (Ctrl-C) while waiting for slow-server 1.0.0 (wait): no result here.", { timeoutMs: SLOW });
      assert.equal(await s.exitCode(SLOW), 130);
      assert.ok(s.cursorVisible(), "the cursor is visible again");
      await processGone(pid, SLOW, "the server elicit connect started");
    } finally {
      s.close();
    }
  });

  test("Ctrl-C at the menu quits with exit 0", async () => {
    const s = startConnect(tempDir());
    try {
      await s.waitFor("? What next?", { timeoutMs: SLOW });
      s.press(KEY.ctrlC);
      assert.equal(await s.exitCode(SLOW), 0);
      assert.doesNotMatch(s.screen(), /elicit: /, "no error");
      assert.ok(s.cursorVisible(), "the cursor is visible again");
    } finally {
      s.close();
    }
  });
});

const FIXTURE = join(import.meta.dirname, "..", "fixtures", "hostile-server.ts");

/**
 * The sequences of HOSTILE a terminal would act on and that our own screens never use (our styling
 * moves the cursor and colours text, and the pty turns "\n" into "\r\n", so a cursor move, a bell
 * or a CR of the server's cannot be told apart from ours in the bytes: those are checked by content).
 */
const SERVER_ONLY = Object.entries(HOSTILE).filter(([name]) => !["cursorUp", "bell", "carriageReturn"].includes(name));
/** Introducers no screen of ours writes: OSC, DCS, SOS/PM/APC, DSR, C1 controls, DEL, bidi controls. */
const FOREIGN = /\u001b[\]PX^_]|\u001b\[6n|[\u007f-\u009f]|[\u202a-\u202e\u2066-\u2069]/;

function assertInert(raw: string) {
  for (const [name, sequence] of SERVER_ONLY) assert.ok(!raw.includes(sequence), `the server's ${name} reached the terminal`);
  const foreign = FOREIGN.exec(raw);
  assert.equal(
    foreign,
    null,
    `a control sequence of the server's reached the terminal: ${JSON.stringify(raw.slice(Math.max(0, (foreign?.index ?? 0) - 40), (foreign?.index ?? 0) + 40))}`,
  );
}

describe("elicit connect against a hostile server", () => {
  test("stdio: the server's stderr, name and texts reach the pty inert; its stderr labelled [server]", async () => {
    const s = startProgram(process.execPath, [BIN, "connect", "--", process.execPath, "--import", "tsx", FIXTURE], {
      env: NO_MODEL,
      name: "connect",
    });
    try {
      const menu = await s.waitFor("? What next?", { timeoutMs: SLOW });
      assert.match(menu, /^\[server\] HOSTILE-BOOT-LINE one two click me three$/m);
      assert.match(menu, /^\[server\] fake-prompt$/m);
      assert.match(menu, /^Connected to evilserver 6\.6\.6 \(protocol [0-9-]+\)\.$/m);
      assert.match(menu, /❯ Call hostile_tool\n {2}Call plain_tool\n/);
      s.press(KEY.down, KEY.enter); // Call plain_tool: no arguments, so no form
      const after = await s.waitFor("? What next?", { after: "plain result", timeoutMs: SLOW });
      assert.ok(s.screen().includes(`[server] ${MARKERS.call} plain`), s.screen());
      assert.doesNotMatch(after, /The tool reported an error/);
      s.press(KEY.ctrlC);
      assert.equal(await s.exitCode(SLOW), 0);
      assertInert(s.raw());
    } finally {
      s.close();
    }
  });

  test("HTTP at 2026-07-28: the SDK's warning quoting its invalid x-mcp-header is inert, and the tool is left out", async () => {
    const server = killOnExit(spawn(process.execPath, ["--import", "tsx", FIXTURE, "--http"], { stdio: ["ignore", "pipe", "ignore"] }));
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      server.stdout!.on("data", (d) => (out += d).includes("\n") && resolve(out.trim()));
      server.on("exit", (code) => reject(new Error(`hostile server exited ${code}`)));
    });
    const s = startProgram(process.execPath, [BIN, "connect", "--url", url], { env: NO_MODEL, name: "connect" });
    try {
      const menu = await s.waitFor("? What next?", { timeoutMs: SLOW });
      assert.match(
        menu,
        new RegExp(
          `^\\[mcp-sdk\\] excluding tool 'hostile_tool' from tools/list: invalid x-mcp-header declaration — region: x-mcp-header '${MARKERS.header}click me$`,
          "m",
        ),
      );
      assert.match(menu, /^Connected to evilserver 6\.6\.6 \(protocol 2026-07-28\)\.$/m);
      assert.match(menu, /❯ Call plain_tool\n {2}Add a root directory/);
      s.press(KEY.ctrlC);
      assert.equal(await s.exitCode(SLOW), 0);
      assertInert(s.raw());
    } finally {
      s.close();
      server.kill("SIGTERM");
    }
  });
});

describe("elicit connect: connecting", () => {
  test("a spinner names the server while it connects; one that never answers is given up after --connect-timeout (exit 2)", async () => {
    const s = startProgram(
      process.execPath,
      [BIN, "connect", "--connect-timeout", "3", "--", process.execPath, "-e", "setTimeout(() => {}, 100000)"],
      { env: NO_MODEL, name: "connect" },
    );
    try {
      await s.waitFor(/Connecting to \S+ -e setTimeout\(\(\) => \{\}, 100000\)…/);
      assert.equal(await s.exitCode(SLOW), 2);
      assert.match(
        s.screen(),
        /^elicit: \S+ -e setTimeout\(\(\) => \{\}, 100000\) started but did not answer server\/discover or initialize within 3 s \(wait longer with --connect-timeout SECONDS\)\.$/m,
      );
      assert.doesNotMatch(s.screen(), /Connecting to/, "the spinner line is cleared");
      assert.ok(s.cursorVisible(), "the cursor is visible again");
    } finally {
      s.close();
    }
  });

  test("2026-07-28 servers that name themselves outside the discover result's _meta are named anyway", async () => {
    for (const [at, expected] of [
      ["top", "Connected to draft-server 0.9.0 (protocol 2026-07-28)."],
      ["tools-list-meta", "Connected to listed-server 1.2.3 (protocol 2026-07-28)."],
      ["none", "Connected to a server that gave no name (protocol 2026-07-28)."],
    ] as const) {
      const name = at === "top" ? "draft-server" : "listed-server";
      const recorder = await startRecorder({
        tools: [{ name: "t", inputSchema: { type: "object" } }],
        serverInfo: { name, version: at === "top" ? "0.9.0" : "1.2.3", at },
      });
      const s = startProgram(process.execPath, [BIN, "connect", "--url", recorder.url], { env: NO_MODEL, name: "connect" });
      try {
        const menu = await s.waitFor("? What next?", { timeoutMs: SLOW });
        assert.ok(menu.includes(expected), menu);
        s.press(KEY.ctrlC);
        assert.equal(await s.exitCode(SLOW), 0);
      } finally {
        s.close();
        await recorder.close();
      }
    }
  });
});

describe("elicit serve at a terminal", () => {
  test("on stdio with a terminal for stdin, it says it waits for an MCP client and how to connect one; Ctrl-C stops it", async () => {
    const s = startProgram(process.execPath, [BIN, "serve", "travel"], { name: "server" });
    try {
      const screen = await s.waitFor("Ctrl-C stops it.", { timeoutMs: SLOW });
      assert.match(
        screen,
        /^elicit serve travel: waiting for an MCP client on stdio \(standard input is this terminal, not a client\)\.$/m,
      );
      assert.match(screen, /^ {2}Let a client start it instead: {2}npx elicit connect -- npx elicit serve travel$/m);
      assert.match(
        screen,
        /^ {2}Or serve it over HTTP: {10}npx elicit serve travel --http 3000, then npx elicit connect --url http:\/\/127\.0\.0\.1:3000\/mcp$/m,
      );
      s.press(KEY.ctrlC);
      assert.equal(await s.exitCode(SLOW), 0);
    } finally {
      s.close();
    }
  });
});
