// The browser's stand-in for `node:url`'s domainToUnicode, which the URL analysis (src/client/url-safety/analyze.ts)
// uses: the build maps `node:url` to this file, so one analysis runs in Node and in the browser.
// `punycode` here is the npm package (bundled), not Node's deprecated built-in of the same name.
import { toASCII, toUnicode } from "punycode";

/** The Unicode form of an ASCII (punycode) host, or "" when a label does not decode, like Node's. */
export function domainToUnicode(domain: string): string {
  try {
    const unicode = toUnicode(domain.toLowerCase());
    // Node answers "" for labels that are not valid punycode; a round trip that does not come back is one.
    return toASCII(unicode).toLowerCase() === domain.toLowerCase() ? unicode : "";
  } catch {
    return "";
  }
}
