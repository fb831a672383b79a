// `elicit lint FILE|-`: check a requestedSchema against the subset of a protocol revision.
import { readFile } from "node:fs/promises";
import { checkSchema, hasErrors } from "../schema/check.js";
import { isProtocolRevision, LATEST_REVISION, PROTOCOL_REVISIONS } from "../schema/types.js";

export interface LintOptions {
  protocol?: string;
  json?: boolean;
}

export interface LintOutput {
  exitCode: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

async function readSource(file: string): Promise<string> {
  if (file !== "-") return readFile(file, "utf8");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Accepts a bare requestedSchema, or elicitation/create params or a whole request holding one. */
function extractSchema(doc: unknown): unknown {
  const obj = doc as { params?: { requestedSchema?: unknown }; requestedSchema?: unknown } | null;
  return obj?.params?.requestedSchema ?? obj?.requestedSchema ?? doc;
}

export async function lint(file: string, options: LintOptions): Promise<LintOutput> {
  const protocol = options.protocol ?? LATEST_REVISION;
  if (!isProtocolRevision(protocol)) {
    return {
      exitCode: 2,
      stdout: "",
      stderr: `elicit lint: unknown protocol revision "${protocol}"; use one of ${PROTOCOL_REVISIONS.join(", ")}\n`,
    };
  }
  let source: string;
  try {
    source = await readSource(file);
  } catch (e) {
    return { exitCode: 2, stdout: "", stderr: `elicit lint: cannot read ${file}: ${(e as Error).message}\n` };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(source);
  } catch (e) {
    return {
      exitCode: 2,
      stdout: "",
      stderr: `elicit lint: ${file === "-" ? "standard input" : file} is not valid JSON: ${(e as Error).message}\n`,
    };
  }
  const issues = checkSchema(extractSchema(doc), { protocol });
  const exitCode = hasErrors(issues) ? 1 : 0;
  if (options.json) return { exitCode, stdout: JSON.stringify({ protocol, issues }, null, 2) + "\n", stderr: "" };
  const errors = issues.filter((i) => i.severity === "error").length;
  const lines = issues.map((i) => `${i.path || "/"}  ${i.severity}  ${i.code}  ${i.message}`);
  lines.push(
    `${errors} error${errors === 1 ? "" : "s"}, ${issues.length - errors} warning${issues.length - errors === 1 ? "" : "s"} (protocol ${protocol})`,
  );
  return { exitCode, stdout: lines.join("\n") + "\n", stderr: "" };
}
