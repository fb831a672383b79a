// Reads an answers file for scriptedUI: a JSON or YAML list of entries. Every problem is reported with
// the entry's index and the field, before any server is contacted.
import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import * as z from "zod";
import type { ScriptedAnswer } from "./scripted.js";

const regex = z.string().refine((s) => {
  try {
    new RegExp(s, "u");
    return true;
  } catch {
    return false;
  }
}, "not a valid regular expression");

const formEntry = z.strictObject({
  match: regex.optional(),
  action: z.enum(["accept", "decline", "cancel"]),
  content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
});

const sampleEntry = z.strictObject({
  match: regex.optional(),
  sample: z.strictObject({
    action: z.enum(["approve", "deny"]).optional(),
    text: z.string().optional(),
    rejectAnswer: z.boolean().optional(),
  }),
});

const answersSchema = z.array(z.union([formEntry, sampleEntry]));

export class AnswersFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AnswersFileError";
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
