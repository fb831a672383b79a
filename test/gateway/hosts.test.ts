// `elicit gateway` in front of the travel server, with real hosts that each declare less than the server
// needs: the booking (a model request, two forms, a payment page, a root) completes through the gateway
// for each, its questions answered in headless Chromium on the gateway's page, and the host sees
// ordinary tool results. The revision pins make the server's side 2025-only or 2026-only.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startServer } from "../../src/cli/serve.js";
import { BIN, serveBinHttp } from "../helpers/cli.js";
import { killOnExit } from "../helpers/cleanup.js";
import { scratchFiles, whenFileHas } from "../helpers/files.js";
import { needs } from "../helpers/needs.js";
import { stopChild } from "../helpers/processes.js";
import { NO_MODEL_ENV } from "../helpers/pty.js";
import { browserForTests, signInFromPage } from "../helpers/webui.js";
import {
  answerBooking,
  answerFareDrop,
  answerPayment,
  answerSampling,
  BEST_ARGS,
  bookingAnswer,
  GATEWAY_PAGE,
  SLOW,
  textOf,
  TRIP,
} from "../helpers/travel-page.js";
import { watchText } from "../helpers/stream-text.js";

const { browser } = browserForTests();
const scratch = scratchFiles("elicit-gateway-");
// The Inspector CLI proper (its bin, cli.js, only launches it, and drops the `--` before the server command).
const INSPECTOR = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/inspector-cli/build/index.js", import.meta.url));
const ENV = { ...process.env, ...NO_MODEL_ENV } as Record<string, string>;
const RECORD_BROWSER = fileURLToPath(new URL("../fixtures/record-browser.mjs", import.meta.url));
const RECORD_NOTIFY = fileURLToPath(new URL("../fixtures/record-notify.mjs", import.meta.url));
const CALL = { timeout: 120_000 };

interface Host {
  call(name: string, args: Record<string, unknown>): Promise<{ content?: unknown; isError?: boolean }>;
  /** The gateway page's address for the call under way. */
  page(): Promise<string>;
  /** What the host saw on the gateway's stderr. */
  stderr(): string;
  close(): Promise<void>;
}

const gatewayCommand = (root: string, extra: string[] = []) => [BIN, "gateway", "--no-browser", "--root", root, ...extra];
const travelStdio = ["--", process.execPath, BIN, "serve", "travel"];

/** An SDK v2 client that launches the gateway; `declare` and `answer` make it answer forms itself. */
async function v2Host(
  protocol: string,
  gatewayArgs: string[],
  declare?: { answer: (message: string) => Record<string, unknown> },
): Promise<Host> {
  const client = new Client({ name: "test-host", version: "1.0.0" }, {
    ...(declare ? { capabilities: { elicitation: { form: {} } } } : {}),
    ...(protocol === "2026-07-28" ? { versionNegotiation: { mode: { pin: protocol } } } : { supportedProtocolVersions: [protocol] }),
  } as never);
  if (declare) client.setRequestHandler("elicitation/create", async (request) => declare.answer(String(request.params.message)) as never);
  const transport = new StdioClientTransport({ command: process.execPath, args: gatewayArgs, env: ENV, stderr: "pipe" });
  const stderr = watchText(transport.stderr as Readable, SLOW.timeout);
  await client.connect(transport);
  assert.equal(client.getNegotiatedProtocolVersion(), protocol);
  return {
    call: (name, args) => client.callTool({ name, arguments: args }, CALL) as never,
    page: async () => (await stderr.waitFor(GATEWAY_PAGE))[1]!,
    stderr: stderr.text,
    close: () => client.close(),
  };
}

/** An SDK v1 client, declaring no client capabilities at all. */
async function v1Host(gatewayArgs: string[]): Promise<Host> {
  const client = new V1Client({ name: "v1-host", version: "1.0.0" });
  const transport = new V1StdioClientTransport({ command: process.execPath, args: gatewayArgs, env: ENV, stderr: "pipe" });
  const stderr = watchText(transport.stderr as Readable, SLOW.timeout);
  await client.connect(transport);
  return {
    call: (name, args) => client.callTool({ name, arguments: args }, undefined, CALL) as never,
    page: async () => (await stderr.waitFor(GATEWAY_PAGE))[1]!,
    stderr: stderr.text,
    close: () => client.close(),
  };
}

/** Resolves with line `index` of `file` once it is written (watching its folder), within the deadline. */
function lineOf(file: string, index: number, ms = SLOW.timeout): Promise<string> {
  return whenFileHas(file, (text) => text.split("\n")[index] || undefined, `no line ${index + 1}`, ms);
}

/**
 * MCP Inspector's CLI: one process (and one gateway) per call, in front of the travel server over HTTP.
 * It keeps the gateway's stderr to itself, as hosts do: the person learns of a question when the
 * gateway opens its page in the browser (BROWSER, recorded here), and from each question that waits
 * there, a desktop notification (recorded in `notified`).
 */
