// <mcp-elicit-form>: a form-mode elicitation in a page. Who asks and why, every field with its label, help,
// hint and default, then a review of the answers before they are sent (as at the terminal). The fields come
// from describeFields and the answer is checked by validateContent: the same code as the client and server.
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from "lit";
import { describeFields } from "../../../schema/compiled.js";
import { humanize, type Field } from "../../../schema/fields.js";
import { MAX_LONG_TEXT_LENGTH } from "../../../common/sanitize.js";
import { sensitiveWarning } from "../../../schema/sensitive.js";
import type { RequestedSchema } from "../../../schema/types.js";
import { emitAnswer } from "./answer-event.js";
import { renderField } from "./form-field.js";
import { check, initialRaw, showValue, toValue, type RawValue } from "./form-model.js";
import { inert, inertLine } from "./inert.js";
import { HELP_FOLD, longText, messageText } from "./long-text.js";
import { theme } from "./theme.js";
import type { FormElementAnswer, FormElementRequest, McpElicitFormElement } from "./types.js";

type Phase = "fill" | "review" | "done";

export class McpElicitForm extends LitElement implements McpElicitFormElement {
  static override styles = theme;
  static override shadowRootOptions = { ...LitElement.shadowRootOptions, delegatesFocus: true };
  static override properties = {
    request: { attribute: false },
    _phase: { state: true },
    _raws: { state: true },
    _errors: { state: true },
    _unfolded: { state: true },
  };

  /** The form to show; setting it starts over. */
  declare request: FormElementRequest | undefined;
  declare _phase: Phase;
  declare _raws: RawValue[];
  declare _errors: (string | undefined)[];
  /** The long texts the person unfolded: "message", "help-INDEX". */
  declare _unfolded: ReadonlySet<string>;

  private fields: Field[] = [];
  private schema: RequestedSchema | undefined;
  private problem: string | undefined;
  private outcome = "";
  /** Set after the first Submit: from then on messages follow what the person types. */
  private checked = false;

