// The step of analyzeUrl for internationalized (punycode) names: refused when what they read as cannot
// be shown, otherwise shown in both forms, with warnings for mixed alphabets and look-alike symbols.
import { domainToUnicode } from "node:url";
import type { Reading } from "./analysis.js";
import { isAllowedScriptSet, latinSkeleton, mixesDirections, scriptsOf } from "./lookalike.js";
import { codePoint, keepEnd } from "./text.js";

/** Why an internationalized host is refused, if it is; otherwise sets `reading.unicode` and warns. */
export function internationalName(reading: Reading): string | undefined {
  const { host, ip, result } = reading;
  if (ip || !host.split(".").some((l) => l.startsWith("xn--"))) return undefined;
  const h = keepEnd(host);
  const unicode = domainToUnicode(host) || undefined;
  // Node 22's parser refuses such a host; Node 24's and Chromium's accept it, and domainToUnicode then
  // gives "" or leaves the label as it was: refused here, the same everywhere.
  if (!unicode || unicode.split(".").some((l) => l.startsWith("xn--")))
    return `The host ${h} has a label that is not a valid internationalized name (punycode), so what it reads as cannot be shown.`;
  // IDNA's bidi rule (RFC 5893): a part with right-to-left letters has no left-to-right ones. Node 24's
  // parser refuses such a host and Node 22's accepts it: refused here, the same everywhere.
  const mixedDirection = unicode.split(".").find(mixesDirections);
  if (mixedDirection)
    return `The host ${h} has a part that mixes right-to-left and left-to-right letters (${keepEnd(mixedDirection)}), which no valid internationalized name has.`;
  reading.unicode = unicode;
  if (unicode !== host) result.unicodeHost = unicode;
  readsAsWarnings(reading, unicode);
  return undefined;
}

/** `punycode` for every internationalized name, then `mixed-script` and `lookalike-character` where they apply. */
function readsAsWarnings({ host, warn }: Reading, unicode: string): void {
  const h = keepEnd(host);
  const passesFor = latinSkeleton(unicode);
  warn(
    "punycode",
    `The address uses an internationalized name: it reads as ${keepEnd(unicode)} but is really ${h}${passesFor ? `, and can pass for ${keepEnd(passesFor)}` : ""}. Make sure this is the site you expect, not a look-alike.`,
  );
  const mixed = unicode
    .split(".")
    .map((label) => ({ label, scripts: scriptsOf(label) }))
    .filter((l) => !isAllowedScriptSet(l.scripts));
  if (mixed.length) {
    const what = mixed.map((l) => `“${l.label}” (${[...l.scripts].join(" + ")})`).join(", ");
    warn(
      "mixed-script",
      `The name mixes alphabets in ${what}: letters from one alphabet can pose as letters of another. Check the name letter by letter.`,
    );
  }
  const symbols = [...new Set([...unicode].filter((c) => c !== "." && c !== "-" && !/[\p{L}\p{M}\p{N}]/u.test(c)))];
  if (symbols.length) {
    warn(
      "lookalike-character",
      `The name contains the symbol${symbols.length > 1 ? "s" : ""} ${symbols.map((c) => `“${c}” (${codePoint(c)})`).join(", ")}, which can pass for “/”, “.” or other parts of an address. Check where the domain really ends.`,
    );
  }
}
