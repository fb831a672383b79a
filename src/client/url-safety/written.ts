// The step of analyzeUrl that compares what the server wrote with what opens: an IP address (maybe
// disguised as a number), a host the browser rewrites, backslashes, a user name, "@name" after the host.
import { parse as parseDomain } from "tldts";
import { hostForDisplay, type Reading } from "./analysis.js";
import { hostRewrite, ipKind, rawHost } from "./host.js";
import { decodeSafe, display, keepEnd } from "./text.js";

/** `ip-host` or `host-rewritten`, `backslash`, `credentials`, `misleading-at`, in that order. */
export function writtenWarnings(reading: Reading): void {
  const { input, parsed, host, warn } = reading;
  const h = keepEnd(host);
  writtenHostWarning(reading);
  const beforeQuery = input.replace(/[?#].*$/s, "");
  if (beforeQuery.includes("\\")) {
    warn(
      "backslash",
      `The address has a backslash (“\\”), which a browser reads as “/”: it opens ${h}${parsed.pathname === "/" ? "" : ` with the path ${display(parsed.pathname, 80)}`}, whatever the text seems to say.`,
    );
  }
  if (parsed.username || parsed.password) {
    const name = parsed.username ? decodeSafe(parsed.username) : "";
    warn(
      "credentials",
      `The address has ${name ? `the user name “${name}”` : "a user name"}${parsed.password ? " and a password" : ""} before “@”. That part is not where the link goes: it goes to ${h}.`,
    );
  }
  const at = misleadingAt(parsed, host);
  if (at)
    warn(
      "misleading-at",
      `The address has “@${display(at, 80)}” after the host: it does not go to ${display(at, 80)} (a name before “@” is a user name only right after “//”). It opens ${h}.`,
    );
}

/** The host as written against the host that opens: an IP address (`ip-host`), or a name the browser rewrites. */
function writtenHostWarning({ input, host, ip, loopback, unicode, result, warn }: Reading): void {
  const h = keepEnd(host);
  const written = rawHost(input);
  if (ip) {
    const obfuscated = ip === "IPv4" && written !== undefined && written.toLowerCase() !== host && written.toLowerCase() !== `${host}.`;
    warn(
      "ip-host",
      obfuscated
        ? `The address is written as the number ${display(written, 80)}, which means the IP address ${h}: a disguised address with no name to check. Open it only if you expect this exact server.`
        : `The address is an ${ip} address (${h}), not a name: there is no domain to check. Open it only if you expect this exact server${loopback ? " (it is on your own computer)" : ""}.`,
    );
  } else if (written !== undefined) {
    const why = hostRewrite(written, host, unicode);
    if (why)
      warn(
        "host-rewritten",
        `The server wrote the name as “${display(written, 60)}”, but a browser opens ${keepEnd(hostForDisplay(result), 100)} (${why}). The address above is the one that opens.`,
      );
  }
}

/**
 * A name after "@" in the path, query or fragment that reads as the host to someone who knows that
 * "user@host" names a host (evil.com#@good.com, evil.com/?@good.com, evil.com/x@good.com). An "@" inside a
 * query value (?next=a@b.com) or one naming the host's own domain does not count.
 */
function misleadingAt(parsed: URL, host: string): string | undefined {
  const tail = parsed.pathname + parsed.search + parsed.hash;
  const own = parseDomain(host).domain;
  for (const m of tail.matchAll(/@([a-z0-9.-]+)/gi)) {
    const segment =
      tail
        .slice(0, m.index)
        .split(/[/?#&;]/)
        .pop() ?? "";
    if (segment.includes("=")) continue;
    const name = m[1]!.replace(/\.$/, "").toLowerCase();
    if (ipKind(name) === "IPv4") return name;
    const info = parseDomain(name);
    if (info.domain && info.isIcann && info.domain !== own) return name;
  }
  return undefined;
}
