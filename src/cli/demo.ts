// `elicit demo`: the travel example end to end. Starts `elicit serve travel` over stdio and
// walks a person through a Barcelona trip (2026-06-15 → 2026-06-22): search, the best flight chosen
// by the client's model after they review the model call, the booking forms and the passport's photo
// page (uploaded on the server's page), paying on the server's
// secure payment page and connecting a SkyMiles account (URL mode: the browser), and the itinerary
// saved into a root directory. With --answers, a headless browser completes the two pages when one is installed.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ProtocolError, type CallToolResult } from "@modelcontextprotocol/client";
import { browserOpener } from "../common/open-url.js";
import { sanitizeText } from "../common/sanitize.js";
import { USER_REJECTED } from "../client/sampling.js";
import { DEMO_TRIP } from "../servers/travel/flights.js";
import { DEFAULT_PREFERENCES } from "../servers/travel/ranking.js";
import type { ElicitationUI, UrlAnswer } from "../client/ui.js";
import { readAnswersFile } from "../ui/answers-file.js";
import { scriptedUI } from "../ui/scripted.js";
import { terminalUI, type TerminalUI } from "../ui/terminal/index.js";
import type { WebUI } from "../ui/web/server/web-ui.js";
import { EXIT, HostError } from "./exit.js";
import { serverLabel, withHost, type Host } from "./host.js";
import { hideSpinner } from "./host-output.js";
import { whenInterrupted } from "./interrupt.js";
import { headlessPages, type HeadlessPages } from "./demo-browser.js";
import { printResult } from "./result.js";
import { taskReporter } from "./task-reports.js";
import { startWebUI, type WebFlags } from "./web.js";

export interface DemoOptions {
  protocol: string;
  modes: string;
  root: string[];
  answers?: string;
}

const TRIP = { destination: "Barcelona", departDate: DEMO_TRIP.departDate, returnDate: DEMO_TRIP.returnDate };
const MAIN = fileURLToPath(new URL("./main.js", import.meta.url));
const out = (text: string) => process.stdout.write(text + "\n");

/** Where the demo is, for the sentence Ctrl-C ends it with. */
interface Progress {
  step?: string;
  host?: Host;
  /** At a terminal: shows what each call waits for. */
  terminal?: TerminalUI;
}

export async function demo(options: DemoOptions & WebFlags): Promise<number> {
  const roots = [...options.root];
  let madeRoot: string | undefined;
  let web: WebUI | undefined;
  let headless: Promise<HeadlessPages | { unavailable: string }> | undefined;
  let closing = false;
  const progress: Progress = {};
  // A root the demo made itself goes away again when nothing was saved in it.
  const removeEmptyRoot = () => {
    if (madeRoot && existsSync(madeRoot) && readdirSync(madeRoot).length === 0) rmSync(madeRoot, { recursive: true, force: true });
  };
  const stopHandling = whenInterrupted({
    clearScreen() {
      hideSpinner();
      progress.terminal?.stopWaiting();
    },
    say(how) {
      const at = progress.step ? ` at step ${progress.step}` : " before the first step";
      const kept = madeRoot && existsSync(madeRoot) && readdirSync(madeRoot).length > 0;
      const root = madeRoot ? (kept ? `; the itinerary stays in ${madeRoot}` : `; its temporary folder ${madeRoot} is removed`) : "";
      return `elicit demo: stopped (${how})${at}. The travel server is stopped${root}.`;
    },
    async cleanup() {
      removeEmptyRoot();
      closing = true;
      await Promise.allSettled([
        progress.host?.close(),
        web?.close(),
        headless?.then((browser) => ("close" in browser ? browser.close() : undefined)),
      ]);
    },
  });
  const code = await withHost(
    async () => {
      if (options.web && options.answers !== undefined) throw new HostError("give --web or --answers, not both.");
      if (!options.web && options.answers === undefined && !(process.stdin.isTTY && process.stdout.isTTY)) {
        throw new HostError(
          "the demo asks you questions: run it in a terminal, give --web to answer in a browser, or --answers FILE to answer from a file.",
        );
      }
      const ui = options.web
        ? (web = await startWebUI(options))
        : options.answers !== undefined
          ? withHeadlessPages(
              scriptedUI(await readAnswersFile(options.answers)),
              () => (headless ??= headlessPages()),
              () => closing,
            )
          : (progress.terminal = terminalUI({ openUrl: options.browser === false ? false : browserOpener() }));
      if (roots.length === 0) roots.push((madeRoot = mkdtempSync(join(tmpdir(), "elicit-demo-"))));
      return {
        target: { command: process.execPath, args: [MAIN, "serve", "travel", "--passport"] },
        ui,
        modes: options.modes,
        protocol: options.protocol,
        roots,
      };
    },
    async (host, provider) => {
      progress.host = host;
      out(
        `elicit demo: booking a trip to Barcelona, ${TRIP.departDate} to ${TRIP.returnDate}, with the travel server (protocol ${host.protocol}).`,
      );
      out(
        provider
          ? `Model: ${provider.models[0]} (you review the request and its answer).`
          : "No model is configured (ELICIT_MODEL…): when the server asks for one, you read the request and type the answer yourself.",
      );
      out(`The itinerary will be saved into ${roots[0]}.\n`);
      return walk(host, progress);
    },
  );
  // withHost never throws.
  await web?.close();
  // A page may still be on its last step (the tool already returned): closing the browser ends it, and that is no failure to report.
  closing = true;
  const browser = await headless;
  if (browser && "close" in browser) await browser.close();
  removeEmptyRoot();
  stopHandling();
  return code;
}

