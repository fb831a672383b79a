// Look-alike names: alphabets mixed in a label, letters of one alphabet posing as another's, and names
// that pass for a well-known brand's domain.
//
// The brand comparison is a skeleton comparison in the manner of UTS #39: both names are reduced to a
// form in which characters that look alike are the same (rn → m, vv → w, cl → d, 1 → l, 0 → o, Cyrillic
// and Greek letters → their Latin twins, accents dropped) and a name whose skeleton equals a brand's
// while its text does not is a look-alike. The tables are small and explicit on purpose: the npm
// confusables packages either follow UTS #39's data, which maps Cyrillic "ӏ" to "i" (so аррӏе is not
// apple) and has no vv/cl sequences, or are profanity filters with tables of their own.
// Scripts a look-alike attack draws from, and the others of IDNs. A letter of none of these counts as
// its own "Other" script, so mixing it with any of them is still flagged.
const SCRIPTS = [
  "Latin",
  "Greek",
  "Cyrillic",
  "Armenian",
  "Hebrew",
  "Arabic",
  "Syriac",
  "Thaana",
  "Nko",
  "Devanagari",
  "Bengali",
  "Gurmukhi",
  "Gujarati",
  "Oriya",
  "Tamil",
  "Telugu",
  "Kannada",
  "Malayalam",
  "Sinhala",
  "Thai",
  "Lao",
  "Tibetan",
  "Myanmar",
  "Georgian",
  "Hangul",
  "Ethiopic",
  "Cherokee",
  "Canadian_Aboriginal",
  "Ogham",
  "Runic",
  "Khmer",
  "Mongolian",
  "Hiragana",
  "Katakana",
  "Bopomofo",
  "Han",
  "Yi",
  "Lisu",
  "Vai",
  "Coptic",
  "Tifinagh",
  "Javanese",
  "Balinese",
  "Sundanese",
  "Osage",
  "Adlam",
] as const;
const SCRIPT_RES = SCRIPTS.map((name) => [name, new RegExp(`\\p{Script=${name}}`, "u")] as const);

/** The scripts of the letters (and script-specific digits) of a label; Common and Inherited count as none. */
export function scriptsOf(label: string): Set<string> {
  const found = new Set<string>();
  for (const c of label) {
    if (!/[\p{L}\p{N}\p{M}]/u.test(c) || /[\p{Script=Common}\p{Script=Inherited}]/u.test(c)) continue;
    found.add(SCRIPT_RES.find(([, re]) => re.test(c))?.[0] ?? "Other");
  }
  return found;
}

// Script mixes that are normal in one writing system (UTS #39 "highly restrictive" level).
const ALLOWED_MIXES: ReadonlySet<string>[] = [
  new Set(["Latin", "Han", "Hiragana", "Katakana"]),
  new Set(["Latin", "Han", "Bopomofo"]),
  new Set(["Latin", "Han", "Hangul"]),
];

export function isAllowedScriptSet(scripts: Set<string>): boolean {
  if (scripts.size <= 1) return true;
  return ALLOWED_MIXES.some((allowed) => [...scripts].every((s) => allowed.has(s)));
}

// Cyrillic, Greek and other letters that look like Latin ones: a name made only of them (and ASCII) is a
// "whole-script" look-alike, such as аррӏе.com for apple.com, which mixes no scripts within a label.
const LATIN_LOOKALIKES: Record<string, string> = {
  а: "a",
  с: "c",
  ԁ: "d",
  е: "e",
  һ: "h",
  і: "i",
  ј: "j",
  ӏ: "l",
  о: "o",
  р: "p",
  ԛ: "q",
  ѕ: "s",
  у: "y",
  ԝ: "w",
  х: "x",
  ү: "y",
  ѵ: "v",
  ɡ: "g",
  ɑ: "a",
  ı: "i",
  ȷ: "j",
  ǀ: "l",
  α: "a",
  ε: "e",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  υ: "u",
  χ: "x",
  γ: "y",
};

/** The plain-Latin name a Unicode host can pass for, when every non-ASCII letter of it has a Latin twin. */
export function latinSkeleton(unicodeHost: string): string | undefined {
  let changed = false;
  let out = "";
  for (const c of unicodeHost) {
    if (c.charCodeAt(0) < 0x80) out += c;
    else if (LATIN_LOOKALIKES[c]) {
      out += LATIN_LOOKALIKES[c];
      changed = true;
    } else return undefined;
  }
  return changed ? out : undefined;
}

// ASCII sequences that read as another letter in the fonts of address bars and terminals (from the
// ASCII entries of UTS #39 confusables.txt: m ≈ rn, w ≈ vv, d ≈ cl, l ≈ 1 ≈ I, o ≈ 0).
// Single characters first, so that "c1" becomes "cl" and then "d".
const ASCII_CONFUSABLES: [RegExp, string][] = [
  [/1/g, "l"],
  // A server writes "googIe.com": the parser lower-cases it to "googie", which still reads as google.
  [/i/g, "l"],
  [/0/g, "o"],
  [/rn/g, "m"],
  [/vv/g, "w"],
  [/cl/g, "d"],
];

/** A label reduced so that labels that look alike are equal; undefined when it has letters we cannot reduce. */
export function skeleton(label: string): string | undefined {
  let s = "";
  for (const c of label.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()) {
    if (c.charCodeAt(0) < 0x80) s += c;
    else if (LATIN_LOOKALIKES[c]) s += LATIN_LOOKALIKES[c];
    else return undefined;
  }
  for (const [re, to] of ASCII_CONFUSABLES) s = s.replace(re, to);
  return s;
}

