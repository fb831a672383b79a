// <mcp-elicit-sampling-review>: a person sees a server's model request before any model does (approve, edit
// or deny), then the model's answer before the server does (approve, edit or reject). With no model the
// person writes the answer. Everything shown is made inert again here, whoever built the view.
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from "lit";
import type {
  SamplingAnswerReview,
  SamplingAnswerView,
  SamplingEdit,
  SamplingRequestReview,
  SamplingRequestView,
} from "../../../client/ui.js";
import { emitAnswer } from "./answer-event.js";
import { inert, inertLine } from "./inert.js";
import { theme } from "./theme.js";
import type { McpElicitSamplingReviewElement, SamplingReviewPhase, SamplingReviewRequest } from "./types.js";

/** Bound for one message or the answer as shown (the client's MAX_SAMPLING_TEXT). */
const MAX_TEXT = 20_000;

const text = (t: unknown) => inert(t, MAX_TEXT);
/** A list from the view, or none: a malformed view shows less, it never breaks the element. */
const list = (xs: unknown): unknown[] => (Array.isArray(xs) ? xs : []);

export class McpElicitSamplingReview extends LitElement implements McpElicitSamplingReviewElement {
  static override styles = theme;
  static override shadowRootOptions = { ...LitElement.shadowRootOptions, delegatesFocus: true };
  static override properties = {
    request: { attribute: false },
    phase: {},
    answer: { attribute: false },
    _editing: { state: true },
    _decided: { state: true },
  };

  declare request: SamplingReviewRequest | undefined;
  declare phase: SamplingReviewPhase;
  /** The model's answer in the answer phase; undefined there means no model: the person writes the answer. */
  declare answer: SamplingAnswerView | undefined;
  declare _editing: boolean;
  /** What the person decided in this phase, shown until the host moves on. */
  declare _decided: string;

