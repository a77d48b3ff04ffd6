import { defineProperty } from './intrinsics';
import { createRuntime, type TandemRuntime } from './runtime';

/** Name of the global the runtime installs itself as, once per document. */
export const RUNTIME_GLOBAL = '__tandem';

/**
 * Installs the runtime as a non-enumerable, non-writable global, or returns the one already there,
 * so injecting twice keeps the first runtime and its element indices.
 */
export function installRuntime(win: Window = window): TandemRuntime {
  const existing = (win as unknown as Record<string, unknown>)[RUNTIME_GLOBAL] as TandemRuntime | undefined;
  if (existing && typeof existing === 'object' && typeof existing.snapshot === 'function') return existing;
  const runtime = createRuntime(win);
  defineProperty(win, RUNTIME_GLOBAL, { value: runtime, enumerable: false, writable: false, configurable: false });
  return runtime;
}
