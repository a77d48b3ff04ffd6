import type { Action, AgentMode, Snapshot } from '@tandem/shared';
import type { TabInfo } from '../browser/driver';
import type { Usage } from '../model/index';

/** What happened to one action the agent took. */
export interface ActionRecord {
  action: Action;
  /** The action result code (ok, navigation, stale_element, ...). */
  code: string;
  message: string;
}

/** One step of the session, as later steps (and the model) see it: compact, no snapshots. */
export interface StepRecord {
  /** 1-based over the whole session. */
  step: number;
  /** The instruction this step worked on. */
  task: string;
  /** The planner's stated goal for the step. */
  goal?: string | undefined;
  actions: ActionRecord[];
  /** URL after the step. */
  url: string;
  /** What the page did by itself (dialogs, popups, refused downloads). */
  events: string[];
  /** The user's answer that started this step, after an ASK_USER. */
  userAnswer?: { question: string; answer: string } | undefined;
  /** What the step loop changed about the decision (dropped or unrun actions), so the planner learns why. */
  notes?: string[] | undefined;
}

/** Everything a planner may look at to decide the next actions. Planners are stateless; state lives here. */
export interface PlanInput {
  /** The task in words (the cmd that started it). */
  task: string;
  /** The user's answer to the planner's last question, when this step follows an ASK_USER. */
  userAnswer?: { question: string; answer: string } | undefined;
  /** 1-based step number within this call, and the call's budget. */
  step: number;
  maxSteps: number;
  snapshot: Snapshot;
  url: string;
  /** The HTTP status of the page's response, when known (a 404 page is no page the task asked for). */
  httpStatus?: number | undefined;
  tabs: TabInfo[];
  /** Earlier steps of this session, oldest first. */
  history: StepRecord[];
  /** The planner's own memory from its previous decision in this session (free text or serialized state). */
  memory?: string | undefined;
  /** The memory of the task's first decision: its plan, kept for the whole task whatever later memory says. */
  plan?: string | undefined;
  /** Site rules whose host pattern matches the current URL. */
  skills: string[];
  /** The agent profile's instructions, when the session uses one. */
  instructions?: string | undefined;
  mode: AgentMode;
  temperature?: number | undefined;
  /** Loop-control notes from the step loop: repeated actions, unchanged page, budget warnings, last step. */
  nudges: string[];
  signal?: AbortSignal | undefined;
  /**
   * The viewport as a JPEG with the snapshot's indices drawn on it (set-of-marks), taken only when a
   * planner asks (vision on): a capture costs time a text-only planner should not pay.
   */
  screenshot?: (() => Promise<Buffer>) | undefined;
}

/** Token usage of one planner call (0 for the built-in planner). */
export type { Usage } from '../model/index';

/** One decision: up to 5 actions; `done` and `ask_user` stand alone. */
export interface PlanDecision {
  /** What to remember for the next step (the built-in planner keeps its progress here). */
  memory?: string | undefined;
  /** What the step tries to achieve, in words (shown in stream events). */
  nextGoal?: string | undefined;
  actions: Action[];
  usage?: Usage | undefined;
  /** The model that decided, for logs and metadata. */
  model?: string | undefined;
  /** What the planner adjusted in the raw decision (dropped or cut actions), reported with the step. */
  notes?: string[] | undefined;
}

/** Decides the next actions from the page and the task. */
export interface Planner {
  readonly name: 'llm' | 'builtin';
  plan(input: PlanInput): Promise<PlanDecision>;
}

/** The most actions one decision may carry. */
export const MAX_ACTIONS_PER_STEP = 5;

/** A planner could not produce a usable decision (after its own retries and repair). */
export class PlannerError extends Error {
  constructor(
    message: string,
    readonly retriable: boolean,
    /** Tokens spent before the failure (a broken reply and its repair still cost them). */
    readonly usage?: Usage,
  ) {
    super(message);
    this.name = 'PlannerError';
  }
}

/**
 * The model answered, but with no usable decision even after the repair request (broken JSON, actions
 * that fail the schema, a refusal). The step failed, not the endpoint: the step loop counts it as a
 * failed step, so failure control stops the task with a final answer after repeated ones.
 */
export class UnusableDecision extends PlannerError {
  constructor(message: string, usage?: Usage) {
    super(message, false, usage);
    this.name = 'UnusableDecision';
  }
}
