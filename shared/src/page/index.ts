/**
 * The page runtime (DESIGN §3): DOM snapshot and action execution, running inside a web page.
 * The extension imports this module; the relay injects the bundled IIFE (`@tandem/shared/page-runtime`),
 * which calls `installRuntime()` and exposes the runtime as `window.__tandem`.
 */

export type { ElementBoxResult } from './box';
export type { FieldValue, FormState } from './form-state';
export { installRuntime, RUNTIME_GLOBAL } from './install';
export { createRuntime, RUNTIME_VERSION, type TandemRuntime } from './runtime';
export {
  ElementStates,
  Snapshot,
  SnapshotBox,
  SnapshotElement,
  SnapshotOptions,
} from './schema';
export { DEFAULT_MAX_CHARS } from './snapshot';
