import type { Action, Snapshot } from '@tandem/shared';
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
 * (the page navigated first) is simply done again. An action that ran but did not change the page the
 * way it should (a field that does not hold what was typed, a box that is not ticked) failed too: what
 * was not done is never reported as done.
 */
export function applyHistory(state: PlanState, history: StepRecord[], snapshot: Snapshot): void {
  const pending = state.pending;
  state.pending = [];
  if (pending.length === 0) return;
  const results = history.at(-1)?.actions ?? [];
  // After a navigation the indices name elements of another document: nothing to compare.
  const navigated = results.some((r) => r.code === 'navigation');
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
    const unmet = navigated ? undefined : unmetExpectation(entry, snapshot);
    if (unmet) {
      rewind(state, entry);
      state.retries[entry.step] = (state.retries[entry.step] ?? 0) + 1;
      if (state.retries[entry.step]! >= MAX_RETRIES) state.failure = { note: entry.note, message: unmet };
      return;
    }
  }
}

/** What the page shows instead of what the entry's actions should have left, or undefined when all is well. */
function unmetExpectation(entry: PendingEntry, snapshot: Snapshot): string | undefined {
  for (const expect of entry.expects ?? []) {
    const e = snapshot.elements.find((el) => el.index === expect.index);
    // Gone (the page moved on) or re-rendered: nothing to compare with.
    if (!e) continue;
    if (expect.checked !== undefined && e.states.checked !== undefined && e.states.checked !== expect.checked) {
      return `it is still ${e.states.checked ? 'ticked' : 'unticked'}`;
    }
    const shown = e.attributes.value;
    if (expect.value !== undefined && shown !== undefined && !sameValue(shown, expect.value)) {
      return `the field holds "${shown.length > 40 ? `${shown.slice(0, 39)}…` : shown}" instead`;
    }
  }
  return undefined;
}

/**
 * Whether a field shows what was typed. Letters and digits are compared: input masks add spaces,
 * brackets and dashes ("(555) 010-0199"), and the snapshot caps values at about 100 characters ("…").
 */
function sameValue(shown: string, typed: string): boolean {
  if (shown === typed) return true;
  const plain = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  if (shown.endsWith('…')) return plain(typed).startsWith(plain(shown.slice(0, -1)));
  return plain(shown) === plain(typed);
}

function rewind(state: PlanState, entry: PendingEntry): void {
  goTo(state, entry.step, entry.phase);
  for (const key of Object.keys(state.notes)) if (Number(key) >= entry.step) delete state.notes[Number(key)];
}
