import type { Action } from '@tandem/shared';
import { MAX_ACTIONS_PER_STEP } from './planner';

const TERMINAL = new Set<string>(['done', 'ask_user']);

/**
 * `done` and `ask_user` stand alone, and a decision carries at most MAX_ACTIONS_PER_STEP actions.
 *
 * Mixed with page actions, the page actions are kept and the terminal action dropped (and reported):
 * a final answer written before its actions ran claims results nobody has seen ("Submitted the form"
 * before the submit was even tried), so trusting it would hand the user an unchecked answer. Running
 * the page actions and letting the next step — which sees the page afterwards — finish with a checked
 * answer costs one step and never reports a success that did not happen. Dropping the page actions
 * instead would lose the work the model asked for. Past the per-step limit, actions are cut (the next
 * step sees the page and continues). Applied by the step loop to every planner's decision.
 */
export function applyStepRules(actions: Action[]): { kept: Action[]; notes: string[] } {
  const notes: string[] = [];
  const terminal = actions.filter((a) => TERMINAL.has(a.action));
  let kept = actions.filter((a) => !TERMINAL.has(a.action));
  if (kept.length > 0 && terminal.length > 0) {
    notes.push(`dropped ${terminal.map((a) => a.action).join(', ')} mixed with page actions`);
  } else if (kept.length === 0) {
    if (terminal.length > 1) notes.push(`kept only the first of ${terminal.length} done/ask_user actions`);
    kept = terminal.slice(0, 1);
  }
  if (kept.length > MAX_ACTIONS_PER_STEP) {
    notes.push(`kept the first ${MAX_ACTIONS_PER_STEP} of ${kept.length} actions`);
    kept = kept.slice(0, MAX_ACTIONS_PER_STEP);
  }
  return { kept, notes };
}
