import type { Action, AgentMode, SessionStatus } from '@tandem/shared';
import { BrowserGone, NavigationFailed } from '../browser/errors';
import { HttpError } from '../errors';
import type { Services } from '../services';
import type { Session } from '../sessions/session';
import type { AgentProfile } from '../store/agents';
import { loopNudges, MAX_CONSECUTIVE_FAILURES, stepFailed } from './control';
import { type ActionRecord, MAX_ACTIONS_PER_STEP, type Planner, PlannerError, type StepRecord } from './planner';

/** The model or its endpoint failed in a way retrying will not fix (bad key, unknown model). */
export class ModelUnavailable extends HttpError {
  constructor(detail: string) {
    super(500, `The agent's model could not be used: ${detail}`);
  }
}

export interface StepContext {
  services: Services;
  session: Session;
  planner: Planner;
  mode: AgentMode;
  temperature?: number | undefined;
  profile?: AgentProfile | undefined;
  /** 1-based within this call, and the call's budget. */
  step: number;
  maxSteps: number;
  /** Tells a streaming client what the agent is doing. */
  emit(content: string): void;
}

export interface StepOutcome {
  status: SessionStatus;
  message: string;
}

/** Actions after which the rest of a decision's actions would act on a page that changed under them. */
const PAGE_CHANGING = new Set(['navigate', 'go_back', 'go_forward']);

/**
 * One step: snapshot → plan → act → record. Ends the step early after an action that changed the page
 * (the remaining actions were planned for the old one) or that failed.
 */
export async function runStep(ctx: StepContext): Promise<StepOutcome> {
  const { services, session, planner } = ctx;
  const conversation = session.conversation;
  const driver = session.driver;
  const task = conversation.task ?? '';

  ctx.emit(`Step ${ctx.step}: reading ${driver.url() || 'the page'}`);
  const snapshot = await driver.snapshot();
  const pageUnchanged = conversation.lastPageText === snapshot.text;
  conversation.lastPageText = snapshot.text;
  const userAnswer = conversation.userAnswer;
  conversation.userAnswer = undefined;

  let decision: Awaited<ReturnType<Planner['plan']>>;
  try {
    decision = await planner.plan({
      task,
      userAnswer,
      step: ctx.step,
      maxSteps: ctx.maxSteps,
      snapshot,
      url: driver.url(),
      tabs: await driver.tabs(),
      history: conversation.history,
      memory: conversation.memory,
      skills: services.store.skills.matching(session.accountId, driver.url()),
      instructions: ctx.profile?.instructions,
      mode: ctx.mode,
      temperature: ctx.temperature,
      nudges: loopNudges({ history: conversation.history, pageUnchanged, step: ctx.step, maxSteps: ctx.maxSteps }),
    });
  } catch (error) {
    if (!(error instanceof PlannerError)) throw error;
    if (!error.retriable) throw new ModelUnavailable(error.message);
    return failed(ctx, `The planner failed: ${error.message}`);
  }
  conversation.addUsage(decision.usage);
  conversation.memory = decision.memory;
  services.store.usage.record(session.accountId, {
    steps: 1,
    promptTokens: decision.usage?.promptTokens ?? 0,
    completionTokens: decision.usage?.completionTokens ?? 0,
    cachedTokens: decision.usage?.cachedTokens ?? 0,
  });
  services.logger.info(
    {
      sessionId: session.id,
      step: ctx.step,
      planner: planner.name,
      model: decision.model,
      usage: decision.usage,
      goal: decision.nextGoal,
    },
    'agent step planned',
  );
  if (decision.nextGoal) ctx.emit(`Goal: ${decision.nextGoal}`);

  const record: StepRecord = {
    step: conversation.history.length + 1,
    task,
    goal: decision.nextGoal,
    actions: [],
    url: driver.url(),
    events: [],
    userAnswer,
  };
  conversation.history.push(record);
  let outcome: StepOutcome | undefined;

  for (const action of decision.actions.slice(0, MAX_ACTIONS_PER_STEP)) {
    if (action.action === 'done') {
      outcome = { status: 'DONE', message: action.message };
      record.actions.push({ action, code: 'ok', message: action.message });
      break;
    }
    if (action.action === 'ask_user') {
      conversation.pendingQuestion = action.question;
      outcome = { status: 'ASK_USER', message: action.question };
      record.actions.push({ action, code: 'ok', message: action.question });
      break;
    }
    const done = await act(ctx, action, record);
    if (done.code !== 'ok' || PAGE_CHANGING.has(action.action) || record.url !== driver.url()) break;
  }
  record.url = driver.url();

  if (outcome) {
    conversation.consecutiveFailures = 0;
    return outcome;
  }
  if (stepFailed(record)) {
    return failed(ctx, record.actions.map((a) => a.message).join(' '));
  }
  conversation.consecutiveFailures = 0;
  return { status: 'CONTINUE', message: describe(record) };
}

async function act(ctx: StepContext, action: Action, record: StepRecord): Promise<ActionRecord> {
  let entry: ActionRecord;
  try {
    const result = await ctx.session.driver.act(action);
    entry = { action, code: result.code, message: result.message };
    for (const event of result.events) {
      record.events.push(event.message);
      ctx.emit(event.message);
    }
  } catch (error) {
    if (error instanceof BrowserGone) throw error;
    // A refused or failed navigation is the action's failure, not the step's.
    const message = error instanceof NavigationFailed || error instanceof HttpError ? error.message : String(error);
    entry = { action, code: 'error', message };
  }
  record.actions.push(entry);
  ctx.emit(entry.message);
  return entry;
}

/** Counts a failed step; after several in a row the agent stops with what it knows. */
function failed(ctx: StepContext, why: string): StepOutcome {
  const conversation = ctx.session.conversation;
  conversation.consecutiveFailures++;
  if (conversation.consecutiveFailures >= MAX_CONSECUTIVE_FAILURES) {
    conversation.consecutiveFailures = 0;
    return {
      status: 'DONE',
      message: `Stopped after ${MAX_CONSECUTIVE_FAILURES} failed steps in a row, without finishing "${conversation.task}". Last problem: ${why}`,
    };
  }
  return { status: 'CONTINUE', message: why };
}

function describe(record: StepRecord): string {
  const did = record.actions.map((a) => a.message).join(' ');
  const events = record.events.length ? ` ${record.events.join(' ')}` : '';
  return `${record.goal ? `${record.goal}: ` : ''}${did || 'No action taken.'}${events}`;
}

export interface TaskOutcome extends StepOutcome {
  steps: number;
}

/** Steps until DONE or ASK_USER, or until the budget runs out (then CONTINUE: the client may call again). */
export async function runTask(ctx: Omit<StepContext, 'step'>): Promise<TaskOutcome> {
  let last: StepOutcome = { status: 'CONTINUE', message: '' };
  for (let step = 1; step <= ctx.maxSteps; step++) {
    last = await runStep({ ...ctx, step });
    if (last.status !== 'CONTINUE') return { ...last, steps: step };
  }
  return {
    status: 'CONTINUE',
    steps: ctx.maxSteps,
    message: `Not finished after ${ctx.maxSteps} steps (max_steps). Last step: ${last.message} Call again with this session_id to continue.`,
  };
}
