// Long texts on a small terminal: shown folded (the first lines and a count), read in full page by
// page, and edited in the person's own editor ($VISUAL or $EDITOR) instead of on one input line.
import { editor, select } from "@inquirer/prompts";
import type { TerminalIO } from "./io.js";
import { indent } from "./style.js";

/** Screen rows a folded text may take before it is cut (its first lines stay on screen). */
export const FOLD_ROWS = 3;
/** A form's message is the question itself: it keeps more of the screen before it is folded. */
export const MESSAGE_ROWS = 12;
/** Texts longer than this (or with a line break) are edited in the person's editor, when there is one. */
export const EDITOR_MIN_LENGTH = 200;

const size = (io: TerminalIO) => {
  const out = io.output as NodeJS.WritableStream & { columns?: number; rows?: number };
  return { columns: Math.max(20, out.columns ?? 80), rows: Math.max(10, out.rows ?? 24) };
};

/** How many screen rows a line takes once the terminal wraps it. */
const rowsOf = (line: string, columns: number) => Math.max(1, Math.ceil([...line].length / columns));

/**
 * The text indented by `by`, cut after FOLD_ROWS screen rows with a line saying how much is hidden.
 * `folded` tells the caller to offer a way to read the rest.
 */
export function foldText(io: TerminalIO, text: string, by: string, maxRows = FOLD_ROWS): { shown: string; folded: boolean } {
  const { columns } = size(io);
  const lines = indent(text, by).split("\n");
  let rows = 0;
  let keep = 0;
  while (keep < lines.length && rows + rowsOf(lines[keep]!, columns) <= maxRows) rows += rowsOf(lines[keep++]!, columns);
  if (keep === lines.length) return { shown: lines.join("\n"), folded: false };
  // A first line longer than the whole budget is cut to it, so something of every text shows.
  const head = keep > 0 ? lines.slice(0, keep) : [[...lines[0]!].slice(0, columns * maxRows - 1).join("") + "…"];
  const hidden = lines.length - Math.max(keep, 1);
  const note = `${by}… ${hidden > 0 ? `${hidden} more line${hidden === 1 ? "" : "s"}` : "the rest of the line"} (${[...text].length} characters in all)`;
  return { shown: [...head, io.style.dim(note)].join("\n"), folded: true };
}

/** Shows a long text one screen at a time; the person goes on or back to where they were. */
export async function pageThrough(io: TerminalIO, title: string, text: string, signal: AbortSignal): Promise<void> {
  const { columns, rows } = size(io);
  const budget = rows - 4; // room for the title and the prompt
  const pages: string[][] = [[]];
  let used = 0;
  for (const line of text.split("\n")) {
    const need = rowsOf(line, columns);
    if (used + need > budget && pages.at(-1)!.length) {
      pages.push([]);
      used = 0;
    }
    pages.at(-1)!.push(line);
    used += need;
  }
  for (let i = 0; i < pages.length; i++) {
    io.print("", io.style.bold(`${title} (page ${i + 1} of ${pages.length})`), pages[i]!.join("\n"));
    if (i === pages.length - 1) break;
    const next = await io.ask(
      select<"next" | "back">,
      {
        message: "Read on?",
        choices: [
          { name: "Next page", value: "next" },
          { name: "Back", value: "back" },
        ],
      },
      signal,
    );
    if (next === "back") break;
  }
}

/** The person's editor command, when they have set one. */
export const personalEditor = () => process.env.VISUAL || process.env.EDITOR || undefined;

/** Whether a text is better edited in the person's editor than on one input line. */
export const wantsEditor = (text: string) => personalEditor() !== undefined && (text.includes("\n") || text.length > EDITOR_MIN_LENGTH);

/** Opens `text` in the person's editor and returns what they saved. */
export async function editInEditor(
  io: TerminalIO,
  label: string,
  text: string,
  signal: AbortSignal,
  validate: (s: string) => string | undefined,
): Promise<string> {
  io.print(io.style.dim(`  Opening ${label.toLowerCase()} in your editor (${personalEditor()}); save and close it to go on.`));
  return io.ask(
    editor,
    { message: `${label}:`, default: text, waitForUserInput: false, validate: (s: string) => validate(s) ?? true },
    signal,
  );
}
