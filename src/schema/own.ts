// Maps keyed by names from the wire (field names, input keys, step names) use own properties only:
// a field called "constructor" must not find Object.prototype's, and one called "__proto__" must be
// a key like any other rather than replace the object's prototype.

const ObjectPrototype = Object.prototype;
const getPrototypeOf = Object.getPrototypeOf;

/** Sets an own, enumerable property, also for names like "__proto__" that plain assignment would not. */
export function setOwn(target: object, key: string, value: unknown): void {
  // Plain assignment makes an own data property unless something on the prototype chain takes the key
  // ("__proto__", or an accessor someone put on Object.prototype): it is used only where nothing can,
  // since defining the property costs several times more.
  const proto: unknown = getPrototypeOf(target);
  if (proto === null || (proto === ObjectPrototype && !(key in ObjectPrototype))) {
    (target as Record<string, unknown>)[key] = value;
    return;
  }
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** An own property's value, never an inherited one. */
export function getOwn(source: object, key: string): unknown {
  return Object.hasOwn(source, key) ? (source as Record<string, unknown>)[key] : undefined;
}
