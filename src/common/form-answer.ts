// A person's answer to a form, as the client's UI contract, the web elements and the server's hosted form page
// all carry it: below client/, server/ and ui/ so that each reads the one definition.
import type { FormContent } from "../schema/types.js";

export type FormAnswer = { action: "accept"; content: FormContent } | { action: "decline" } | { action: "cancel" };
