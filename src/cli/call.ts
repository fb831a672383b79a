// `elicit call TOOL [--args JSON] [--answers FILE] …`: one tool call, non-interactive when given an
// answers file. The tool result goes to stdout as JSON; the exit code says how it ended.
//
// Before calling, it lists the server's tools (every page, so the SDK knows each tool's x-mcp-header
// declarations and mirrors them into Mcp-Param-* headers), refuses a tool that is not there or that
// the SDK excluded, and checks --args against the tool's input schema.
import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import { Ajv, type ErrorObject } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ElicitationUI, SamplingUI } from "../client/ui.js";
import { browserOpener } from "../common/open-url.js";
import { MAX_LABEL_LENGTH, sanitizeText } from "../common/sanitize.js";
import { readAnswersFile } from "../ui/answers-file.js";
import { scriptedUI } from "../ui/scripted.js";
import { terminalUI, type TerminalUI } from "../ui/terminal/index.js";
import { EXIT, HostError, inertJson } from "./exit.js";
import type { WebUI } from "../ui/web/server/web-ui.js";
import { startWebUI, type WebFlags } from "./web.js";
import {
  describeTarget,
  parseConnectTimeout,
  parseModes,
  parseProtocol,
  serverLabel,
  withHost,
  type Host,
  type HostRequest,
  type ServerTarget,
} from "./host.js";
import { hideSpinner, printLine } from "./host-output.js";
import { whenInterrupted } from "./interrupt.js";
import { goesOn, taskReporter } from "./task-reports.js";
import { hostAuthOf, type AuthFlags, type HostAuth } from "./oauth.js";

export interface TargetOptions extends AuthFlags {
  url?: string;
  modes: string;
  protocol: string;
  root: string[];
  connectTimeout?: string;
}

export interface CallOptions extends TargetOptions {
  args?: string;
  answers?: string;
}

/** What every command that connects gives withHost: the target, its UI and sign-in, and the options as typed. */
export function hostRequestOf(
  options: TargetOptions,
  target: ServerTarget,
  ui: HostRequest["ui"],
  auth: HostAuth | undefined,
): HostRequest {
  return {
    target,
    ui,
    modes: options.modes,
    protocol: options.protocol,
    roots: options.root,
    ...(options.connectTimeout !== undefined ? { connectTimeout: options.connectTimeout } : {}),
    auth,
  };
}

/** The server from `--url` or the words after `--`; exactly one of them. */
export function targetOf(options: { url?: string }, command: string[]): ServerTarget {
  if (options.url !== undefined && command.length > 0)
    throw new HostError("give the server either --url URL or -- command args…, not both.");
  if (options.url !== undefined) return { url: options.url };
  const [cmd, ...args] = command;
  if (!cmd) throw new HostError("no server: give --url URL (Streamable HTTP) or -- command args… (stdio).");
  return { command: cmd, args };
}

