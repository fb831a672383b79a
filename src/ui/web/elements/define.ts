// Defines one element under its tag. A page that loads a bundle twice, or loads both an element's own entry
// and the whole bundle, or defines the name first, keeps the first definition instead of throwing.
export function defineElement(name: string, element: CustomElementConstructor): void {
  if (typeof customElements !== "undefined" && !customElements.get(name)) customElements.define(name, element);
}
