// mcp-elicit/scripted: the non-interactive renderer of the client's UI contract, answering from a list
// (tests, CI, `elicit call --answers`), and the reader of answers files (JSON or YAML, via `yaml`).
import "../ui/error-codes.js"; // the codes of the errors this entry can throw join ErrorCode for its users
export { scriptedUI, URL_RETRY_AFTER_MS, type ScriptedAnswer, type ScriptedSample, type ScriptedUIOptions } from "../ui/scripted.js";
export { parseAnswers, readAnswersFile, AnswersFileError } from "../ui/answers-file.js";
