// One field of <mcp-elicit-form>, by kind, with native controls so that labels, keyboard use and screen
// readers work as in any HTML form: a text box, a Yes/No radio group, a drop-down list, a group of check boxes.
// Ids are made from the field's position, never from its (untrusted) name.
import { html, nothing, type TemplateResult } from "lit";
import { live } from "lit/directives/live.js";
import type { Field } from "../../../schema/fields.js";
import { fieldHint, type RawValue } from "./form-model.js";

export interface FieldView {
  field: Field;
  index: number;
  raw: RawValue;
  /** The field's own message from validateContent, shown next to it. */
  error: string | undefined;
  onChange: (raw: RawValue) => void;
  /** The field's description under `id`, folded when long (see long-text.ts). */
  help: (id: string) => TemplateResult;
}

const requiredMark = (f: Field) => (f.required ? html`<span class="required" aria-hidden="true"> *</span>` : nothing);

/** The label, with the required mark beside it rather than in it, so the control's name is the field's title alone. */
const labelFor = (v: FieldView) =>
  html`<div class="label-row"><label for="f${v.index}" part="label">${v.field.label}</label>${requiredMark(v.field)}</div>`;

/** The help, hint and error lines under a label, and the ids that aria-describedby names. */
function notes(v: FieldView): { ids: string; lines: TemplateResult } {
  const id = `f${v.index}`;
  const hint = fieldHint(v.field);
  const ids = [v.field.help ? `${id}-help` : "", hint ? `${id}-hint` : "", v.error ? `${id}-error` : ""].filter(Boolean).join(" ");
  const lines = html`${v.field.help ? v.help(`${id}-help`) : nothing}${
    hint ? html`<span class="hint" id="${id}-hint" part="hint">${hint}</span>` : nothing
  }`;
  return { ids, lines };
}

const errorLine = (v: FieldView) => (v.error ? html`<p class="error" id="f${v.index}-error" part="error">${v.error}</p>` : nothing);

export function renderField(v: FieldView): TemplateResult {
  switch (v.field.kind) {
    case "boolean":
      return renderYesNo(v);
    case "choice":
      return renderChoice(v);
    case "multi-choice":
      return renderMulti(v);
    default:
      return renderText(v);
  }
}

function renderText(v: FieldView): TemplateResult {
  const f = v.field;
  const { ids, lines } = notes(v);
  const mode =
    f.kind === "integer"
      ? "numeric"
      : f.kind === "number"
        ? "decimal"
        : f.format === "email"
          ? "email"
          : f.format === "uri"
            ? "url"
            : "text";
  return html`<div class="field" part="field">
    ${labelFor(v)} ${lines}
    <input
      id="f${v.index}"
      part="input"
      type=${f.masked ? "password" : "text"}
      inputmode=${mode}
      autocomplete="off"
      spellcheck="false"
      aria-required=${f.required ? "true" : "false"}
      aria-invalid=${v.error ? "true" : "false"}
      aria-describedby=${ids || nothing}
      .value=${live(typeof v.raw === "string" ? v.raw : "")}
      @input=${(e: Event) => v.onChange((e.target as HTMLInputElement).value)}
    />
    ${errorLine(v)}
  </div>`;
}

function radio(v: FieldView, value: string, label: string): TemplateResult {
  return html`<label class="option" part="option"
    ><input
      type="radio"
      name="f${v.index}"
      value=${value}
      aria-invalid=${v.error ? "true" : "false"}
      .checked=${live(v.raw === value)}
      @change=${() => v.onChange(value)}
    />${label}</label
  >`;
}

function renderYesNo(v: FieldView): TemplateResult {
  const { ids, lines } = notes(v);
  return html`<fieldset
    class="field"
    part="field"
    role="radiogroup"
    aria-required=${v.field.required ? "true" : "false"}
    aria-describedby=${ids || nothing}
  >
    <legend part="label">${v.field.label}${requiredMark(v.field)}</legend>
    ${lines} ${radio(v, "true", "Yes")} ${radio(v, "false", "No")} ${v.field.required ? nothing : radio(v, "", "No answer")} ${errorLine(v)}
  </fieldset>`;
}

function renderChoice(v: FieldView): TemplateResult {
  const f = v.field;
  const { ids, lines } = notes(v);
  // Nothing is chosen for the person: a required list without a default starts on "Choose one".
  const placeholder = !f.required ? "(no answer)" : v.raw === "" ? "Choose one" : undefined;
  return html`<div class="field" part="field">
    ${labelFor(v)} ${lines}
    <select
      id="f${v.index}"
      part="input"
      aria-required=${f.required ? "true" : "false"}
      aria-invalid=${v.error ? "true" : "false"}
      aria-describedby=${ids || nothing}
      @change=${(e: Event) => v.onChange((e.target as HTMLSelectElement).value)}
    >
      ${placeholder === undefined ? nothing : html`<option value="" ?selected=${v.raw === ""}>${placeholder}</option>`}
      ${(f.options ?? []).map((o) => html`<option .value=${o.value} ?selected=${v.raw === o.value}>${o.label}</option>`)}
    </select>
    ${errorLine(v)}
  </div>`;
}

function renderMulti(v: FieldView): TemplateResult {
  const f = v.field;
  const { ids, lines } = notes(v);
  const chosen = Array.isArray(v.raw) ? v.raw : [];
  const toggle = (value: string, on: boolean) => {
    // Kept in the schema's order, whatever order the boxes were ticked in.
    const next = (f.options ?? []).map((o) => o.value).filter((x) => (x === value ? on : chosen.includes(x)));
    v.onChange(next);
  };
  return html`<fieldset class="field" part="field" aria-describedby=${ids || nothing}>
    <legend part="label">${f.label}${requiredMark(f)}</legend>
    ${lines}
    ${(f.options ?? []).map(
      (o) =>
        html`<label class="option" part="option"
          ><input
            type="checkbox"
            aria-invalid=${v.error ? "true" : "false"}
            .checked=${live(chosen.includes(o.value))}
            @change=${(e: Event) => toggle(o.value, (e.target as HTMLInputElement).checked)}
          />${o.label}</label
        >`,
    )}
    ${errorLine(v)}
  </fieldset>`;
}
