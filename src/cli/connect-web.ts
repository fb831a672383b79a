// `elicit connect --web`: the same interactive host as `elicit connect`, with the browser as the UI.
// The host's own questions (what next, a tool's arguments, a root to add) are forms of its own in the
// page; the server's questions come through the same page; results go to the terminal and the page.
import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import type { FormRequest, UIContext } from "../client/ui.js";
import { MAX_LABEL_LENGTH, MAX_LONG_TEXT_LENGTH, MAX_MESSAGE_LENGTH, sanitizeText } from "../common/sanitize.js";
import { checkSchema, hasErrors } from "../schema/check.js";
import { describeFields } from "../schema/compiled.js";
import type { RequestedSchema } from "../schema/types.js";
import type { WebOwnForm, WebUI } from "../ui/web/server/web-ui.js";
import { hostRequestOf, targetOf, type TargetOptions } from "./call.js";
import { EXIT } from "./exit.js";
import { announceConnection, describeTarget, serverLabel, withHost, type Host } from "./host.js";
import { printLine } from "./host-output.js";
import { hostAuthOf } from "./oauth.js";
import { printResult } from "./result.js";
import { startWebUI, type WebFlags } from "./web.js";

const line = (text: unknown) => sanitizeText(text, { maxLength: MAX_LABEL_LENGTH, multiline: false });
const out = (text: string) => process.stdout.write(text + "\n");

export async function connectWeb(command: string[], options: TargetOptions & WebFlags): Promise<number> {
  let ui: WebUI | undefined;
  try {
    return await withHost(
      async () => {
        const target = targetOf(options, command);
        ui = await startWebUI(options);
        // Starting a server can take seconds: the page says what it waits for, not "Nothing to answer".
        ui.status(`Connecting to ${describeTarget(target)}…`);
        // Not interactive: a sign-in's consent is asked in the page, like every other link.
        return hostRequestOf(options, target, ui, hostAuthOf(options, false, true));
      },
      async (host, provider) => {
        await announceConnection(host, provider, out);
        ui!.status(undefined);
        await loop(host, ui!);
        out("Done.");
        return EXIT.ok;
      },
      // Shown in the page as well as on the terminal, and kept there once the session ends.
      (error) => ui?.status(error instanceof Error ? error.message : String(error), { failed: true }),
    );
  } finally {
    await ui?.close();
  }
}

/** Asks a form of our own in the page; undefined when the person cancels (or the page went away). */
async function ask(ui: WebUI, host: Host, message: string, schema: RequestedSchema, own: WebOwnForm) {
  const info = host.serverInfo();
  const request: FormRequest = {
    message: sanitizeText(message, { maxLength: MAX_LONG_TEXT_LENGTH }),
    fields: describeFields(schema).map((f) => ({ ...f, label: line(f.label) })),
    schema,
    warnings: [],
  };
  const context: UIContext = {
    server: { name: line(info?.name ?? "server"), version: line(info?.version ?? "") },
    protocol: "2025-11-25",
    signal: new AbortController().signal,
  };
  const answer = await ui.ownForm(request, context, own);
  return answer.action === "accept" ? answer.content : undefined;
}

async function loop(host: Host, ui: WebUI): Promise<void> {
  const server = serverLabel(host.serverInfo(), "the server");
  for (;;) {
    const tools = await host.listTools();
    const roots = host.roots.list();
    const choices = [
      ...tools.map((t) => ({ const: `tool:${t.name}`, title: `Call ${line(t.name)}` })),
      { const: "root:add", title: "Add a root directory" },
      ...roots.map((r) => ({ const: `root:remove:${r.uri}`, title: `Remove root ${line(r.name ?? r.uri)}` })),
      { const: "quit", title: "Quit" },
    ];
    const described = tools.map((t) => `${line(t.name)}: ${line(t.description ?? "(no description)")}`);
    const message = [`Tools of ${server}:`, ...described, `Roots now: ${roots.map((r) => line(r.name ?? r.uri)).join(", ") || "none"}`];
    const next = await ask(
      ui,
      host,
      message.join("\n"),
      { type: "object", properties: { next: { type: "string", title: "What next?", oneOf: choices } }, required: ["next"] },
      { title: `${server}: what next?`, submitLabel: "Go" },
    );
    const choice = next?.next;
    if (typeof choice !== "string" || choice === "quit") return;
    try {
      if (choice === "root:add") {
        const dir = await ask(
          ui,
          host,
          "A directory the server may work in, sent to it as a file:// root.",
          { type: "object", properties: { directory: { type: "string", title: "Directory", minLength: 1 } }, required: ["directory"] },
          { title: "Add a root directory", submitLabel: "Add" },
        );
        if (typeof dir?.directory !== "string") continue;
        const root = await host.roots.add(dir.directory.trim());
        out(`Added root ${root.uri}`);
        ui.notice(`Added root ${root.uri}`, { server: { name: "elicit", version: "" } });
      } else if (choice.startsWith("root:remove:")) {
        await host.roots.remove(choice.slice("root:remove:".length));
        out("Removed.");
      } else {
        const tool = tools.find((t) => `tool:${t.name}` === choice);
        if (tool) await callOne(host, ui, tool);
      }
    } catch (error) {
      const text = sanitizeText((error as Error).message, { maxLength: 2000 });
      printLine(`elicit: ${text}`);
      ui.notice(text, { server: { name: "elicit", version: "" } });
    }
  }
}

async function callOne(host: Host, ui: WebUI, tool: Tool): Promise<void> {
  const args = await argumentsFor(host, ui, tool);
  if (args === undefined) return;
  const name = line(tool.name);
  out(`Calling ${name}…`);
  ui.status(`Calling ${name}…`);
  const result = (await host.elicitation
    .callTool({ name: tool.name, arguments: args })
    .finally(() => ui.status(undefined))) as CallToolResult;
  printResult(result, out);
  // The person is in the browser: the result goes there too.
  const lines: string[] = [];
  printResult(result, (l) => lines.push(l));
  ui.notice(`${name}: ${sanitizeText(lines.join("\n"), { maxLength: MAX_MESSAGE_LENGTH })}`, { server: { name: "elicit", version: "" } });
}

/** A form from the input schema when it is a flat form the page can show; else the arguments as JSON. */
async function argumentsFor(host: Host, ui: WebUI, tool: Tool): Promise<Record<string, unknown> | undefined> {
  const schema = tool.inputSchema as unknown as RequestedSchema;
  const properties = Object.keys(schema.properties ?? {});
  if (properties.length === 0) return {};
  const name = line(tool.name);
  const own = { title: `Arguments for ${name} (a tool of ${serverLabel(host.serverInfo(), "the server")})`, submitLabel: `Call ${name}` };
  const description = tool.description || "(the tool has no description)";
  if (!hasErrors(checkSchema(schema, { protocol: "2025-11-25" }))) return ask(ui, host, description, schema, own);
  for (let problem = ""; ;) {
    const typed = await ask(
      ui,
      host,
      `${description}\n\nThe arguments as a JSON object (fields: ${properties.map(line).join(", ")}).${problem}`,
      { type: "object", properties: { json: { type: "string", title: "Arguments (JSON)", default: "{}" } }, required: ["json"] },
      own,
    );
    if (typeof typed?.json !== "string") return undefined;
    try {
      const parsed = JSON.parse(typed.json) as unknown;
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
      problem = "\n\nThat was not a JSON object; try again.";
    } catch (error) {
      problem = `\n\nThat was not JSON (${(error as Error).message}); try again.`;
    }
  }
}
