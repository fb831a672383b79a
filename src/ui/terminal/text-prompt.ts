// A one-line text prompt built on @inquirer/core: like @inquirer/input, but the starting value is
// typed into the line (so Enter keeps it and clearing the line means "no answer"), validation
// messages come from the caller verbatim, and a secret can be masked while typed.
import { createPrompt, isEnterKey, makeTheme, useEffect, useKeypress, usePrefix, useState, type Status } from "@inquirer/core";

export interface TextPromptConfig {
  message: string;
  /** Typed into the line when the prompt opens: a default or the current answer. */
  initial?: string;
  /** The error to show for a value, or undefined when it is acceptable. */
  validate: (value: string) => string | undefined;
  /** Shows the finished answer (e.g. "(skipped)" for an empty line). */
  format?: (value: string) => string;
  /** Shown under the line while it is being edited. */
  hint?: string;
  /** Shows "•" for every character (a field that looks like it asks for a secret). */
  mask?: boolean;
  /** Renders an error message (the caller's styling, with its "Error:" label). */
  error: (message: string) => string;
}

export const textPrompt = createPrompt<string, TextPromptConfig>((config, done) => {
  const theme = makeTheme({});
  const [status, setStatus] = useState<Status>("idle");
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const prefix = usePrefix({ status, theme });

  useEffect((rl) => {
    if (config.initial) {
      rl.write(config.initial);
      setValue(config.initial);
    }
  }, []);

  useKeypress((key, rl) => {
    if (status !== "idle") return;
    if (isEnterKey(key)) {
      const problem = config.validate(value);
      if (problem === undefined) {
        setStatus("done");
        done(value);
      } else {
        // readline emptied its line on Enter: put the text back so it can be corrected.
        rl.write(value);
        setError(problem);
      }
    } else {
      setValue(rl.line);
      setError(undefined);
    }
  });

  const message = theme.style.message(config.message, status);
  if (status === "done") {
    const shown = config.format ? config.format(value) : config.mask ? mask(value) : value;
    return `${prefix} ${message} ${theme.style.answer(shown)}`;
  }
  // The line must end with the text being edited: the screen manager places the cursor from it.
  const line = `${prefix} ${message} ${config.mask ? mask(value) : value}`;
  const bottom = [error ? config.error(error) : undefined, config.hint].filter((s) => s !== undefined).join("\n");
  return [line, bottom];
});

/** One "•" per UTF-16 unit, so the cursor stays where readline puts it. */
export function mask(value: string): string {
  return "•".repeat(value.length);
}
