// A provider's text quoted in our errors, cut to `max` characters: a model or a proxy can answer with pages
// of it, and an error message travels to logs and screens.

/** `text` up to `max` characters, with "…" when it was cut. */
export const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text);
