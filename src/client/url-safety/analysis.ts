// What analyzeUrl gives a UI (UrlAnalysis), and what its steps share while they fill it in (Reading).
import type { ipKind } from "./host.js";

export type UrlWarningCode =
  | "punycode"
  | "mixed-script"
  | "lookalike-character"
  | "lookalike-brand"
  | "domain-in-subdomain"
  | "host-rewritten"
  | "backslash"
  | "misleading-at"
  | "hidden-characters"
  | "ip-host"
  | "ip-in-name"
  | "local-name"
  | "trailing-dot"
  | "credentials"
  | "insecure"
  | "long-url"
  | "no-registrable-domain"
  | "non-standard-port";

export interface UrlWarning {
  code: UrlWarningCode;
  message: string;
}

export interface UrlAnalysis {
  /** False: refuse, never offer to open. */
  ok: boolean;
  /** The normalized href (what would be opened); when refused, an inert one-line rendering of the input. */
  url: string;
  /** Scheme without the colon ("https"); "" when the input is not a URL. */
  scheme: string;
  /** The host that opens, as shown: ASCII (punycode) form, IPv6 in brackets, without the port; "" when refused. */
  host: string;
  /** How the host reads: its Unicode form, when it has punycode labels (show it next to `host`). */
  unicodeHost?: string;
  /** The explicit port, when there is one (the default port of the scheme is never explicit). */
  port?: string;
  /** The domain a person or organization registered (public suffix + one label), e.g. "evil.co.uk". */
  registrableDomain?: string;
  /** `host` split so that a UI can highlight the registrable part: `before + registrable === host`. */
  hostParts?: { before: string; registrable: string };
  warnings: UrlWarning[];
  /** Why the URL is refused (when `ok` is false). */
  refusal?: string;
}

/** The host as a person should see it: "pаypal.com (xn--pypal-4ve.com)" for an internationalized name, else the host. */
export function hostForDisplay(a: Pick<UrlAnalysis, "host" | "unicodeHost">): string {
  return a.unicodeHost && a.unicodeHost !== a.host ? `${a.unicodeHost} (${a.host})` : a.host;
}

/** What the steps of analyzeUrl share: the URL as it opens, the analysis they fill in, and how they add a warning. */
export interface Reading {
  /** The server's text, without the ASCII whitespace at its ends. */
  input: string;
  parsed: URL;
  /** The ASCII host that opens (`parsed.hostname`). */
  host: string;
  /** Whether the host is an IP address, and of which kind. */
  ip: ReturnType<typeof ipKind>;
  loopback: boolean;
  /** How an internationalized host reads, once the step that checks it has (undefined for any other host). */
  unicode?: string;
  result: UrlAnalysis;
  warn(code: UrlWarningCode, message: string): void;
}
