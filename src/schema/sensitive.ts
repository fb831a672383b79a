// Heuristic for fields that ask for secrets. The spec forbids collecting passwords, API keys,
// access tokens and payment credentials in form mode; servers must use URL mode for them.

export type SensitiveKind = "password" | "api-key" | "token" | "secret" | "payment-card";

const RULES: [SensitiveKind, RegExp][] = [
  ["password", /\b(password|passwd|passphrase|passcode|pwd|pin code)\b/],
  ["api-key", /\b(api ?key|apikey|access key|private key|secret key)\b/],
  ["token", /\b(token|bearer|oauth code)\b/],
  ["secret", /\b(secret|client secret|credentials?)\b/],
  ["payment-card", /\b((credit|debit|payment) ?card|card ?(number|num|no)|cvv2?|cvc2?|security code|iban)\b/],
];

/** Splits camelCase, snake_case and kebab-case into lower-case words. */
function words(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .toLowerCase();
}

/** The kind of secret a field seems to ask for, judged by its name, title and description. */
export function sensitiveKind(name: string, title?: unknown, description?: unknown): SensitiveKind | undefined {
  const text = [name, title, description]
    .filter((t): t is string => typeof t === "string")
    .map(words)
    .join(" | ");
  return RULES.find(([, re]) => re.test(text))?.[0];
}

// A card's security code is a secret typed once; its number is not: a person reads it back digit by digit
// against the card, as every payment form lets them.
const CARD_CODE = /\b(cvv2?|cvc2?|cvn|security code|card code)\b/;

/**
 * Whether what is typed into a field of this kind is hidden (dots) as it is typed and in the review: every
 * secret kind, but of payment-card details only the security code (CVC), not the card number.
 */
export function maskedAsTyped(kind: SensitiveKind, name: string, title?: unknown, description?: unknown): boolean {
  if (kind !== "payment-card") return true;
  return CARD_CODE.test(
    [name, title, description]
      .filter((t): t is string => typeof t === "string")
      .map(words)
      .join(" | "),
  );
}

export const SENSITIVE_LABELS: Record<SensitiveKind, string> = {
  password: "a password",
  "api-key": "an API key",
  token: "an access token",
  secret: "a secret or credential",
  "payment-card": "payment card details",
};

/** The warning a person sees above a form field that looks like it asks for a secret (terminal and page alike). */
export const sensitiveWarning = (label: string, kind: SensitiveKind) =>
  `"${label}" looks like it asks for ${SENSITIVE_LABELS[kind]}. Servers must not collect that in a form; only answer if you trust this server.`;
