import type { StepRecord } from './planner';

/** Consecutive failed steps after which the agent stops with a final answer. */
export const MAX_CONSECUTIVE_FAILURES = 3;
/** From this many steps left, the planner is told to wrap up. */
const BUDGET_WARNING_STEPS = 2;

const signature = (step: StepRecord) => JSON.stringify(step.actions.map((a) => a.action));

/**
 * Notes for the planner about how the task is going: the same actions repeated, a page that did not
 * change, the step budget running out. They steer without deciding for it.
 */
export function loopNudges(input: {
  history: StepRecord[];
  pageUnchanged: boolean;
  step: number;
  maxSteps: number;
}): string[] {
  const nudges: string[] = [];
  const [previous, last] = input.history.slice(-2);
  if (previous && last && last.actions.length > 0 && signature(previous) === signature(last)) {
    nudges.push(
      'You repeated the same actions in the last two steps without getting further. Try a different approach, or finish with done or ask_user.',
    );
  }
  const lastActed = last?.actions.some((a) => a.action.action !== 'wait' && a.action.action !== 'scroll');
  if (input.pageUnchanged && lastActed) {
    nudges.push(
      'The page did not change after your last actions. Check that you used the right element, or try another way.',
    );
  }
  const left = input.maxSteps - input.step;
  if (left === 0) {
    nudges.push(
      'This is the last step of this call: answer with done alone — the final answer, or what was achieved so far and what is left. Any other action leaves the task unfinished.',
    );
  } else if (left <= BUDGET_WARNING_STEPS) {
    nudges.push(`Only ${left} more step${left === 1 ? '' : 's'} after this one in this call: finish soon.`);
  }
  return nudges;
}

/** Whether a step failed as a whole: every action it tried went wrong. */
export function stepFailed(step: StepRecord): boolean {
  return step.actions.length > 0 && step.actions.every((a) => a.code !== 'ok' && a.code !== 'navigation');
}
