import type { Point } from './match';
import type { Expectation } from './resolution';
import type { SubStep } from './substeps';

/** One sub-step's share of the last decision: which actions it emitted, to map results back to it. */
export interface PendingEntry {
  step: number;
  phase: number;
  /** `action:index` of each action, to recognize them in the step record. */
  actions: string[];
  /** elementKey of each action's element. */
  elements: (string | undefined)[];
  note: string;
  /** What the page should show once the actions ran. */
  expects?: Expectation[] | undefined;
}

/** Everything the built-in planner remembers between steps (it is stateless; this rides in PlanDecision.memory). */
export interface PlanState {
  v: 1;
  task: string;
  /** The user's answers folded into the plan; a loop that passes one of them as the task means the same plan. */
  aliases: string[];
  steps: SubStep[];
  /** Index of the next sub-step to do. */
  next: number;
  /** Progress within steps[next]. */
  phase: number;
  retries: Record<number, number>;
  avoid: Record<number, string[]>;
  /** Waits and scrolls (of the page, or of a scrollable box on it) spent looking for steps[next]'s target. */
  search: { step: number; phase: number; waits: number; scrolls: number; boxScrolls?: number };
  /** What each finished sub-step did, for the summary. */
  notes: Record<number, string>;
  answers: string[];
  pending: PendingEntry[];
  anchor?: Point | undefined;
  status: 'running' | 'asked' | 'finished';
  /** The sub-step a question to the user was about. */
  askedAt?: number | undefined;
  /** Set when an action kept failing: the planner asks the user. */
  failure?: { note: string; message: string } | undefined;
}

export function newState(task: string, steps: SubStep[]): PlanState {
  return {
    v: 1,
    task,
    aliases: [],
    steps,
    next: 0,
    phase: 0,
    retries: {},
    avoid: {},
    search: { step: 0, phase: 0, waits: 0, scrolls: 0 },
    notes: {},
    answers: [],
    pending: [],
    status: 'running',
  };
}

/** The state in `memory`, or undefined when there is none or it belongs to another planner. */
export function loadState(memory: string | undefined): PlanState | undefined {
  if (!memory?.startsWith('{')) return undefined;
  try {
    const state = JSON.parse(memory) as Partial<PlanState>;
    return state.v === 1 && Array.isArray(state.steps) ? (state as PlanState) : undefined;
  } catch {
    return undefined;
  }
}

export const saveState = (state: PlanState): string => JSON.stringify(state);

/** Moves on to `step` (phase 0), forgetting the search for the previous target. */
export function goTo(state: PlanState, step: number, phase = 0): void {
  state.next = step;
  state.phase = phase;
}
