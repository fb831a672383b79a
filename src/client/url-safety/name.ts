// The step of analyzeUrl for a host that is a name (not an IP address): whose it is (the registrable
// domain, a local name, a public suffix), an IP address carried in it, brand look-alikes, a final dot.
import { domainToUnicode } from "node:url";
import { parse as parseDomain } from "tldts";
import type { Reading } from "./analysis.js";
import { ipInName, ipv4Scope, localName } from "./host.js";
import { brandLookalike, domainInSubdomain } from "./lookalike.js";
import { keepEnd } from "./text.js";

/** Registrable domain, local names, names carrying an IP, brand look-alikes, trailing dot. */
export function analyzeName(reading: Reading): void {
  const { host, warn } = reading;
  const info = parseDomain(host, { allowPrivateDomains: true });
  // A host that is itself a hosting service's suffix (s3.amazonaws.com) belongs to the service.
  const domain = info.domain ?? (info.isPrivate ? parseDomain(host).domain : null) ?? undefined;
  const local = localName(host);
  if (domain) registrableParts(reading, domain);
  ownerWarning(reading, local, domain, info.isPrivate === true && !info.domain);
  ipInNameWarning(reading, domain);
  if (domain && !local) lookalikeWarnings(reading, domain);
  if (host.endsWith(".")) {
    warn(
      "trailing-dot",
      `The name ends with a dot (${keepEnd(host)}). It reaches the same server as without it, but the browser treats it as another site: sign-ins and security checks can differ. Open it only if you expect this.`,
    );
  }
}

/** `registrableDomain`, and `hostParts` for the UI to highlight it. */
function registrableParts({ host, result }: Reading, domain: string): void {
  result.registrableDomain = domain;
  // tldts ignores a final dot (an absolute name); it stays in the highlighted part.
  const registrable = host.endsWith(`${domain}.`) ? `${domain}.` : domain;
  if (host.endsWith(registrable)) result.hostParts = { before: host.slice(0, host.length - registrable.length), registrable };
}

/** `local-name`, or `no-registrable-domain` for a public suffix or a hosting service's shared suffix. */
function ownerWarning({ host, warn }: Reading, local: ReturnType<typeof localName>, domain: string | undefined, sharedSuffix: boolean) {
  const h = keepEnd(host);
  if (local) {
    warn(
      "local-name",
      local.loopback
        ? `The address (${h}) points to a program on your own computer, not to a website. Open it only if you expect a local program to ask.`
        : local.why
          ? `The address (${h}) is not a public internet name (${local.why}): it reaches a machine on a local network, if any. Check that you expect it.`
          : `The address (${h}) is a single name with no domain, such as a machine on a local network. Check that you expect it.`,
    );
  } else if (!domain) {
    warn(
      "no-registrable-domain",
      `The address (${h}) is a public suffix such as .com or .co.uk, which no single owner controls. Check that you expect it.`,
    );
  } else if (sharedSuffix && domain === host.replace(/\.$/, "")) {
    // github.io itself: the suffix every customer's site sits under, not one of them.
    warn(
      "no-registrable-domain",
      `The address (${h}) is a hosting service's shared suffix, under which anyone can publish a site; the bare name is no one's site. Check that you expect it.`,
    );
  }
}

/** `ip-in-name`: a wildcard-DNS service's name, or any name with an IP address written in it. */
function ipInNameWarning({ host, warn }: Reading, domain: string | undefined): void {
  const carried = ipInName(host);
  if (!carried) return;
  const scope = carried.ip ? ipv4Scope(carried.ip) : "";
  warn(
    "ip-in-name",
    carried.service
      ? `${carried.service} names resolve to the IP address written in them${carried.ip ? `: this one is ${carried.ip}${scope ? ` (${scope})` : ""}` : ""}. It is an IP address posing as a name; open it only if you expect this exact server.`
      : `The name contains the IP address ${carried.ip}${scope ? ` (${scope})` : ""}, but it is a name under ${keepEnd(domain ?? host)}, whose owner can point it anywhere. Open it only if you expect this exact server.`,
  );
}

/** `lookalike-brand` and `domain-in-subdomain`, read on the Unicode form where the name has one. */
function lookalikeWarnings({ unicode, result, warn }: Reading, domain: string): void {
  const unicodeDomain = unicode && domain.includes("xn--") ? domainToUnicode(domain) || undefined : undefined;
  const brand = brandLookalike(domain, unicodeDomain);
  if (brand)
    warn(
      "lookalike-brand",
      `The name ${keepEnd(unicodeDomain ?? domain)} looks like ${brand.brand} but is a different domain. Check it letter by letter.`,
    );
  const before = result.hostParts?.before;
  const unicodeBefore =
    unicode && before
      ? unicode
          .split(".")
          .slice(0, before.split(".").length - 1)
          .join(".")
      : before;
  const prefix = unicodeBefore ? domainInSubdomain(unicodeBefore) : undefined;
  if (prefix)
    warn(
      "domain-in-subdomain",
      `The name begins with ${keepEnd(prefix)}, but that is only the start of a longer name: the site belongs to ${keepEnd(unicodeDomain ?? domain)}.`,
    );
}