async function walk(host: Host, progress: Progress): Promise<number> {
  const callTool = (name: string, args: Record<string, unknown>) => {
    const work = host.elicitation.callTool({ name, arguments: args }) as Promise<CallToolResult>;
    const server = serverLabel(host.serverInfo(), "the travel server");
    return progress.terminal ? progress.terminal.waitingFor(`${server} (${name})`, work) : work;
  };
  const call = async (step: string, name: string, args: Record<string, unknown>) => {
    out(`── ${step} ──`);
    progress.step = step;
    return callTool(name, args);
  };
  const data = (r: CallToolResult) => (r.structuredContent ?? {}) as { top?: { id?: string }[]; reference?: string };

  const search = await call("1 of 7: search flights", "search_flights", TRIP);
  const firstLine = (search.content[0] as { text?: string } | undefined)?.text?.split("\n")[0] ?? "";
  // The list itself is long: the model review in step 2 shows all of it.
  out(
    `${sanitizeText(firstLine, { maxLength: 400, multiline: false }).replace(/:$/, ".")} The server hands them all to the model in the next step.\n`,
  );
  if (search.isError) return finish(search);

  const bestArgs = { ...TRIP, preferences: DEFAULT_PREFERENCES };
  let best: CallToolResult;
  try {
    best = await call("2 of 7: the best flight, chosen by the client's model", "find_best_flight", bestArgs);
  } catch (error) {
    // On 2026-07-28 a refused model request ends the call at the client (the revision has no way to
    // answer it with an error), so the demo asks the server for its rule, as 2025 servers fall back by themselves.
    if (!(error instanceof ProtocolError && error.code === USER_REJECTED)) throw error;
    out("You denied the model request, so no model saw the flights: the server ranked them by its built-in rule instead.");
    best = await callTool("find_best_flight", { ...bestArgs, rankBy: "rule" });
  }
  printResult(best, out);
  out("");
  if (best.isError) return finish(best);
  const flightId = data(best).top?.[0]?.id;

  const booking = await call("3 of 7: book the trip", "book_trip", { ...TRIP, ...(flightId ? { flightId } : {}) });
  printResult(booking, out);
  out("");
  const reference = data(booking).reference;
  if (booking.isError || !reference) {
    out("Nothing was booked, so there is no itinerary to save. The demo ends here.");
    return finish(booking);
  }

  // URL mode: the card goes to the server's own page and the SkyMiles sign-in to SkyMiles, never through this client.
  const paid = await call("4 of 7: pay on the server's secure payment page", "pay_for_booking", { bookingReference: reference });
  printResult(paid, out);
  out("");
  const miles = await call("5 of 7: connect your SkyMiles frequent-flyer account", "connect_frequent_flyer", {
    bookingReference: reference,
  });
  printResult(miles, out);
  out("");

  const saved = await call("6 of 7: save the itinerary", "save_itinerary", { bookingReference: reference });
  printResult(saved, out);
  out("");
  if (saved.isError) return finish(saved);

  // A task: the call answers at once, the watch runs on the server and asks when the fare drops.
  const tasks = taskReporter(out);
  host.onTaskReport((report) => tasks.report(report));
  const watch = await call("7 of 7: watch for a cheaper fare (a task that asks when the fare drops)", "watch_fare", {
    ...TRIP,
    below: FARE_WATCH_BELOW,
  });
  printResult(watch, out);
  return finish(watch);
}

/** The fare the demo's watch waits for: Barcelona's cheapest is $835, and the watch finds $885 at its third check. */
const FARE_WATCH_BELOW = 900;

const finish = (result: CallToolResult) => (result.isError ? EXIT.toolError : EXIT.ok);

/**
 * --answers: a URL the answers accept is completed by a headless browser (the demo's pages only), or,
 * without one, declined with the reason. The same URL asked again (2026-07-28 asks until the page is
 * done) is the flow already under way: attachElicitation accepts it without asking, unless the browser
 * gave up on that page, which ends the flow rather than wait for a page nobody finishes.
 */
function withHeadlessPages<U extends ElicitationUI>(
  ui: U,
  pages: () => Promise<HeadlessPages | { unavailable: string }>,
  closing: () => boolean,
): U {
  const failed = new Set<string>();
  const urlAskedAgain: ElicitationUI["urlAskedAgain"] = (request) => (failed.has(request.analysis.url) ? "cancel" : "accept");
  const url: ElicitationUI["url"] = async (request, context): Promise<UrlAnswer> => {
    const address = request.analysis.url;
    const answer = await ui.url(request, context);
    if (answer !== "accept") return answer;
    const host = sanitizeText(request.analysis.host ?? address, { maxLength: 200, multiline: false });
    const browser = await pages();
    if ("unavailable" in browser) {
      out(`(No headless browser: ${browser.unavailable}. The page at ${host} was not opened, so this step is declined.)`);
      return "decline";
    }
    out(
      `(A headless browser completes the page at ${host}: the sample passport page, the test card 4242 4242 4242 4242, or SkyMiles' demo account.)`,
    );
    // Only a failure is told: success shows in the tool's result.
    browser.complete(address).catch((error: Error) => {
      failed.add(address);
      if (closing()) return;
      const why = sanitizeText(error.message, { maxLength: 300, multiline: false });
      out(`(The headless browser could not complete the page at ${host}: ${why})`);
    });
    return "accept";
  };
  return { ...ui, url, urlAskedAgain };
}