export function parseArgs(json: string | undefined): Record<string, unknown> {
  if (json === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new HostError(`--args is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new HostError('--args must be a JSON object, e.g. --args \'{"city":"Barcelona"}\'.');
  return value as Record<string, unknown>;
}

export const atTerminal = () => process.stdin.isTTY === true && process.stderr.isTTY === true;

/**
 * The UI for a non-interactive call: the answers file, else the terminal when there is one, else
 * none (every question cancelled). That last case is said once, when the server first asks.
 */
export async function uiFor(answers: string | undefined, noBrowser: boolean): Promise<ElicitationUI & SamplingUI> {
  if (answers !== undefined) return scriptedUI(await readAnswersFile(answers), { log: printLine });
  if (atTerminal()) return terminalUI({ output: process.stderr, openUrl: noBrowser ? false : browserOpener() });
  let told = false;
  return scriptedUI([], {
    log(line) {
      if (!told)
        printLine("elicit: the server asks a question, but there is no --answers file and no terminal: every question is cancelled.");
      told = true;
      printLine(line);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// --args against the tool's input schema.

type Engine = InstanceType<typeof Ajv> | InstanceType<typeof Ajv2019> | InstanceType<typeof Ajv2020>;

/** An Ajv engine for a dialect, set up as the SDK's own validator sets them up (lenient about unknown keywords). */
function engineFor(dialect: "2020-12" | "2019-09" | "draft-07"): Engine {
  const options = { strict: false, allErrors: true, validateSchema: false, validateFormats: true };
  const engine = dialect === "2020-12" ? new Ajv2020(options) : dialect === "2019-09" ? new Ajv2019(options) : new Ajv(options);
  (addFormats as unknown as (ajv: Engine) => Engine)(engine);
  return engine;
}

/** The dialect a schema declares: none means 2020-12 (SEP-1613); an unknown one is not checked here. */
function dialectOf(schema: Record<string, unknown>): "2020-12" | "2019-09" | "draft-07" | undefined {
  const declared = typeof schema.$schema === "string" ? schema.$schema.replace(/#$/, "").replace(/^http:/, "https:") : undefined;
  if (declared === undefined || declared === "https://json-schema.org/draft/2020-12/schema") return "2020-12";
  if (declared === "https://json-schema.org/draft/2019-09/schema") return "2019-09";
  if (declared === "https://json-schema.org/draft-07/schema" || declared === "https://json-schema.org/draft-06/schema") return "draft-07";
  return undefined;
}

/**
 * A copy of `schema` whose references all point into the schema itself. A `$ref` (or `$dynamicRef`,
 * `$recursiveRef`) to anything else, a network URI above all, is dropped rather than fetched
 * (SEP-2106: clients must not dereference them), so what it described is not checked here.
 */
function localRefsOnly(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(localRefsOnly);
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if ((key === "$ref" || key === "$dynamicRef" || key === "$recursiveRef") && typeof v === "string" && !v.startsWith("#")) continue;
    // Values, not schemas: kept as they are.
    copy[key] = key === "const" || key === "enum" || key === "default" || key === "examples" ? v : localRefsOnly(v);
  }
  return copy;
}

/** A JSON pointer into the arguments as a field name: "destination", "address/city". */
const fieldName = (pointer: string) =>
  pointer
    .slice(1)
    .split("/")
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join("/");

/** One line per problem: the field, what is wrong, and the schema keyword (rule) it breaks. */
function describeError(error: ErrorObject): string {
  const at = fieldName(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const join = (name: unknown) => (at ? `${at}/${String(name)}` : String(name));
  switch (error.keyword) {
    case "required":
      return `${join(params.missingProperty)}: required, but not given [required]`;
    case "additionalProperties":
      return `${join(params.additionalProperty)}: not a field of this tool [additionalProperties]`;
    case "unevaluatedProperties":
      return `${join(params.unevaluatedProperty)}: not a field of this tool [unevaluatedProperties]`;
    case "enum": {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues.map((v) => JSON.stringify(v)).join(", ") : "";
      return `${at || "(the arguments)"}: must be one of ${allowed} [enum]`;
    }
    default:
      return `${at || "(the arguments)"}: ${error.message ?? "is not valid"} [${error.keyword}]`;
  }
}

export interface ArgumentCheck {
  /** One line per problem, e.g. "departDate: must match format \"date\" [format]". */
  errors: string[];
  /** Why (part of) the arguments could not be checked here, when they could not: the server still checks them. */
  unchecked?: string;
}

/** Checks a tool's arguments against its input schema, with the engine of the schema's dialect. */
export function checkArguments(inputSchema: unknown, args: Record<string, unknown>): ArgumentCheck {
  if (typeof inputSchema !== "object" || inputSchema === null || Array.isArray(inputSchema))
    return { errors: [], unchecked: "the tool's input schema is not a JSON object; --args are sent unchecked." };
  const dialect = dialectOf(inputSchema as Record<string, unknown>);
  if (!dialect)
    return {
      errors: [],
      unchecked: `the tool's input schema declares a JSON Schema dialect elicit does not check (${JSON.stringify((inputSchema as Record<string, unknown>).$schema)}); --args are sent unchecked.`,
    };
  const schema = localRefsOnly(inputSchema) as Record<string, unknown>;
  // A null for a parameter that is not required counts as not given (SEP-2243 has clients omit the
  // Mcp-Param header of a null; tool-calling models send null for "no value"). It is still sent.
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const checked = Object.fromEntries(Object.entries(args).filter(([key, value]) => value !== null || required.has(key)));
  let validate;
  try {
    validate = engineFor(dialect).compile(schema);
  } catch (error) {
    return {
      errors: [],
      unchecked: `cannot check --args against the tool's input schema (${(error as Error).message}); they are sent unchecked.`,
    };
  }
  if (validate(checked)) return { errors: [] };
  return { errors: [...new Set((validate.errors ?? []).map(describeError))] };
}

const label = (text: string) => sanitizeText(text, { maxLength: MAX_LABEL_LENGTH, multiline: false });

/** The tool to call, from the server's list: refused (exit 2) when the SDK excluded it or it is not there. */
async function findTool(host: Host, name: string): Promise<Tool> {
  const tools = await host.listTools();
  const tool = tools.find((t) => t.name === name);
  if (tool) return tool;
  const excluded = host.excludedTools.get(name);
  if (excluded !== undefined) {
    const why = sanitizeText(excluded, { maxLength: 400, multiline: false });
    throw new HostError(
      `not calling ${label(name)}: the MCP SDK excluded it from the server's tools (${why}); a client must not call a tool whose x-mcp-header declarations are invalid.`,
    );
  }
  const offered = tools.map((t) => label(t.name));
  const list =
    offered.length === 0
      ? "the server offers no tools"
      : `the server offers: ${offered.slice(0, 20).join(", ")}${offered.length > 20 ? `, and ${offered.length - 20} more` : ""}`;
  throw new HostError(`no tool named ${JSON.stringify(label(name))}: ${list}.`);
}

/** `elicit tools`: the server's tools (every page, as the SDK keeps them) as JSON on stdout. */
export async function tools(command: string[], options: TargetOptions): Promise<number> {
  return withHost(
    async () => {
      const target = targetOf(options, command);
      // Nothing is called, so nothing is asked; a server that asks anyway gets cancel. A sign-in is the one
      // question `tools` may need answered: at a terminal.
      return hostRequestOf(options, target, scriptedUI([], { log: printLine }), hostAuthOf(options, atTerminal()));
    },
    async (host) => {
      const listed = await host.listTools();
      process.stdout.write(inertJson({ tools: listed }) + "\n");
      return EXIT.ok;
    },
  );
}

export async function call(tool: string, command: string[], options: CallOptions & WebFlags): Promise<number> {
  let args: Record<string, unknown> = {};
  let web: WebUI | undefined;
  let terminal: TerminalUI | undefined;
  let calling = false;
  let remote = false;
  const tasks = taskReporter((line) => (web ? web.status(line) : printLine(line)));
  const stopHandling = whenInterrupted({
    clearScreen() {
      hideSpinner();
      terminal?.stopWaiting();
    },
    say: (how) =>
      tasks.running
        ? `elicit: stopped (${how}); ${goesOn(tasks.running)}`
        : calling
          ? `elicit: stopped (${how}) while waiting for ${label(tool)}: no result${remote ? " here (the server may still finish the call)" : ""}.`
          : `elicit: stopped (${how}) before ${label(tool)} was called.`,
    cleanup: () => web?.close(),
  });
  const called = withHost(
    async () => {
      // Every usage check before anything else happens (the answers file is read, the server started).
      const target = targetOf(options, command);
      args = parseArgs(options.args);
      parseModes(options.modes);
      parseProtocol(options.protocol);
      parseConnectTimeout(options.connectTimeout);
      if (options.web && options.answers !== undefined) throw new HostError("give --web or --answers, not both.");
      // With --web the page asks and opens the sign-in address itself.
      const auth = hostAuthOf(options, !options.web && options.answers === undefined && atTerminal(), options.web === true);
      const ui = options.web ? (web = await startWebUI(options)) : await uiFor(options.answers, options.browser === false);
      // The page says what it waits for while the server starts and the tool runs, not "Nothing to answer".
      web?.status(`Connecting to ${describeTarget(target)}…`);
      if ("waitingFor" in ui) terminal = ui as TerminalUI;
      remote = "url" in target;
      return hostRequestOf(options, target, ui, auth);
    },
    async (host) => {
      const definition = await findTool(host, tool);
      const problems = checkArguments(definition.inputSchema, args);
      if (problems.unchecked) printLine(`elicit: ${problems.unchecked}`);
      if (problems.errors.length > 0) {
        const shown = problems.errors.slice(0, 12).map((e) => `  ${e}`);
        if (problems.errors.length > shown.length) shown.push(`  … and ${problems.errors.length - shown.length} more`);
        throw new HostError(`--args do not fit the input schema of ${label(tool)}; nothing was called:\n${shown.join("\n")}`);
      }
      calling = true;
      web?.status(`Calling ${label(tool)}…`);
      host.onTaskReport((report) => tasks.report(report));
      // On 2025-11-25 a client asks for a task (the tool says it must run as one); on 2026-07-28 the server decides.
      const asTask = host.protocol === "2025-11-25" && definition.execution?.taskSupport === "required" ? { task: {} } : {};
      const work = host.elicitation.callTool({ name: tool, arguments: args, ...asTask }) as Promise<CallToolResult>;
      const server = serverLabel(host.serverInfo(), "the server");
      const result = terminal ? await terminal.waitingFor(`${server} (${label(tool)})`, work) : await work;
      process.stdout.write(inertJson(result) + "\n");
      return result.isError ? EXIT.toolError : EXIT.ok;
    },
    // Shown in the page as well as on the terminal.
    (error) => web?.status(error instanceof Error ? error.message : String(error), { failed: true }),
  );
  // The page's server goes when the call is over, whatever its outcome (withHost never throws).
  return called.finally(async () => {
    await web?.close();
    stopHandling();
  });
}
