// An ElicitationUI for fuzzing: it checks everything it is given is what attachElicitation promises
// (a form that passes checkSchema, a URL that passed analysis, texts without raw control characters)
// and answers from the current case's generator, so that answers are as varied as the requests.
import assert from "node:assert/strict";
import fc from "fast-check";
import type { ElicitationUI, FormAnswer, FormRequest, UIContext, UrlAnswer, UrlRequest } from "../../../src/client/ui.js";
import { checkSchema, hasErrors } from "../../../src/schema/check.js";
import { answerFor } from "./arbitraries.js";
import { hasRawControl } from "./settings.js";

const FUZZ_URL_ANSWERS = fc.constantFrom<UrlAnswer>("accept", "decline", "cancel");

type Pick = <T>(arb: fc.Arbitrary<T>) => T;

function assertInert(text: unknown, what: string) {
  assert.equal(typeof text, "string", `${what} is not text`);
  assert.ok(!hasRawControl(text as string), `${what} holds a raw control character: ${JSON.stringify(text).slice(0, 200)}`);
}

export class FuzzUI implements ElicitationUI {
  forms = 0;
  urls = 0;
  notices = 0;
  /** The current case's generator (fc.gen()), set before each case. */
  pick: Pick = () => {
    throw new Error("FuzzUI.pick was not set for this case");
  };

  async form(request: FormRequest, context: UIContext): Promise<FormAnswer> {
    this.forms++;
    const issues = checkSchema(request.schema, { protocol: context.protocol });
    assert.ok(!hasErrors(issues), `the UI was given a form that fails checkSchema: ${JSON.stringify(issues.slice(0, 3))}`);
    assertInert(request.message, "the form's message");
    assertInert(context.server.name, "the server's name");
    for (const f of request.fields) {
      assertInert(f.label, `field ${JSON.stringify(f.name)}'s label`);
      if (f.help !== undefined) assertInert(f.help, `field ${JSON.stringify(f.name)}'s help`);
      for (const o of f.options ?? []) assertInert(o.label, `an option label of ${JSON.stringify(f.name)}`);
    }
    for (const w of request.warnings) assertInert(w, "a warning");
    return answerFor(request.fields, this.pick);
  }

  async url(request: UrlRequest, _context: UIContext): Promise<UrlAnswer> {
    this.urls++;
    assert.equal(request.analysis.ok, true, `the UI was asked to consent to a refused URL: ${request.analysis.url}`);
    assertInert(request.message, "the URL request's message");
    assertInert(request.analysis.url, "the URL shown");
    for (const w of request.analysis.warnings) assertInert(w.message, "a URL warning");
    return this.pick(FUZZ_URL_ANSWERS);
  }

  notice(message: string): void {
    this.notices++;
    assertInert(message, "a notice");
  }
}
