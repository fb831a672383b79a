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
import { describeTarget, openHost, parseConnectTimeout, parseModes, parseProtocol, serverLabel, type HostOptions } from "../host.js";
import { printLine } from "../host-output.js";
import { hostAuthOf } from "../oauth.js";
import { parseListen } from "../serve.js";
import { hostFacing, hostStoppedWaiting, hostWaits, type HostFacing } from "./host-facing.js";
import { errorLine, malformedLine } from "./error-line.js";
import { checkListen, loopbackGuard, publicGuard } from "./http-guard.js";
import { HostLinks } from "./links.js";
import { desktopNotifier, type Notify } from "./notify.js";
import { questionLog } from "./question-log.js";
import { GatewayApps } from "./app-answers.js";
import { appsRouted, gatewayUI, localAnswererOf, localAnswerersNeeded, parseRouting, routeQuestions, type Routing } from "./route.js";
import { Upstreams } from "./upstreams.js";

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

type Cleanups = Array<() => Promise<unknown>>;
const say = (line: string) => printLine(`elicit gateway: ${line}`);

/** The options, checked: what to connect to, who answers what, and where hosts reach the gateway. */
function checkOptions(command: string[], options: GatewayOptions) {
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
  return { target, routing, stdio, listen, beyond, needed };
}

/** The gateway's own page and terminal, as `routing` needs them, behind the question log when there is one. */
async function localUI(routing: Routing, options: GatewayOptions, links: HostLinks, cleanups: Cleanups) {
  const needed = localAnswerersNeeded(routing);
  const log = options.log !== undefined ? questionLog(options.log, say) : undefined;
  if (log) cleanups.push(async () => log.close());
  const uis: Partial<Record<"web" | "terminal", ElicitationUI & SamplingUI>> = {};
  let page: WebUI | undefined;
  if (needed.has("web")) {
    const opened = (page = await startPage(options.browser === false, options.notify === false ? undefined : desktopNotifier()));
    cleanups.push(() => opened.close());
    uis.web = page;
  }
  if (needed.has("terminal"))
    uis.terminal = (await import("../../ui/terminal/index.js")).terminalUI({
      output: process.stderr,
      openUrl: options.browser === false ? false : browserOpener(),
    });
  const composite = gatewayUI(routing, uis, links);
  const ui = log ? log.wrap(composite, (kind) => localAnswererOf(routing, kind)) : composite;
  return { ui, page, routed: log?.routed };
}

/**
 * The connection to the server, and to it at each revision a host speaks where the server has it
 * (--protocol auto only: a pinned revision is the one every host is served over).
 */
async function connectUpstream(options: GatewayOptions, host: Omit<HostOptions, "protocol">, cleanups: Cleanups): Promise<Upstreams> {
  const protocol = parseProtocol(options.protocol);
  const open = async (revision: HostOptions["protocol"]) => {
    const opened = await openHost({ ...host, protocol: revision });
    // The tools once: the SDK keeps them for callTool's output checks, and a 2026-07-28 server may give its name only here.
    await opened.listTools().catch(async (error: unknown) => {
      await opened.close();
      throw error;
    });
    return opened;
  };
  const primary = await open(protocol);
  cleanups.push(() => primary.close());
  const upstreams = new Upstreams(primary, protocol === "auto" ? open : undefined);
  cleanups.push(() => upstreams.close());
  return upstreams;
}

