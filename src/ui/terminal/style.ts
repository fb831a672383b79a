// Output styling and the last guard on what reaches the terminal.
//
// Colour is decoration only: every state also has a plain-text label ("Warning:", "Error:", "*"),
// so the screen reads the same with NO_COLOR, in a pipe or on a monochrome terminal. Node 20's
// styleText does not look at the stream, so whether to colour is decided here, per output stream.
import { styleText } from "node:util";
import { sanitizeText } from "../../common/sanitize.js";

type Format = Parameters<typeof styleText>[0];

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  /** The registrable domain inside a host: must stand out even next to look-alike subdomains. */
  domain(text: string): string;
  server(text: string): string;
  warning(text: string): string;
  error(text: string): string;
  ok(text: string): string;
}

/** Colours when the stream is a terminal that has them (tty.WriteStream.hasColors honours NO_COLOR and FORCE_COLOR). */
export function createStyle(output: NodeJS.WritableStream): Style {
  const stream = output as NodeJS.WritableStream & { isTTY?: boolean; hasColors?: () => boolean };
  const on = stream.isTTY === true && typeof stream.hasColors === "function" && stream.hasColors();
  const paint = (format: Format) => (text: string) => (on && text ? styleText(format, text) : text);
  return {
    bold: paint("bold"),
    dim: paint("dim"),
    domain: paint(["bold", "underline"]),
    server: paint(["bold", "cyan"]),
    warning: paint(["bold", "yellow"]),
    error: paint("red"),
    ok: paint("green"),
  };
}

/**
 * Request texts are sanitized before a UI sees them; this runs them through the same sanitizer once
 * more at the last step, so that nothing from a request can reach the terminal as an escape sequence
 * even if a caller forgot. (Idempotent on sanitized text.)
 */
export function inert(text: unknown): string {
  return sanitizeText(String(text ?? ""), { maxLength: Infinity });
}

/** `inert`, on one line: for labels, option titles, names and values shown in a list. */
export function inertLine(text: unknown): string {
  return sanitizeText(String(text ?? ""), { maxLength: Infinity, multiline: false });
}

/** Indents every line of a (multi-line) text. */
export function indent(text: string, by = "  "): string {
  return text
    .split("\n")
    .map((line) => (line ? by + line : line))
    .join("\n");
}

/** Which server is asking, as shown: "name version". */
export function serverName(context: { server: { name: string; version: string } }): string {
  const { name, version } = context.server;
  return inertLine(version ? `${name} ${version}` : name) || "the server";
}
