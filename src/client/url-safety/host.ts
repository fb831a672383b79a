// Host-level helpers of the URL analysis: IP literals, names that only reach this computer or a local
// network, names that carry an IP address, and the host as the server wrote it.
import { parse as parseDomain } from "tldts";

/** "IPv4" / "IPv6" when the (normalized) hostname is an IP literal. */
export function ipKind(host: string): "IPv4" | "IPv6" | undefined {
  if (host.startsWith("[")) return "IPv6";
  // The URL parser turns every IPv4 spelling (0x7f000001, 2130706433, 0177.1, 127.1) into dotted decimal.
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)) return "IPv4";
  return undefined;
}

// Services whose every name resolves to 127.0.0.1 (documented by their operators; used for local
// development): a link to one of them is a link to this computer.
export const LOOPBACK_SERVICES = ["localtest.me", "lvh.me", "vcap.me", "lacolhost.com"] as const;

// Wildcard-DNS services: a name under them resolves to the IP address written in it
// (10.0.0.1.nip.io, app-10-0-0-1.sslip.io, 0a000001.nip.io). xip.io is gone, but names under it
// still read as an address.
export const WILDCARD_IP_SERVICES = ["nip.io", "sslip.io", "xip.io", "traefik.me"] as const;

const under = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/** localhost, *.localhost, localhost.localdomain, the loopback services, 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
export function isLoopback(host: string): boolean {
  const name = host.replace(/\.$/, "");
  if (under(name, "localhost") || name === "localhost.localdomain" || LOOPBACK_SERVICES.some((d) => under(name, d))) return true;
  if (/^127\.\d+\.\d+\.\d+$/.test(name)) return true;
  return host === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}

// Top-level names set aside for private networks or testing (RFC 2606, 6761, 6762, 8375, ICANN's
// .internal of 2024) and the private ones in wide use (.lan, .home, .corp, .localdomain); any other
// top-level name that is not in the public suffix list is treated the same way.
const RESERVED_TLDS: Record<string, string> = {
  local: "local-network (mDNS) names",
  internal: "names inside private networks",
  localdomain: "names of this computer or its local network",
  lan: "names on a local network",
  home: "names on a home network",
  corp: "names inside company networks",
  test: "testing",
  example: "examples",
  invalid: "names that must never resolve",
};

/** Why a name only reaches this computer or a private network, or undefined for a public internet name. */
export function localName(host: string): { loopback: boolean; why: string } | undefined {
  const name = host.replace(/\.$/, "").toLowerCase();
  if (isLoopback(name)) return { loopback: true, why: "" };
  if (under(name, "home.arpa")) return { loopback: false, why: ".home.arpa is for names on a home network" };
  const labels = name.split(".");
  const tld = labels[labels.length - 1]!;
  const info = parseDomain(name, { allowPrivateDomains: true });
  if (info.isIcann || info.isPrivate) return undefined;
  if (labels.length === 1) return { loopback: false, why: "" };
  return {
    loopback: false,
    why: `.${tld} ${RESERVED_TLDS[tld] ? `is for ${RESERVED_TLDS[tld]}` : "is not a top-level name on the internet"}`,
  };
}

/** What an IPv4 address is, for a message: "your own computer", "a private network", ... or "". */
export function ipv4Scope(ip: string): string {
  const [a, b] = ip.split(".").map(Number) as [number, number];
  if (a === 127) return "your own computer";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "a private network";
  if (a === 169 && b === 254) return "a link-local address, used for cloud metadata services";
  if (a === 0) return "this computer";
  return "";
}

const octet = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const DOTTED = new RegExp(`(?:^|\\.)${octet}\\.${octet}\\.${octet}\\.${octet}(?=\\.)`);
const DASHED = new RegExp(`(?:^|[.-])${octet}-${octet}-${octet}-${octet}(?=[.-])`);
const HEX = /(?:^|[.-])([0-9a-f]{8})(?=\.)/;

/**
 * An IP address carried in a name (127.0.0.1.nip.io, 10.0.0.1.evil.com), with the wildcard service when the
 * name is under one. Dashed and hex forms count only under a known service: other names use dashes for
 * their own reasons (ec2-54-1-2-3.compute-1.amazonaws.com).
 */
export function ipInName(host: string): { ip?: string; service?: string } | undefined {
  const name = host.replace(/\.$/, "").toLowerCase();
  const service = WILDCARD_IP_SERVICES.find((d) => under(name, d));
  const dotted = DOTTED.exec(name);
  if (dotted) return { ip: dotted.slice(1, 5).join("."), ...(service ? { service } : {}) };
  if (!service) return undefined;
  const dashed = DASHED.exec(name);
  if (dashed) return { ip: dashed.slice(1, 5).join("."), service };
  const hex = HEX.exec(name);
  if (hex)
    return {
      ip: hex[1]!
        .match(/../g)!
        .map((h) => parseInt(h, 16))
        .join("."),
      service,
    };
  return { service };
}

/** The host as the server wrote it (before any mapping or decoding), without user info or port. */
export function rawHost(input: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:[/\\]*([^/\\?#]*)/i.exec(input);
  if (!m) return undefined;
  const authority = m[1]!;
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1);
  return hostPort.startsWith("[") ? hostPort.replace(/(\])(?::\d*)?$/, "$1") : hostPort.replace(/:\d*$/, "");
}

// Characters a browser reads as a dot in a name (UTS #46 maps them to ".").
const DOT_LOOKALIKES = /[\u3002\uFF0E\uFF61]/u;

/**
 * How the written host differs from the one that opens, in words, or undefined when a person reading the
 * written host reads the same name: label by label, the ASCII form that opens or its Unicode form, case
 * and Unicode normalization aside (the punycode form of an internationalized name has its own warning).
 */
export function hostRewrite(written: string, host: string, unicode?: string): string | undefined {
  const folded = written.normalize("NFC").toLowerCase().split(".");
  const ascii = host.split(".");
  const read = (unicode ?? host).normalize("NFC").split(".");
  if (folded.length === ascii.length && folded.every((l, i) => l === ascii[i] || l === read[i])) return undefined;
  const why: string[] = [];
  const dots = [...new Set([...written].filter((c) => DOT_LOOKALIKES.test(c)))];
  if (dots.length)
    why.push(
      `${dots.map((c) => `“${c}” (U+${c.codePointAt(0)!.toString(16).toUpperCase()})`).join(", ")} ${dots.length > 1 ? "are" : "is"} read as a dot`,
    );
  if (/[\uFF01-\uFF5E]/.test(written.replace(/[\uFF0E]/g, ""))) why.push("fullwidth letters are read as plain ones");
  if (/%[0-9a-f]{2}/i.test(written)) why.push("%-codes in the name are decoded");
  if (!why.length) why.push("the browser maps some of its characters to others");
  return why.join("; ");
}