function inspectorHost(gatewayArgs: string[], opened: string, notified: string): Host {
  let current: ReturnType<typeof watchText> | undefined;
  let seen = "";
  let calls = 0;
  const children = new Set<ChildProcess>();
  return {
    async call(name, args) {
      const toolArgs = Object.entries(args).map(([k, v]) => `${k}=${String(v)}`);
      const child = killOnExit(
        spawn(
          process.execPath,
          // The server command's first word goes before the options (a target is required there), the rest after --.
          [INSPECTOR, process.execPath, "--method", "tools/call", "--tool-name", name, "--tool-arg", ...toolArgs, "--", ...gatewayArgs],
          // It finds its own package.json relative to the working directory.
          {
            stdio: ["ignore", "pipe", "pipe"],
            env: {
              ...ENV,
              BROWSER: `${process.execPath} ${RECORD_BROWSER} ${opened}`,
              ELICIT_NOTIFY_SEND: RECORD_NOTIFY,
              RECORD_NOTIFY_FILE: notified,
            },
            cwd: dirname(INSPECTOR),
          },
        ),
      );
      calls++;
      children.add(child);
      const stdout = watchText(child.stdout, SLOW.timeout);
      const stderr = (current = watchText(child.stderr, SLOW.timeout));
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      children.delete(child);
      seen += stderr.text();
      assert.equal(code, 0, `the Inspector's call to ${name} failed:\n${stdout.text()}\n${stderr.text()}`);
      return JSON.parse(stdout.text()) as never;
    },
    // Each call's gateway opens its page once, when its first question waits.
    page: () => lineOf(opened, calls - 1),
    stderr: () => seen + (current?.text() ?? ""),
    close: async () => void (await Promise.all([...children].map((c) => stopChild(c)))),
  };
}

/** The whole booking through the gateway; `hostAnswersForms`: the host answers the two forms itself; `task`: the fare watch too. */
async function book(host: Host, root: string, { hostAnswersForms = false, task = false } = {}): Promise<void> {
  const page = await browser().newPage();
  const toPage = async () => {
    const address = await host.page();
    if (page.url() !== address) await page.goto(address);
  };
  try {
    const bestCall = host.call("find_best_flight", BEST_ARGS);
    await toPage();
    await answerSampling(page);
    const best = await bestCall;
    assert.ok(!best.isError, textOf(best));
    assert.match(textOf(best), /1\. BCN-11: British Airways/);

    const bookCall = host.call("book_trip", { ...TRIP, flightId: "BCN-11" });
    if (!hostAnswersForms) {
      await toPage();
      await answerBooking(page);
    }
    const booking = await bookCall;
    const reference = /Booked! Reference (ELC-[0-9A-Z]{6}): /.exec(textOf(booking))?.[1];
    assert.ok(reference, textOf(booking));
    assert.match(textOf(booking), /for Ana Garcia \(seat: aisle, room: city view, travel insurance \$150\)/);

    const payCall = host.call("pay_for_booking", { bookingReference: reference });
    await toPage();
    await answerPayment(page);
    const paid = await payCall;
    assert.match(textOf(paid), /Paid \$3,150 for booking ELC-[0-9A-Z]{6} with the Visa card ending 4242/);

    const saved = await host.call("save_itinerary", { bookingReference: reference });
    assert.match(textOf(saved), new RegExp(`Saved the itinerary for ${reference}`));
    assert.deepEqual(readdirSync(root), [`itinerary-${reference}.md`]);
    assert.match(readFileSync(join(root, `itinerary-${reference}.md`), "utf8"), /Traveler: Ana Garcia/);
    assert.doesNotMatch(host.stderr(), /4242 4242 4242 4242|4242424242424242/, "the card never reaches the host");

    if (task) {
      // A task on the server: the gateway follows it, its question comes to the page, the host sees one call.
      const watchCall = host.call("watch_fare", { ...TRIP, below: 900 });
      await toPage();
      await answerFareDrop(page);
      assert.match(textOf(await watchCall), /Booked the Barcelona fare at \$885: reference FW-BCN-885\./);
    }
  } finally {
    await page.close();
  }
}

const newRoot = (name: string) => {
  const root = join(scratch.dir, name);
  mkdirSync(root);
  return root;
};

