// scriptedUI: answers elicitation from a list, for non-interactive runs (`elicit call --answers`).
// Entries are used in order; the first unused entry whose `match` fits the message wins.
import type { ElicitationUI, FormAnswer, UrlAnswer } from "../client/ui.js";
import type { FormContent } from "../schema/types.js";

export interface ScriptedAnswer {
  /** A regular expression tested against the (sanitized) message; no match = any message. */
  match?: string;
  action: "accept" | "decline" | "cancel";
  /** The form content, for an accepted form. URL requests take only the action (consent). */
  content?: FormContent;
}

export interface ScriptedUIOptions {
  /** Where notices go (default: stderr). */
  log?: (line: string) => void;
}

export function scriptedUI(answers: ScriptedAnswer[], options: ScriptedUIOptions = {}): ElicitationUI & { remaining(): ScriptedAnswer[] } {
  const pending = answers.map((a) => ({ ...a, re: a.match === undefined ? undefined : new RegExp(a.match, "u") }));
  const log = options.log ?? ((line: string) => process.stderr.write(line + "\n"));
  const take = (message: string) => {
    const i = pending.findIndex((a) => !a.re || a.re.test(message));
    return i < 0 ? undefined : pending.splice(i, 1)[0];
  };
  return {
    async form(request): Promise<FormAnswer> {
      const entry = take(request.message);
      if (!entry) {
        log(`elicit: no scripted answer matches "${request.message.slice(0, 80)}"; answering cancel.`);
        return { action: "cancel" };
      }
      return entry.action === "accept" ? { action: "accept", content: entry.content ?? {} } : { action: entry.action };
    },
    async url(request): Promise<UrlAnswer> {
      const entry = take(request.message);
      if (!entry) {
        log(`elicit: no scripted answer matches "${request.message.slice(0, 80)}"; answering cancel.`);
        return "cancel";
      }
      return entry.action;
    },
    notice(message) {
      log(`elicit: ${message}`);
    },
    remaining: () => pending.map(({ re: _re, ...a }) => a),
  };
}
