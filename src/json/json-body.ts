import { NonStringBodyKeyError, NotJsonError } from './errors.js';

/** A JSON value that is not a container. */
export type JsonPrimitive = string | number | boolean | null;
/** Any JSON value. */
export type JsonValue = JsonPrimitive | readonly JsonValue[] | JsonObject;
/** A JSON object: the body of an annotation, for one. */
export interface JsonObject {
  /** Each member's value. */
  readonly [key: string]: JsonValue;
}

/**
 * Checks that `value` is a plain JSON object (plain objects, arrays, strings, finite numbers,
 * booleans, null: nothing else) and returns a frozen deep copy, so an annotation never shares
 * mutable state with its caller. A `Map` with a non-string key raises NonStringBodyKeyError (the
 * key would be coerced on the wire, and a collision would make two bodies digest alike); any other
 * non-JSON value raises NotJsonError. Paths read like `body["outer"][0]`.
 */
export function copyJsonObject(value: unknown, path = 'body'): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    checkMapKeys(value, path);
    throw new NotJsonError(path, describe(value) + ' (a JSON object is required here)');
  }
  return copy(value, path, new Set()) as JsonObject;
}

/** Same check and copy for any JSON value (tier metadata values, schema fragments). */
export function copyJsonValue(value: unknown, path: string): JsonValue {
  return copy(value, path, new Set());
}

function copy(value: unknown, path: string, ancestors: Set<object>): JsonValue {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new NotJsonError(path, String(value));
      return value === 0 ? 0 : value; // one zero, as in JSON
    case 'object':
      break;
    default:
      throw new NotJsonError(path, describe(value));
  }
  const object = value as object;
  if (ancestors.has(object)) throw new NotJsonError(path, 'a circular reference');
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      if (!isPlainArray(object)) throw new NotJsonError(path, describe(object));
      const items: JsonValue[] = [];
      for (let index = 0; index < object.length; index++) {
        const item: unknown = object[index];
        // Strings and booleans need no check: the path (a string built per item) is made only when needed.
        if (typeof item === 'string' || typeof item === 'boolean') {
          items.push(item);
          continue;
        }
        const itemPath = `${path}[${index}]`;
        if (!(index in object)) throw new NotJsonError(itemPath, 'a hole in a sparse array');
        items.push(copy(item, itemPath, ancestors));
      }
      return Object.freeze(items);
    }
    checkMapKeys(object, path);
    if (!isPlainObject(object)) throw new NotJsonError(path, describe(object));
    const symbols = Object.getOwnPropertySymbols(object);
    if (symbols.length > 0) throw new NonStringBodyKeyError(path, symbols[0]);
    const out: Record<string, JsonValue> = {};
    for (const key of Object.keys(object)) {
      const item = (object as Record<string, unknown>)[key];
      // Strings and booleans need no check: the path (JSON-quoting the key) is built only when needed.
      if ((typeof item === 'string' || typeof item === 'boolean') && key !== '__proto__') {
        out[key] = item;
        continue;
      }
      const itemPath = `${path}[${JSON.stringify(key)}]`;
      if (item === undefined) throw new NotJsonError(itemPath, 'undefined (omit the key instead)');
      const copied = copy(item, itemPath, ancestors);
      // A plain assignment of "__proto__" would set the prototype instead of a key.
      if (key === '__proto__') Object.defineProperty(out, key, { value: copied, enumerable: true, writable: true, configurable: true });
      else out[key] = copied;
    }
    return Object.freeze(out);
  } finally {
    ancestors.delete(object);
  }
}

/**
 * A plain object is one whose prototype is null or an Object.prototype: of any realm, since
 * structuredClone, worker messages and vm contexts hand out objects of their own realm.
 */
export function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === null || (Object.getPrototypeOf(proto) === null && Object.prototype.toString.call(value) === '[object Object]');
}

function isPlainArray(value: unknown[]): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Array.prototype || (proto !== null && proto.constructor?.name === 'Array' && Object.getPrototypeOf(Object.getPrototypeOf(proto)) === null);
}

function checkMapKeys(value: unknown, path: string): void {
  if (value instanceof Map) {
    for (const key of value.keys()) {
      if (typeof key !== 'string') throw new NonStringBodyKeyError(path, key);
    }
    throw new NotJsonError(path, 'a Map (convert it with Object.fromEntries)');
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return Object.getPrototypeOf(value) === Array.prototype ? 'an array' : 'an array subclass';
  if (typeof value === 'object') return `an instance of ${(value as object).constructor?.name ?? 'a class'}`;
  if (typeof value === 'bigint') return `the bigint ${value}n`;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return `the ${typeof value} ${String(value)}`;
  return `a ${typeof value}`;
}