  constructor() {
    super();
    this.request = undefined;
    this._phase = "fill";
    this._raws = [];
    this._errors = [];
    this._unfolded = new Set();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("request")) this.load();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has("request") && this.hasAttribute("autofocus")) this.focus();
  }

  /** Reads the request: a schema that cannot be shown is reported in the element, never thrown. */
  private load(): void {
    this._phase = "fill";
    this._unfolded = new Set();
    this.checked = false;
    this.problem = undefined;
    this.fields = [];
    this.schema = undefined;
    const r = this.request;
    if (r === undefined) return;
    try {
      if (typeof r !== "object" || r === null || typeof r.requestedSchema !== "object" || r.requestedSchema === null)
        throw new Error("the request has no requestedSchema object.");
      this.schema = r.requestedSchema as RequestedSchema;
      this.fields = describeFields(this.schema).map(shown);
    } catch (error) {
      this.schema = undefined;
      this.problem = `This form cannot be shown: ${inert(error instanceof Error ? error.message : error, 600)}`;
    }
    this._raws = this.fields.map(initialRaw);
    this._errors = this.fields.map(() => undefined);
  }

  private get serverName(): string {
    const s = this.request?.server;
    const name = inertLine(s?.name) || "the server";
    const version = inertLine(s?.version);
    return version ? `${name} ${version}` : name;
  }

  private toggle(key: string): void {
    const next = new Set(this._unfolded);
    if (!next.delete(key)) next.add(key);
    this._unfolded = next;
  }

  private change(i: number, raw: RawValue): void {
    this._raws = this._raws.map((r, j) => (j === i ? raw : r));
    if (this.checked && this.schema) {
      const verdict = check(this.schema, this.fields, this._raws);
      this._errors = verdict.ok ? this.fields.map(() => undefined) : verdict.messages.map((m) => (m === undefined ? m : inert(m)));
    }
  }

  // Run from the Submit button's click (Enter in a field clicks it too) as well as from the form's submit event:
  // a frame sandboxed without allow-forms (an MCP App's) never fires submit. preventDefault on the click stops
  // the submission that would follow, so the answer is checked once.
  private async submit(e: Event): Promise<void> {
    e.preventDefault();
    if (!this.schema) return;
    this.checked = true;
    const verdict = check(this.schema, this.fields, this._raws);
    if (!verdict.ok) {
      this._errors = verdict.messages.map((m) => (m === undefined ? m : inert(m)));
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    this._errors = this.fields.map(() => undefined);
    // A form of the host's own (a menu, a tool's arguments) is one step: its button says what it does
    // ("Go", "Call search_flights"), so a review would only ask for the same click twice.
    if (this.request?.own !== undefined) return this.finish({ action: "accept", content: verdict.content });
    this._phase = "review";
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>("h2")?.focus();
  }

  private async edit(): Promise<void> {
    this._phase = "fill";
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>("input, select")?.focus();
  }

  private send(): void {
    if (!this.schema) return;
    // Checked again on the way out: what is sent is exactly what passed validateContent.
    const verdict = check(this.schema, this.fields, this._raws);
    if (!verdict.ok) return void this.edit();
    this.finish({ action: "accept", content: verdict.content });
  }

  private finish(answer: FormElementAnswer): void {
    const own = this.request?.own !== undefined;
    this.outcome =
      answer.action === "accept"
        ? own
          ? "Sent."
          : `Sent your answers to ${this.serverName}.`
        : answer.action === "decline"
          ? `Declined: told ${this.serverName} no.`
          : "Cancelled: nothing was sent.";
    this._phase = "done";
    emitAnswer<FormElementAnswer>(this, answer);
  }

  protected override render(): TemplateResult | typeof nothing {
    const r = this.request;
    if (r === undefined) return nothing;
    const own = r.own;
    const heading = own ? inertLine(own.title) || "Form" : `Form from ${this.serverName}`;
    if (this._phase === "done") return html`<p class="status" role="status" part="status">${this.outcome}</p>`;
    const decline = own
      ? nothing
      : html`<button type="button" part="button decline" @click=${() => this.finish({ action: "decline" })}>Decline</button>`;
    const cancel = html`<button type="button" part="button cancel" @click=${() => this.finish({ action: "cancel" })}>Cancel</button>`;
    const intro = messageText(inert(r.message, MAX_LONG_TEXT_LENGTH), this._unfolded.has("message"), () => this.toggle("message"));
    if (this.problem !== undefined) {
      return html`<h2 part="heading">${heading}</h2>
        ${intro}
        <p class="error" role="alert" part="error">${this.problem}</p>
        <div class="actions" part="actions">${decline}${cancel}</div>`;
    }
    if (this._phase === "review") return this.renderReview(heading, cancel);
    return html`<form novalidate part="form" @submit=${this.submit}>
      <h2 part="heading">${heading}</h2>
      ${intro} ${own || r.hosted === true ? nothing : this.renderWarnings()}
      ${this.fields.some((f) => f.required) ? html`<p class="muted">Fields marked <span aria-hidden="true">*</span> are required.</p>` : nothing}
      ${this.fields.map((field, index) =>
        renderField({
          field,
          index,
          raw: this._raws[index] ?? "",
          error: this._errors[index],
          onChange: (raw) => this.change(index, raw),
          help: (id) =>
            longText({
              text: field.help ?? "",
              fold: HELP_FOLD,
              id,
              className: "help",
              part: "help",
              tag: "span",
              open: this._unfolded.has(`help-${index}`),
              toggle: () => this.toggle(`help-${index}`),
            }),
        }),
      )}
      <div class="actions" part="actions">
        <button type="submit" class="primary" part="button primary submit" @click=${this.submit}>
          ${own ? inertLine(own.submitLabel) || "Send" : "Submit"}</button
        >${decline}${cancel}
      </div>
    </form>`;
  }

  /** Fields that look like they ask for a secret: the same warning the terminal shows. */
  private renderWarnings(): TemplateResult | typeof nothing {
    const warnings = this.fields.filter((f) => f.sensitive).map((f) => sensitiveWarning(f.label, f.sensitive!));
    return warnings.length
      ? html`<ul class="warnings" aria-label="Warnings">
          ${warnings.map((w) => html`<li class="warning" part="warning">Warning: ${w}</li>`)}
        </ul>`
      : nothing;
  }

  /** The review of a server's form (a form of the host's own has none: see submit). */
  private renderReview(heading: string, cancel: TemplateResult): TemplateResult {
    return html`<h2 part="heading" tabindex="-1">Review your answers</h2>
      <p class="muted">${heading}. Nothing is sent until you press Send.</p>
      ${
        this.fields.length
          ? html`<dl part="review">
              ${this.fields.map(
                (f, i) =>
                  html`<dt>${f.label}</dt>
                    <dd>${showValue(f, toValue(f, this._raws[i] ?? ""))}</dd>`,
              )}
            </dl>`
          : html`<p>(This form has no fields.)</p>`
      }
      <div class="actions" part="actions">
        <button type="button" class="primary" part="button primary send" @click=${this.send}>Send</button>
        <button type="button" part="button edit" @click=${this.edit}>Edit</button>${cancel}
      </div>`;
  }
}

/** A field as shown: every text from the server made inert, and a label that is never empty. */
function shown(f: Field, i: number): Field {
  const label = inertLine(f.label) || inertLine(humanize(f.name)) || `Field ${i + 1}`;
  const help = f.help === undefined ? "" : inert(f.help, MAX_LONG_TEXT_LENGTH);
  const copy: Field = { ...f, label, constraints: f.constraints };
  if (help) copy.help = help;
  else delete copy.help;
  if (f.options) copy.options = f.options.map((o) => ({ value: o.value, label: inertLine(o.label) || inertLine(o.value) || "(blank)" }));
  return copy;
}
