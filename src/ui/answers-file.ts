// Reads an answers file for scriptedUI: a JSON or YAML list of entries. Every problem is reported with
// the entry's index and the field, before any server is contacted.
import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import * as z from "zod";
import type { ScriptedAnswer } from "./scripted.js";
import { ElicitError } from "../schema/errors.js";

const regex = z.string().refine((s) => {
  try {
    new RegExp(s, "u");
    return true;
  } catch {
    return false;
  }
}, "not a valid regular expression");

/** "2s", "500ms", "1.5s", "1m" -> milliseconds; at most an hour. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)\s*$/.exec(text);
  if (!m) return undefined;
  const ms = Math.round(Number(m[1]) * { ms: 1, s: 1000, m: 60_000 }[m[2] as "ms" | "s" | "m"]);
  return ms <= 3_600_000 ? ms : undefined;
}

const duration = z.string().transform((text, ctx) => {
  const ms = parseDuration(text);
  if (ms === undefined)
    ctx.addIssue({ code: "custom", message: `not a duration up to 1 hour like "2s", "500ms" or "1m": ${JSON.stringify(text)}` });
  return ms ?? 0;
});

const formEntry = z
  .strictObject({
    match: regex.optional(),
    action: z.enum(["accept", "decline", "cancel"]),
    content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
    /** URL requests answered through -32042: retry the call this long after consent unless the flow completes first. */
    retryAfter: duration.optional(),
  })
  .transform(({ retryAfter, ...entry }) => (retryAfter === undefined ? entry : { ...entry, retryAfterMs: retryAfter }));

const sampleEntry = z.strictObject({
  match: regex.optional(),
  sample: z.strictObject({
    action: z.enum(["approve", "deny"]).optional(),
    text: z.string().optional(),
    rejectAnswer: z.boolean().optional(),
  }),
});

const answersSchema = z.array(z.union([formEntry, sampleEntry]));

export class AnswersFileError extends ElicitError {
  constructor(message: string) {
    super("answers-file-invalid", message);
  }
}

/** Parses answers text (JSON is YAML too, so one parser reads both). */
export function parseAnswers(text: string, source = "answers"): ScriptedAnswer[] {
  let data: unknown;
  try {
    data = parseYaml(text, { prettyErrors: true });
  } catch (error) {
    throw new AnswersFileError(`${source}: not valid JSON or YAML: ${(error as Error).message.split("\n")[0]}`);
  }
  const parsed = answersSchema.safeParse(data ?? []);
  if (parsed.success) return parsed.data as ScriptedAnswer[];
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length ? issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("") : "(top level)";
    const hint = issue.code === "invalid_union" ? "each entry needs `action` (accept, decline or cancel) or `sample`" : issue.message;
    return `  ${where}: ${hint}`;
  });
  throw new AnswersFileError(`${source}: invalid answers:\n${problems.join("\n")}`);
}

export async function readAnswersFile(path: string): Promise<ScriptedAnswer[]> {
  let text: string;
  try {
    text = path === "-" ? await readStdin() : await readFile(path, "utf8");
  } catch (error) {
    throw new AnswersFileError(`cannot read answers file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return parseAnswers(text, path);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