describe("elicit gateway: hosts that lack elicitation book the trip", { skip: needs("chromium"), timeout: 300_000 }, () => {
  const hosts: Host[] = [];
  after(() => Promise.all(hosts.map((h) => h.close().catch(() => {}))));

  test("an SDK v1 client that declares no capabilities (2025-11-25), in front of a 2026-07-28-only server", async () => {
    assert.ok(existsSync(BIN), `${BIN} is missing: run npm run build first`);
    const root = newRoot("v1");
    const log = join(scratch.dir, "v1.jsonl");
    const host = await v1Host([...gatewayCommand(root, ["--log", log, "--protocol", "2026-07-28"]), ...travelStdio]);
    hosts.push(host);
    await book(host, root);
    assert.match(host.stderr(), /^elicit gateway: mcp-elicit-travel 1\.0\.0 \(protocol 2026-07-28\) served to the host on stdio\.$/m);
    // The log says what was asked and who answered, never the card (it went to the server's own page).
    const entries = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      entries.map((e) => [e.kind, e.answeredBy, e.action]),
      [
        ["sampling", "web", "approve"],
        ["sampling", "web", "approve"],
        ["form", "web", "accept"],
        ["form", "web", "accept"],
        ["url", "web", "accept"],
      ],
    );
    assert.deepEqual(entries[3]!.content, { fullName: "Ana Garcia", email: "ana@example.com", phone: "+34 600 123 456" });
    assert.match(String(entries[4]!.url), /^http:\/\/127\.0\.0\.1:\d+\/[^?#]*$/);
  });

  test("an SDK v2 client pinned to 2025-06-18 that declares nothing, with the fare watch (a task on the server)", async () => {
    const root = newRoot("v2-2025-06-18");
    const host = await v2Host("2025-06-18", [...gatewayCommand(root), ...travelStdio]);
    hosts.push(host);
    await book(host, root, { task: true });
  });

  test("a 2026-07-28 client that answers forms itself, in front of a 2025-only server: its forms come as rounds held in the gateway", async () => {
    const root = newRoot("v2-2026-on-2025");
    const host = await v2Host("2026-07-28", [...gatewayCommand(root, ["--protocol", "2025-11-25"]), ...travelStdio], {
      answer: bookingAnswer,
    });
    hosts.push(host);
    await book(host, root, { hostAnswersForms: true });
    assert.match(host.stderr(), /\(protocol 2025-11-25\) served to the host on stdio\./);
  });

  test("MCP Inspector's CLI, one gateway per call, in front of the travel server over Streamable HTTP", async () => {
    const travel = await serveBinHttp("travel");
    try {
      const root = newRoot("inspector");
      const opened = join(scratch.dir, "opened.txt");
      const notified = join(scratch.dir, "notified.txt");
      const args = gatewayCommand(root).filter((a) => a !== "--no-browser");
      const host = inspectorHost([...args, "--url", travel.url], opened, notified);
      hosts.push(host);
      await book(host, root);
      // Each question that waited on the page was a notification naming the server and the kind only:
      // never the page's address (it holds the page's secret) nor the server's message.
      // The notifier is a process of its own: its last line is waited for, as the person would see it late.
      const lines = await whenFileHas(
        notified,
        (text) => (text.includes("a link to open") ? text : undefined),
        "no link's notification",
        SLOW.timeout,
      );
      const notes = lines
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as string[]);
      for (const note of notes) {
        assert.deepEqual(note.slice(0, 3), ["--app-name=elicit", "--", "elicit gateway"]);
        assert.match(
          note[3]!,
          /^mcp-elicit-travel waits for you: (a form to fill in|a link to open|a model request to review|a model's answer to review), in your browser\.$/,
        );
      }
      const said = notes.map((note) => note[3]).join("\n");
      for (const kind of ["a form to fill in", "a link to open", "a model request to review"]) assert.ok(said.includes(`: ${kind},`), said);
    } finally {
      await stopChild(travel.child);
    }
  });
});

describe("elicit gateway signs in to a protected server for its host", { skip: needs("chromium"), timeout: 300_000 }, () => {
  test("consent and sign-in on the gateway's page while the host waits to connect; the next gateway reuses the saved sign-in", async () => {
    const served = await startServer("travel", { http: "0", auth: true });
    const config = join(scratch.dir, "config");
    const args = [BIN, "gateway", "--no-browser", "--url", served.url!.href];
    // No BROWSER: the page opens the sign-in itself (in Chromium here).
    const { BROWSER: _none, ...rest } = ENV;
    const env = { ...rest, XDG_CONFIG_HOME: config };
    const page = await browser().newPage();
    const clients: Client[] = [];
    try {
      const connect = async () => {
        const client = new Client({ name: "test-host", version: "1.0.0" }, { supportedProtocolVersions: ["2025-06-18"] });
        clients.push(client);
        const transport = new StdioClientTransport({ command: process.execPath, args, env, stderr: "pipe" });
        const stderr = watchText(transport.stderr as Readable, SLOW.timeout);
        return { connected: client.connect(transport, { timeout: 120_000 }).then(() => client), stderr };
      };
      const first = await connect();
      await page.goto((await first.stderr.waitFor(GATEWAY_PAGE))[1]!);
      await page.getByText(/Sign in to 127\.0\.0\.1:\d+: it requires authorization/).waitFor(SLOW);
      await signInFromPage(page);
      const host = await first.connected;
      const found = await host.callTool({ name: "search_flights", arguments: TRIP });
      assert.match(textOf(found), /44 round-trip fares from New York to Barcelona/);
      await host.close();

      // The sign-in was saved: a new gateway connects with no question.
      const second = await connect();
      const again = await (await second.connected).callTool({ name: "search_flights", arguments: TRIP });
      assert.match(textOf(again), /44 round-trip fares/);
      assert.doesNotMatch(second.stderr.text(), /a question waits/);
    } finally {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      await page.close();
      await served.close();
    }
  });
});
