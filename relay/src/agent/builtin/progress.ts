import type { Action } from '@tandem/shared';
import type { StepRecord } from '../planner';
import { goTo, type PendingEntry, type PlanState } from './memory';

/** Result codes after which the sub-step is tried again (once re-targeted, then the user is asked). */
const FAILED = new Set(['stale_element', 'not_interactable', 'invalid_target', 'timeout', 'unsupported', 'error']);
/** Codes that say the element itself was wrong, so a retry should prefer another one. */
const WRONG_ELEMENT = new Set(['not_interactable', 'invalid_target', 'unsupported']);
/** Failures of one sub-step before the planner asks the user. */
export const MAX_RETRIES = 2;

/** Recognizes an action in the step record whatever defaults the loop filled in. */
export function signature(action: Action): string {
  return `${action.action}:${'index' in action ? action.index : ''}`;
}

/**
 * Reads the results of the last decision from the step record: a sub-step whose action failed is
 * tried again (avoiding the element when the element was the problem); one whose actions never ran
 * (the page navigated first) is simply done again.
 */
export function applyHistory(state: PlanState, history: StepRecord[]): void {
  const pending = state.pending;
  state.pending = [];
  if (pending.length === 0) return;
  const results = history.at(-1)?.actions ?? [];
  let k = 0;
  for (const entry of pending) {
    for (let i = 0; i < entry.actions.length; i++) {
      const result = results[k++];
      if (!result || signature(result.action) !== entry.actions[i]) {
        rewind(state, entry);
        return;
      }
      if (result.action.action === 'wait' || !FAILED.has(result.code)) continue;
      rewind(state, entry);
      state.retries[entry.step] = (state.retries[entry.step] ?? 0) + 1;
      const element = entry.elements[i];
      if (element && WRONG_ELEMENT.has(result.code))
        state.avoid[entry.step] = [...(state.avoid[entry.step] ?? []), element];
      if (state.retries[entry.step]! >= MAX_RETRIES) state.failure = { note: entry.note, message: result.message };
      return;
    }
  }
}

function rewind(state: PlanState, entry: PendingEntry): void {
  goTo(state, entry.step, entry.phase);
  for (const key of Object.keys(state.notes)) if (Number(key) >= entry.step) delete state.notes[Number(key)];
}
