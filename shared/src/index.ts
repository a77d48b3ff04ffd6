export * from './actions/index';
export * from './api/index';
export * from './page/content-schema';
export type { FieldValue, FormState } from './page/form-state';
export { ElementStates, Mark, Snapshot, SnapshotBox, SnapshotElement, SnapshotOptions } from './page/schema';
export { fitToBudget, type Line, type LineKind } from './page/text-budget';
export * from './protocol/index';
