/**
 * JavaScript builtins captured when the runtime loads, so a page that later patches
 * `String.prototype`, `Array.prototype`, `Math` or `Map` cannot change what the runtime computes.
 * Runtime code also avoids iteration protocols (for-of, spread, array destructuring), which go
 * through the patchable `Symbol.iterator`: it loops by index and appends with `a[a.length] = x`.
 * Pure: no DOM, so the text helpers built on it run under Node in unit tests.
 */

const bind = Function.prototype.bind;
const call = Function.prototype.call;

/** `uncurry(String.prototype.trim)(s)` calls the captured method; no property lookup at call time. */
export const uncurry = bind.bind(call) as <This, Args extends unknown[], Ret>(
  fn: (this: This, ...args: Args) => Ret,
) => (self: This, ...args: Args) => Ret;

const S = String.prototype;
export const strTrim = uncurry(S.trim);
export const strSlice = uncurry(S.slice);
export const strLower = uncurry(S.toLowerCase);
export const strIndexOf = uncurry(S.indexOf);
export const strCharCodeAt = uncurry(S.charCodeAt);
export const strStartsWith = uncurry(S.startsWith);
export const strEndsWith = uncurry(S.endsWith);
export const strLastIndexOf = uncurry(S.lastIndexOf);
export const toStr = String;

const A = Array.prototype;
export const arrSort = uncurry(A.sort) as <T>(arr: T[], compare: (a: T, b: T) => number) => T[];

export const mathMin = Math.min;
export const mathMax = Math.max;
export const mathRound = Math.round;
export const mathFloor = Math.floor;
export const mathAbs = Math.abs;
export const mathSqrt = Math.sqrt;
export const isFiniteNumber = Number.isFinite;
/** `Number(x)` and `Number.parseFloat`, captured: a page may replace `window.Number`. */
export const toNumber = Number;
export const parseFloatNumber = Number.parseFloat;
export const ErrorCtor = Error;
export const dateNow = Date.now;
export const defineProperty = Object.defineProperty;
export const freeze = Object.freeze;
export const PromiseCtor = Promise;
export const jsonStringify = JSON.stringify;
export const jsonParse = JSON.parse;

const mapGet = uncurry(Map.prototype.get);
const mapSet = uncurry(Map.prototype.set);
const mapDelete = uncurry(Map.prototype.delete);
const mapForEach = uncurry(Map.prototype.forEach);
const MapCtor = Map;

/** A Map whose methods were captured at load. */
export class SafeMap<K, V> {
  readonly #map = new MapCtor<K, V>();
  get(key: K): V | undefined {
    return mapGet(this.#map, key) as V | undefined;
  }
  set(key: K, value: V): void {
    mapSet(this.#map, key, value);
  }
  delete(key: K): void {
    mapDelete(this.#map, key);
  }
  forEach(fn: (value: V, key: K) => void): void {
    mapForEach(this.#map, fn as (value: unknown, key: unknown) => void);
  }
}

const weakGet = uncurry(WeakMap.prototype.get);
const weakSet = uncurry(WeakMap.prototype.set);
const WeakMapCtor = WeakMap;

/** A WeakMap whose methods were captured at load. */
export class SafeWeakMap<K extends object, V> {
  readonly #map = new WeakMapCtor<K, V>();
  get(key: K): V | undefined {
    return weakGet(this.#map, key) as V | undefined;
  }
  set(key: K, value: V): void {
    weakSet(this.#map, key, value);
  }
}

/** Appends without `Array.prototype.push`. */
export function append<T>(arr: T[], item: T): void {
  arr[arr.length] = item;
}

/** Joins without `Array.prototype.join`. */
export function joinStrings(parts: readonly string[], sep: string): string {
  let out = '';
  for (let i = 0; i < parts.length; i++) out += i === 0 ? parts[i] : sep + parts[i];
  return out;
}
