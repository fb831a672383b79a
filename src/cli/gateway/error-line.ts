// One short line on stderr for each error on a connection of the gateway. The SDK reports a message it
// cannot read with the zod issues of every shape the message could have been (about 60 lines), or with
// the whole message quoted: either can be megabytes of what a peer sent, and control characters in it
// would act on the terminal. The line names the side, the method and id where the error gives them, and
// the problem, bounded and made inert; never the message itself.
import { droppedMessage } from "../../common/dropped.js";
import { sanitizeText } from "../../common/sanitize.js";
import { excerpt } from "../../schema/excerpt.js";

/** Longest problem text in a line, in code points. */
const PROBLEM_LENGTH = 200;

type Issue = { code?: unknown; path?: unknown; message?: unknown; errors?: unknown };

const inert = (text: string, max = PROBLEM_LENGTH) => sanitizeText(text, { maxLength: max, multiline: false });

/** The issue that says most briefly why: in a union, the branch with the fewest issues (the shape the message came closest to). */
function leafIssue(issues: Issue[]): Issue | undefined {
  const first = issues[0];
  if (first?.code === "invalid_union" && Array.isArray(first.errors) && first.errors.length) {
    const branches = (first.errors as unknown[]).filter((b): b is Issue[] => Array.isArray(b) && b.length > 0);
    const closest = branches.reduce<Issue[] | undefined>((best, b) => (!best || b.length < best.length ? b : best), undefined);
    if (closest) return leafIssue(closest);
  }
  return first;
}

function describeIssue(issue: Issue | undefined): string {
  if (!issue) return "it is not a JSON-RPC message";
  const path = Array.isArray(issue.path) && issue.path.length ? `${issue.path.slice(0, 6).map(String).join(".")}: ` : "";
  return `${path}${typeof issue.message === "string" ? issue.message : "invalid"}`;
}

/** The issues of a zod error, whatever copy of zod threw it. */
function issuesOf(error: unknown): Issue[] | undefined {
  const issues = (error as { issues?: unknown } | null)?.issues;
  return Array.isArray(issues) ? (issues as Issue[]) : undefined;
}

/** The line (without the "elicit gateway: " prefix) for a message from `side` the SDK could not read; undefined for any other error. */
export function malformedLine(side: "host" | "server", error: unknown): string | undefined {
  const issues = issuesOf(error);
  if (issues) return `a malformed message from the ${side} was dropped: ${inert(describeIssue(leafIssue(issues)))}.`;
  const dropped = droppedMessage(error);
  if (!dropped) return undefined;
  const which =
    dropped.kind === "request"
      ? ` (request ${excerpt(dropped.method, 60)}, id ${excerpt(dropped.id)})`
      : dropped.kind === "response"
        ? ` (a reply, id ${excerpt(dropped.id)})`
        : "";
  return `a malformed message from the ${side} was dropped${which}: neither a request, a notification, a result nor an error with a code.`;
}

/** The line for any error heard on the connection to `side`: a malformed message's, or the error's first line, bounded and inert. */
export function errorLine(side: "host" | "server", error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return malformedLine(side, error) ?? `the connection to the ${side}: ${inert(text.split("\n", 1)[0] ?? "")}`;
}
