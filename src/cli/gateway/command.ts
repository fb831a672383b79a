// `elicit gateway -- <server command>` / `--url URL`: a server for hosts that lack what the server asks
// for. The host launches it (stdio) or connects to it (--http); it connects to the server as an
// `elicit` client that declares every kind of question, hands each question to the host where the
// host can answer it, and answers the rest in its own page (or terminal).
import { browserOpener } from "../../common/open-url.js";
import { providerFromEnv } from "../../client/providers/openai.js";
import type { ElicitationUI, SamplingUI } from "../../client/ui.js";
import { webUI, type WebUI } from "../../ui/web/server/web-ui.js";
import { atTerminal, targetOf, type TargetOptions } from "../call.js";
import { reportFailure, HostError } from "../exit.js";
import { describeTarget, openHost, parseConnectTimeout, parseModes, parseProtocol, serverLabel, type Host } from "../host.js";
import { printLine } from "../host-output.js";
import { hostAuthOf } from "../oauth.js";
import { parseListen } from "../serve.js";
import { hostFacing, hostStoppedWaiting } from "./host-facing.js";
import { errorLine, malformedLine } from "./error-line.js";
import { checkListen, loopbackGuard, publicGuard } from "./http-guard.js";
import { HostLinks } from "./links.js";
import { desktopNotifier, type Notify } from "./notify.js";
import { questionLog } from "./question-log.js";
import { gatewayUI, localAnswererOf, localAnswerersNeeded, parseRouting, routeQuestions } from "./route.js";

export interface GatewayOptions extends TargetOptions {
  /** --http [HOST:]PORT: serve the host over Streamable HTTP instead of stdio (true: a free port). */
  http?: string | boolean;
  /** --public: --http on an address beyond this computer, behind a bearer secret printed at start. */
  public?: boolean;
  ui: string;
  policy?: string;
  log?: string;
  /** --no-notify: no desktop notification when a question waits on the page. */
  notify?: boolean;
}

/**
 * The gateway's own page: opened when the first question waits in it, not when a host starts the
 * gateway; each question that comes to wait there is also a desktop notification, where there is one.
 */
async function startPage(noBrowser: boolean, notify: Notify | undefined): Promise<WebUI> {
  let opened = false;
  let waiting = 0;
  const open = noBrowser ? undefined : browserOpener();
  const ui: WebUI = await webUI({
    open: false,
    log: (line) => printLine(`elicit gateway: ${line}`),
    onChange(pending) {
      // The queue keeps its order: what is new is at its end.
      for (const question of pending.slice(waiting)) notify?.(question.server, question.kind);
      waiting = pending.length;
      if (pending.length === 0 || opened) return;
      opened = true;
      printLine(`elicit gateway: a question waits in the browser: ${ui.pageUrl}`);
      open?.(ui.pageUrl).catch(() => printLine("elicit gateway: could not open a browser; open the address above yourself."));
    },
  });
  printLine(`elicit gateway: questions the host cannot answer are asked at ${ui.pageUrl}`);
  return ui;
}