  constructor() {
    super();
    this.request = undefined;
    this.phase = "request";
    this.answer = undefined;
    this._editing = false;
    this._decided = "";
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("request") || changed.has("phase") || changed.has("answer")) {
      this._editing = false;
      this._decided = "";
    }
  }

  private get serverName(): string {
    return inertLine(this.request?.server?.name) || "the server";
  }

  private field<T extends HTMLElement = HTMLTextAreaElement>(id: string): T | null {
    return this.renderRoot.querySelector<T>(`#${id}`);
  }

  private async startEditing(): Promise<void> {
    this._editing = true;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>("textarea, input")?.focus();
  }

  private decideRequest(review: SamplingRequestReview): void {
    this._decided = review.action === "deny" ? `Denied: nothing was sent to a model.` : "Approved: waiting for the answer.";
    emitAnswer<SamplingRequestReview>(this, review);
  }

  /** Approve, with what the person changed (only what differs from the request). */
  private approveRequest(): void {
    const r = this.request!;
    if (!this._editing) return this.decideRequest({ action: "approve" });
    const edit: SamplingEdit = {};
    const system = this.field("system")?.value;
    if (system !== undefined && system !== text(r.systemPrompt)) edit.systemPrompt = system;
    (list(r.messages) as SamplingRequestView["messages"]).forEach((m, i) => {
      const value = this.field(`message-${i}`)?.value;
      if (value !== undefined && value !== text(m?.text)) (edit.messages ??= {})[i] = value;
    });
    const tokens = this.field<HTMLInputElement>("max-tokens");
    const max = Number(tokens?.value);
    if (tokens && (!Number.isInteger(max) || max <= 0)) {
      tokens.setAttribute("aria-invalid", "true");
      this.field("max-tokens-error")!.textContent = "Maximum tokens must be a whole number above 0";
      return void tokens.focus();
    }
    if (max !== r.maxTokens) edit.maxTokens = max;
    this.decideRequest(Object.keys(edit).length ? { action: "approve", edit } : { action: "approve" });
  }

  private decideAnswer(review: SamplingAnswerReview): void {
    this._decided = review.action === "reject" ? "Rejected: the answer was not sent." : `Sent the answer to ${this.serverName}.`;
    emitAnswer<SamplingAnswerReview>(this, review);
  }

  private approveAnswer(): void {
    const typed = this.field("answer")?.value;
    if (typed === undefined) return this.decideAnswer({ action: "approve" });
    if (!this.answer && typed.trim() === "") {
      this.field("answer")!.setAttribute("aria-invalid", "true");
      this.field("answer-error")!.textContent = "Answer is required: write the answer, or Reject";
      return void this.field("answer")!.focus();
    }
    this.decideAnswer(this.answer && typed === text(this.answer.text) ? { action: "approve" } : { action: "approve", text: typed });
  }

  protected override render(): TemplateResult | typeof nothing {
    if (this.request === undefined) return nothing;
    if (this._decided) return html`<p class="status" role="status" part="status">${this._decided}</p>`;
    return this.phase === "answer" ? this.renderAnswer() : this.renderRequest();
  }

  private renderRequest(): TemplateResult {
    const r = this.request!;
    const p: SamplingRequestView["priorities"] = typeof r.priorities === "object" && r.priorities !== null ? r.priorities : {};
    const priorities = (["cost", "speed", "intelligence"] as const).filter((k) => typeof p[k] === "number").map((k) => `${k} ${p[k]}`);
    const editing = this._editing;
    const messages = list(r.messages) as SamplingRequestView["messages"];
    const hints = list(r.modelHints).map(inertLine);
    const tools = list(r.tools).map(inertLine);
    return html`<h2 part="heading">Model request from ${this.serverName}</h2>
      <p class="muted">Nothing goes to a model before you approve.</p>
      <dl part="details">
        <dt>Model</dt>
        <dd>${r.model === undefined ? "No model is set up: you write the answer" : inertLine(r.model)}</dd>
        ${
          hints.length
            ? html`<dt>Model hints</dt>
                <dd>${hints.join(", ")}</dd>`
            : nothing
        }
        ${
          priorities.length
            ? html`<dt>Priorities</dt>
                <dd>${priorities.join(", ")}</dd>`
            : nothing
        }
        ${
          tools.length
            ? html`<dt>Tools</dt>
                <dd>${tools.join(", ")}</dd>`
            : nothing
        }
        ${
          editing
            ? nothing
            : html`<dt>Maximum tokens</dt>
                <dd>${inertLine(r.maxTokens)}</dd>`
        }
      </dl>
      ${
        editing
          ? html`<label for="max-tokens">Maximum tokens</label
              ><input
                id="max-tokens"
                type="text"
                inputmode="numeric"
                .value=${inertLine(r.maxTokens)}
                aria-describedby="max-tokens-error"
              />
              <p class="error" id="max-tokens-error" part="error"></p>`
          : nothing
      }
      ${
        r.systemPrompt === undefined
          ? nothing
          : editing
            ? html`<label for="system">System prompt</label><textarea id="system" .value=${text(r.systemPrompt)}></textarea>`
            : html`<h3>System prompt</h3>
                <pre part="text">${text(r.systemPrompt)}</pre>`
      }
      ${messages.map((m, i) => {
        const title = `Message ${i + 1} (${m?.role === "assistant" ? "assistant" : "user"})`;
        return editing
          ? html`<label for="message-${i}">${title}</label><textarea id="message-${i}" .value=${text(m?.text)}></textarea>`
          : html`<h3>${title}</h3>
              <pre part="text">${text(m?.text)}</pre>`;
      })}
      <div class="actions" part="actions">
        <button type="button" class="primary" part="button primary approve" @click=${this.approveRequest}>
          ${editing ? "Approve with edits" : "Approve"}
        </button>
        ${editing ? nothing : html`<button type="button" part="button edit" @click=${this.startEditing}>Edit</button>`}
        <button type="button" part="button deny" @click=${() => this.decideRequest({ action: "deny" })}>Deny</button>
      </div>`;
  }

  private renderAnswer(): TemplateResult {
    const a = this.answer;
    const writing = a === undefined || this._editing;
    const calls = list(a?.toolCalls);
    return html`<h2 part="heading">${a ? `Answer for ${this.serverName}` : `Write the answer for ${this.serverName}`}</h2>
      <p class="muted">Nothing goes back to ${this.serverName} before you approve.</p>
      ${
        a
          ? html`<dl part="details">
              <dt>Model</dt>
              <dd>${inertLine(a.model)}</dd>
              ${
                a.stopReason
                  ? html`<dt>Stopped</dt>
                      <dd>${inertLine(a.stopReason)}</dd>`
                  : nothing
              }
              ${
                calls.length
                  ? html`<dt>Tool calls</dt>
                      <dd>${calls.map(inertLine).join(", ")}</dd>`
                  : nothing
              }
            </dl>`
          : nothing
      }
      ${
        writing
          ? html`<label for="answer">Answer</label
              ><textarea id="answer" aria-describedby="answer-error" .value=${a ? text(a.text) : ""}></textarea>
              <p class="error" id="answer-error" part="error"></p>`
          : html`<pre part="text">${text(a.text)}</pre>`
      }
      <div class="actions" part="actions">
        <button type="button" class="primary" part="button primary approve" @click=${this.approveAnswer}>
          ${a === undefined ? "Send" : this._editing ? "Send edited answer" : "Approve"}
        </button>
        ${writing ? nothing : html`<button type="button" part="button edit" @click=${this.startEditing}>Edit</button>`}
        <button type="button" part="button reject" @click=${() => this.decideAnswer({ action: "reject" })}>Reject</button>
      </div>`;
  }
}
