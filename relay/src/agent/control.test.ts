import { describe, expect, it } from 'vitest';
import { loopNudges, stepFailed } from './control';
import type { StepRecord } from './planner';

const step = (n: number, actions: StepRecord['actions']): StepRecord => ({
  step: n,
  task: 't',
  actions,
  url: 'u',
  events: [],
});
const click = (index: number, code = 'ok') => ({
  action: { action: 'click' as const, index, double: false },
  code,
  message: '',
});

describe('loop control', () => {
  it('nudges when the same actions repeat and when the page did not change', () => {
    const history = [step(1, [click(3)]), step(2, [click(3)])];
    const nudges = loopNudges({ history, pageUnchanged: true, step: 3, maxSteps: 20 });
    expect(nudges).toHaveLength(2);
    expect(nudges[0]).toMatch(/repeated the same actions/);
    expect(nudges[1]).toMatch(/did not change/);
  });

  it('says nothing while the agent makes progress', () => {
    const history = [step(1, [click(3)]), step(2, [click(4)])];
    expect(loopNudges({ history, pageUnchanged: false, step: 3, maxSteps: 20 })).toEqual([]);
  });

  it('warns near the step budget and asks for a final answer on the last step; none without a budget', () => {
    expect(loopNudges({ history: [], pageUnchanged: false, step: 18, maxSteps: 20 })[0]).toMatch(/Only 2 more steps/);
    expect(loopNudges({ history: [], pageUnchanged: false, step: 20, maxSteps: 20 })[0]).toMatch(/last step/);
    expect(loopNudges({ history: [], pageUnchanged: false, step: 99, maxSteps: Number.POSITIVE_INFINITY })).toEqual([]);
  });

  it('counts a step as failed only when every action failed', () => {
    expect(stepFailed(step(1, [click(3, 'stale_element'), click(4, 'not_interactable')]))).toBe(true);
    expect(stepFailed(step(1, [click(3, 'stale_element'), click(4, 'ok')]))).toBe(false);
    expect(stepFailed(step(1, []))).toBe(false);
  });
});
