// Counted nouns in messages a person reads ("1 choice", "3 characters"): the validator's messages, the
// renderers' hints and the terminal's menu say them the same way. In schema/, the lowest layer that needs it.

/** `n` and `word`, with an "s" unless `n` is 1. */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