// The registrable domains of brands most often impersonated by phishing, and the sign-in and payment
// domains an MCP server is likely to send a person to. Labels shorter than 4 letters are left out (too
// many ordinary names are a letter away from them).
export const BRAND_DOMAINS = [
  "google.com",
  "gmail.com",
  "youtube.com",
  "googleapis.com",
  "microsoft.com",
  "microsoftonline.com",
  "live.com",
  "outlook.com",
  "office.com",
  "office365.com",
  "azure.com",
  "sharepoint.com",
  "apple.com",
  "icloud.com",
  "amazon.com",
  "amazonaws.com",
  "paypal.com",
  "stripe.com",
  "shopify.com",
  "squareup.com",
  "wise.com",
  "revolut.com",
  "github.com",
  "gitlab.com",
  "bitbucket.org",
  "atlassian.com",
  "atlassian.net",
  "npmjs.com",
  "docker.com",
  "vercel.com",
  "heroku.com",
  "cloudflare.com",
  "slack.com",
  "zoom.us",
  "discord.com",
  "notion.so",
  "figma.com",
  "dropbox.com",
  "docusign.com",
  "docusign.net",
  "facebook.com",
  "instagram.com",
  "whatsapp.com",
  "twitter.com",
  "linkedin.com",
  "reddit.com",
  "telegram.org",
  "twitch.tv",
  "okta.com",
  "auth0.com",
  "salesforce.com",
  "adobe.com",
  "yahoo.com",
  "hubspot.com",
  "zendesk.com",
  "intuit.com",
  "openai.com",
  "chatgpt.com",
  "anthropic.com",
  "claude.ai",
  "huggingface.co",
  "coinbase.com",
  "binance.com",
  "metamask.io",
  "chase.com",
  "wellsfargo.com",
  "bankofamerica.com",
  "citi.com",
  "americanexpress.com",
  "mastercard.com",
  "visa.com",
  "netflix.com",
  "spotify.com",
  "ebay.com",
  "booking.com",
  "airbnb.com",
  "steampowered.com",
  "steamcommunity.com",
  "roblox.com",
  "epicgames.com",
] as const;

interface Brand {
  domain: string;
  label: string;
  skeleton: string;
}
const BRANDS: Brand[] = BRAND_DOMAINS.map((domain) => {
  const label = domain.slice(0, domain.indexOf("."));
  return { domain, label, skeleton: skeleton(label)! };
}).filter((b) => b.label.length >= 4);
const BRAND_BY_DOMAIN = new Set<string>(BRAND_DOMAINS);

/**
 * The brand domain a registrable domain passes for without being it: its label differs from the brand's
 * label but reads the same (rnicrosoft.com, paypa1.com, pаypal.com, g00gle.co.uk). The brand's own label
 * under another suffix (google.de) is not a look-alike.
 */
export function brandLookalike(registrable: string, unicodeRegistrable?: string): { brand: string; label: string } | undefined {
  if (BRAND_BY_DOMAIN.has(registrable)) return undefined;
  // A registrable domain is one label in front of its public suffix.
  const label = (unicodeRegistrable ?? registrable).split(".")[0]!;
  const s = skeleton(label);
  if (!s) return undefined;
  const brand = BRANDS.find((b) => b.skeleton === s && b.label !== label);
  return brand ? { brand: brand.domain, label } : undefined;
}

// Top-level names that make the start of a name read as a complete domain ("mybank.com.evil.com").
// Newer top-level names (.app, .dev, .cloud...) are also ordinary words in subdomains, so they do not count.
const DOMAIN_LIKE_TLDS = new Set(["com", "net", "org", "edu", "gov"]);

/**
 * A complete domain name at the start of a host, in front of the registrable domain that really owns it:
 * "accounts.google.com.evil.co.uk" begins with google.com. Brand domains (also their look-alikes) count
 * anywhere in the subdomain part, other names when they end in .com, .net, .org, .edu or .gov; a dash
 * may follow the top-level name ("paypal.com-secure.evil.net").
 */
export function domainInSubdomain(before: string): string | undefined {
  const labels = before.toLowerCase().replace(/\.$/, "").split(".").filter(Boolean);
  if (labels.length < 2) return undefined;
  const skeletons = labels.map((l) => skeleton(l));
  for (const b of BRANDS) {
    const [label, ...rest] = b.domain.split(".");
    for (let i = 0; i + rest.length < labels.length; i++) {
      const head = labels[i] === label || skeletons[i] === b.skeleton;
      if (head && rest.every((r, j) => tldLike(labels[i + 1 + j]!, r))) return [labels[i], ...rest].join(".");
    }
  }
  for (let i = 0; i + 1 < labels.length; i++) {
    const tld = [...DOMAIN_LIKE_TLDS].find((t) => tldLike(labels[i + 1]!, t));
    if (tld && !DOMAIN_LIKE_TLDS.has(labels[i]!)) return `${labels[i]}.${tld}`;
  }
  return undefined;
}

/** "com", or "com-" followed by more ("paypal.com-secure.evil.net" reads as paypal.com). */
const tldLike = (label: string, tld: string) => label === tld || label.startsWith(`${tld}-`);

/** Letters of the right-to-left scripts IDNA's bidi rule applies to. */
const RTL_LETTER =
  /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}]/u;
/** A letter of any other script: left-to-right. */
const LTR_LETTER =
  /(?![\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}])\p{L}/u;

/** Whether a label has right-to-left letters beside left-to-right ones, which IDNA's bidi rule forbids. */
export const mixesDirections = (label: string): boolean => RTL_LETTER.test(label) && LTR_LETTER.test(label);
