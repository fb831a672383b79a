// ElicitationUIs that record what they were shown and answer from a script.
import type {
  ElicitationUI,
  FormAnswer,
  FormRequest,
  UIContext,
  UrlAnswer,
  UrlRequest,
  UrlWait,
  UrlWaitOutcome,
} from "../../src/client/ui.js";
import { within } from "./deferred.js";

/** Records every form, URL and notice; answers forms and URLs from its scripts in turn, then cancels. No waitForUrl. */
export class RecordingUI implements ElicitationUI {
  forms: { request: FormRequest; context: UIContext }[] = [];
  urls: { request: UrlRequest; context: UIContext }[] = [];
  notices: { message: string; context: Pick<UIContext, "server"> }[] = [];
  constructor(
    private formAnswers: FormAnswer[] = [],
    private urlAnswers: UrlAnswer[] = [],
  ) {}
  async form(request: FormRequest, context: UIContext): Promise<FormAnswer> {
    this.forms.push({ request, context });
    return this.formAnswers.shift() ?? { action: "cancel" };
  }
  async url(request: UrlRequest, context: UIContext): Promise<UrlAnswer> {
    this.urls.push({ request, context });
    return this.urlAnswers.shift() ?? "cancel";
  }
  notice(message: string, context: Pick<UIContext, "server">): void {
    this.notices.push({ message, context });
  }
  get calls() {
    return this.forms.length + this.urls.length;
  }
}

const COMPLETION_WAIT_MS = 15_000;

/** A RecordingUI that also waits for URL flows: it records each wait and ends it with `outcome`, or once the flow completes. */
export class UrlWaitingUI extends RecordingUI {
  waits: UrlWait[] = [];
  constructor(
    urlAnswers: UrlAnswer[],
    private outcome?: UrlWaitOutcome,
  ) {
    super([], urlAnswers);
  }
  async waitForUrl(wait: UrlWait, _context: UIContext): Promise<UrlWaitOutcome> {
    this.waits.push(wait);
    if (this.outcome) return this.outcome;
    // A person would give up and retry; a test fails, naming what it waited for, rather than hang.
    await within(wait.completed, COMPLETION_WAIT_MS, `the completion of the URL flow at ${wait.host}`);
    return "completed";
  }
}