/** Runs until the host goes away (stdio), SIGINT/SIGTERM, or the server goes away. Returns the exit code. */
export async function gateway(command: string[], options: GatewayOptions): Promise<number> {
  const cleanups: Array<() => Promise<unknown>> = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  };
  try {
    const target = targetOf(options, command);
    const routing = parseRouting(options.ui, options.policy);
    const stdio = options.http === undefined || options.http === false;
    const listen = stdio ? undefined : parseListen(options.http === true ? "0" : (options.http as string));
    const beyond = checkListen(listen?.host ?? "127.0.0.1", options.public, !stdio);
    const needed = localAnswerersNeeded(routing);
    if (needed.has("terminal") && (stdio || !atTerminal()))
      throw new HostError(
        stdio
          ? "--ui terminal (or a terminal in --policy) needs --http: on stdio the host holds standard input and output."
          : "--ui terminal (or a terminal in --policy) needs a terminal; use the web page instead (--ui web).",
      );
    const log = options.log !== undefined ? questionLog(options.log, (line) => printLine(`elicit gateway: ${line}`)) : undefined;
    if (log) cleanups.push(async () => log.close());
    const uis: Partial<Record<"web" | "terminal", ElicitationUI & SamplingUI>> = {};
    let page: WebUI | undefined;
    if (needed.has("web")) {
      page = await startPage(options.browser === false, options.notify === false ? undefined : desktopNotifier());
      const opened = page;
      cleanups.push(() => opened.close());
      uis.web = page;
    }
    if (needed.has("terminal"))
      uis.terminal = (await import("../../ui/terminal/index.js")).terminalUI({
        output: process.stderr,
        openUrl: options.browser === false ? false : browserOpener(),
      });
    const links = new HostLinks();
    const composite = gatewayUI(routing, uis, links);
    const ui = log ? log.wrap(composite, (kind) => localAnswererOf(routing, kind)) : composite;

    const provider = providerFromEnv();
    const host: Host = await openHost({
      target,
      ui,
      modes: parseModes(options.modes),
      protocol: parseProtocol(options.protocol),
      roots: options.root,
      connectTimeoutS: parseConnectTimeout(options.connectTimeout),
      auth: hostAuthOf(options, needed.has("terminal"), needed.has("web")),
      forward: routeQuestions(links, routing, log?.routed, (line) => printLine(`elicit gateway: ${line}`)),
      ...(provider ? { provider } : {}),
    });
    cleanups.push(() => host.close());
    // The tools once: the SDK keeps them for callTool's output checks, and a 2026-07-28 server may give its name only here.
    await host.listTools();
    const label = serverLabel(host.serverInfo(), describeTarget(target));
    // One short line per error: a malformed message is named, never printed (error-line.ts).
    const onerror = (error: Error) => printLine(`elicit gateway: ${errorLine("host", error)}`);
    host.client.onerror = (error) => {
      const line = malformedLine("server", error);
      if (line) printLine(`elicit gateway: ${line}`);
    };
    const front = hostFacing({ client: host.client, elicitation: host.elicitation, serverInfo: () => host.serverInfo() }, links, onerror, {
      callStarted: () => page?.status(undefined),
      // Said where the person looks: the page would otherwise drop the question without a word.
      stoppedWaiting(tool, afterMs) {
        const sentence = hostStoppedWaiting(tool, afterMs);
        printLine(`elicit gateway: ${sentence}`);
        page?.status(sentence, { failed: true });
      },
    });
    cleanups.push(async () => front.close());

    let exited!: (code: number) => void;
    const exit = new Promise<number>((resolve) => (exited = resolve));
    let stopping = false;
    const stop = (code: number, why?: string) => {
      if (stopping) return;
      stopping = true;
      if (why) printLine(`elicit gateway: ${why}`);
      void closeAll().finally(() => exited(code));
    };
    process.once("SIGINT", () => stop(0, "SIGINT, stopping"));
    process.once("SIGTERM", () => stop(0, "SIGTERM, stopping"));
    const upstreamClosed = host.client.onclose;
    host.client.onclose = () => {
      upstreamClosed?.();
      stop(1, `${label} closed the connection; stopping.`);
    };
    if (stdio) {
      const { serveStdio, StdioServerTransport } = await import("@modelcontextprotocol/server/stdio");
      const { screenedStdin } = await import("../../server/transport/screen.js");
      // The host's malformed requests get -32600 and its malformed replies end their call (src/common/screen.ts).
      const transport = new StdioServerTransport(screenedStdin(process.stdin, process.stdout, { onerror }), process.stdout);
      const handle = serveStdio((ctx) => front.factory({ era: ctx.era }), { onerror, transport });
      cleanups.push(() => handle.close());
      const served = transport.onclose;
      transport.onclose = () => {
        served?.();
        stop(0);
      };
      printLine(`elicit gateway: ${label} (protocol ${host.protocol}) served to the host on stdio.`);
    } else {
      const { serveHttp } = await import("../../server/http/serve.js");
      const guard = beyond ? publicGuard() : undefined;
      const admit = guard?.admit ?? loopbackGuard(listen!.host);
      const handle = await serveHttp(front.factory, { host: listen!.host, port: listen!.port, onerror, admit });
      cleanups.push(() => handle.close());
      printLine(
        `elicit gateway: ${label} (protocol ${host.protocol}) served to hosts at ${handle.url.href} (Streamable HTTP); Ctrl-C stops it.`,
      );
      if (guard) {
        // Said once, here only: the secret is kept nowhere else, and a new one is made at each start.
        printLine(
          `elicit gateway: WARNING: --public: anyone who reaches ${handle.url.host} and holds the secret below acts with your sign-in to ${label}. ` +
            "It is plain http: the secret crosses the network readable unless TLS is put in front.",
        );
        printLine(`elicit gateway: hosts send the header  Authorization: Bearer ${guard.secret}`);
      }
    }
    return await exit;
  } catch (error) {
    await closeAll();
    return reportFailure(error);
  }
}