/** Serves `front` to the host on stdio, or to hosts over Streamable HTTP; `stop` when the stdio host goes away. */
async function serveHosts(
  front: HostFacing,
  at: ReturnType<typeof checkOptions>,
  label: string,
  protocol: string,
  cleanups: Cleanups,
  stop: (code: number) => void,
) {
  const onerror = (error: Error) => say(errorLine("host", error));
  if (at.stdio) {
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
    return say(`${label} (protocol ${protocol}) served to the host on stdio.`);
  }
  const { serveHttp } = await import("../../server/http/serve.js");
  const guard = at.beyond ? publicGuard() : undefined;
  const admit = guard?.admit ?? loopbackGuard(at.listen!.host);
  const handle = await serveHttp(front.factory, { host: at.listen!.host, port: at.listen!.port, onerror, admit });
  cleanups.push(() => handle.close());
  say(`${label} (protocol ${protocol}) served to hosts at ${handle.url.href} (Streamable HTTP); Ctrl-C stops it.`);
  if (guard) {
    // Said once, here only: the secret is kept nowhere else, and a new one is made at each start.
    say(
      `WARNING: --public: anyone who reaches ${handle.url.host} and holds the secret below acts with your sign-in to ${label}. ` +
        "It is plain http: the secret crosses the network readable unless TLS is put in front.",
    );
    say(`hosts send the header  Authorization: Bearer ${guard.secret}`);
  }
}

/** Runs until the host goes away (stdio), SIGINT/SIGTERM, or the server goes away. Returns the exit code. */
export async function gateway(command: string[], options: GatewayOptions): Promise<number> {
  const cleanups: Cleanups = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  };
  try {
    const at = checkOptions(command, options);
    const links = new HostLinks();
    const { ui, page, routed } = await localUI(at.routing, options, links, cleanups);
    const provider = providerFromEnv();
    const upstreams = await connectUpstream(
      options,
      {
        target: at.target,
        ui,
        modes: parseModes(options.modes),
        roots: options.root,
        connectTimeoutS: parseConnectTimeout(options.connectTimeout),
        auth: hostAuthOf(options, at.needed.has("terminal"), at.needed.has("web")),
        forward: routeQuestions(links, at.routing, routed, say),
        ...(provider ? { provider } : {}),
      },
      cleanups,
    );
    const label = serverLabel(upstreams.serverInfo(), describeTarget(at.target));
    // One short line per error: a malformed message is named, never printed (error-line.ts).
    const onerror = (error: Error) => say(errorLine("host", error));
    let hostWaitedMs: number | undefined;
    let waitSaid: string | undefined;
    const apps = appsRouted(at.routing) ? new GatewayApps(upstreams.serverInfo()?.name ?? label) : undefined;
    const front = hostFacing(
      upstreams,
      upstreams.serverInfo(),
      links,
      onerror,
      {
        callStarted: () => page?.status(undefined),
        // Said where the person looks: the page would otherwise drop the question without a word.
        stoppedWaiting(tool, afterMs) {
          hostWaitedMs = afterMs;
          const sentence = hostStoppedWaiting(tool, afterMs);
          say(sentence);
          page?.status(sentence, { failed: true });
        },
        // Said beside the question, once for as long as it stays true.
        personAnswering(keptWaiting) {
          const sentence = hostWaits(keptWaiting, hostWaitedMs);
          if (sentence === waitSaid) return;
          waitSaid = sentence;
          page?.notice(sentence, { server: { name: "elicit gateway", version: "" } });
        },
      },
      apps,
    );
    cleanups.push(async () => front.close());

    let exited!: (code: number) => void;
    const exit = new Promise<number>((resolve) => (exited = resolve));
    let stopping = false;
    const stop = (code: number, why?: string) => {
      if (stopping) return;
      stopping = true;
      if (why) say(why);
      void closeAll().finally(() => exited(code));
    };
    process.once("SIGINT", () => stop(0, "SIGINT, stopping"));
    process.once("SIGTERM", () => stop(0, "SIGTERM, stopping"));
    upstreams.each(({ client }) => {
      const upstreamClosed = client.onclose;
      client.onclose = () => {
        upstreamClosed?.();
        stop(1, `${label} closed the connection; stopping.`);
      };
      client.onerror = (error) => {
        const line = malformedLine("server", error);
        if (line) say(line);
      };
    });
    await serveHosts(front, at, label, upstreams.primary.protocol, cleanups, stop);
    return await exit;
  } catch (error) {
    await closeAll();
    return reportFailure(error);
  }
}
