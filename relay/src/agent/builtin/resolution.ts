import type { Action, Snapshot, SnapshotElement } from '@tandem/shared';
import type { Point } from './match';
import type { SubStep } from './substeps';

/** What a resolver may look at: the page, the sub-step's progress, and what to steer clear of. */
export interface ResolveContext {
  snapshot: Snapshot;
  /** Progress within a multi-step sub-step (0 = not started; e.g. 1 = the dropdown is open). */
  phase: number;
  /** Elements that failed for this sub-step before (by elementKey). */
  avoid: string[];
  anchor?: Point | undefined;
  /** Elements already used by earlier actions of the same decision (one field gets one value). */
  used: Set<number>;
}

/** How a sub-step meets the current page. */
export type Resolution =
  | {
      type: 'act';
      actions: Action[];
      /** The element each action targets (elementKey), to avoid it when it fails. */
      elements: (SnapshotElement | undefined)[];
      /** What was done, for the final summary. */
      note: string;
      /** The action may change the page: nothing else goes in this decision after it. */
      endsBatch: boolean;
      /** false: the sub-step needs another round on the next page state (phase + 1). */
      complete: boolean;
    }
  /** Nothing to do (a box already ticked, the page already at the bottom). */
  | { type: 'skip'; note: string }
  /** The sub-step stands for other sub-steps (a field that turned out to be a custom dropdown). */
  | { type: 'splice'; steps: SubStep[] }
  /** The target is not on the page (yet): wait, scroll, or ask. `strict`: it was a guess at the words. */
  | { type: 'missing'; what: string; waitText?: string | undefined; strict?: boolean; question?: boolean }
  | { type: 'ask'; question: string }
  | { type: 'answer'; text: string };

export function act(
  actions: Action[],
  elements: (SnapshotElement | undefined)[],
  note: string,
  opts: { endsBatch?: boolean; complete?: boolean } = {},
): Resolution {
  return { type: 'act', actions, elements, note, endsBatch: opts.endsBatch ?? true, complete: opts.complete ?? true };
}

export const quote = (text: string) => `"${text}"`;

/** A short name for an element in summaries: its label, else its tag. */
export function describeElement(e: SnapshotElement): string {
  const label = (e.name || e.text || e.attributes.placeholder || e.attributes.name || e.tag).trim();
  return quote(label.length > 60 ? `${label.slice(0, 57)}…` : label);
}
