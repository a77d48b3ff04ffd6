import type { Action, AgentMode, Mark, SessionStatus, Snapshot, StepHistoryEntry } from '@tandem/shared';
import { dialogPolicyFor } from '../browser/dialogs';
import { statusNote } from '../browser/http-status';
import type { Config } from '../config';
import { DomainError } from '../errors';
import type { Logger } from '../logger';
import { quote } from '../quote';
import { cancellationOf, OperationCancelled, throwIfCancelled } from '../sessions/cancellation';
import type { AgentProfile } from '../store/agents';
import type { UsageDelta } from '../store/usage';
import { isActionFailure } from './action-errors';
import { loopNudges, MAX_CONSECUTIVE_FAILURES, stepFailed } from './control';
import type { AgentSession } from './conversation';
import {
  type ActionRecord,
  type PlanDecision,
  type Planner,
  PlannerError,
  type StepRecord,
  UnusableDecision,
  type Usage,
} from './planner';
import { applyStepRules } from './step-rules';

/** The model or its endpoint failed in a way retrying will not fix (bad key, unknown model). */
export class ModelUnavailable extends DomainError {
  constructor(detail: string) {
    super('model_unavailable', `The agent's model could not be used: ${detail}`);
  }
}

/** What the step loop uses of the relay, and nothing more. */
export interface AgentDeps {
  planner: Planner;
  /** The account's skills that apply to a page (the store's skills). */
  skills: { matching(accountId: string, url: string, only?: readonly string[] | null): Promise<string[]> };
  /** Where every planner call's tokens are counted (the store's usage ledger), per API key. */
  usage: { record(accountId: string, delta: UsageDelta, now?: Date, keyId?: string): Promise<void> };
  logger: Logger;
  /** How page dialogs are answered (TANDEM_DIALOGS). */
  dialogs: Config['TANDEM_DIALOGS'];
  /** Where each step is recorded for the session's timeline (the store's step history); none: not kept. */
  history?:
    | {
        append(accountId: string, sessionId: string, entry: StepHistoryEntry): Promise<void>;
        /** A screenshot of the page after the step, stored; its URL (undefined: none is kept). */
        capture?(session: AgentSession): Promise<string | undefined>;
      }
    | undefined;
}

export interface StepContext {
  deps: AgentDeps;
  session: AgentSession;
  mode: AgentMode;
  temperature?: number | undefined;
  profile?: AgentProfile | undefined;
  /** The API key the call came with: usage is counted under it. */
  keyId?: string | undefined;
  /** 1-based within this call, and the call's budget. */
  step: number;
  maxSteps: number;
  /** Tells a streaming client what the agent is doing. */
  emit(content: string): void;
  /**
   * Aborts the operation: the step stops at its next action boundary (the action running finishes, no
   * further action or model call starts) and the model request in flight is aborted.
   */
  signal?: AbortSignal | undefined;
}

export interface StepOutcome {
  status: SessionStatus;
  message: string;
}

/** JPEG quality of the screenshot a vision model gets: marks and text stay legible at a third of PNG's size. */
const VISION_JPEG_QUALITY = 70;

/** The snapshot's elements in the viewport, as marks to draw on the model's screenshot. */
function viewportMarks(snapshot: Snapshot): Mark[] {
  return snapshot.elements.filter((e) => e.in_viewport).map(({ index, box }) => ({ index, box }));
}

/** Actions after which the rest of a decision's actions would act on a page that changed under them. */
const PAGE_CHANGING = new Set(['navigate', 'go_back', 'go_forward']);

/**
 * One step: snapshot → plan → act → record. The decision's actions run in order, at most
 * MAX_ACTIONS_PER_STEP of them, with done/ask_user only alone (see applyStepRules); the sequence ends
 * early after an action that changed the page or URL (the remaining actions were planned for the old
 * page) or that failed. What was dropped or left unrun is reported in the step's message and history.
 */
export async function runStep(ctx: StepContext): Promise<StepOutcome> {
  const started = Date.now();
  const usage = { ...ctx.session.conversation.usage };
  const holder: { record?: StepRecord } = {};
  let result: StepOutcome | { status: 'FAILED'; message: string } | undefined;
  try {
    const outcome = await stepOnce(ctx, holder);
    result = outcome;
    return outcome;
  } catch (error) {
    result = { status: 'FAILED', message: error instanceof Error ? error.message : String(error) };
    throw error;
  } finally {
    if (holder.record && result) await keepInHistory(ctx, holder.record, result, started, usage);
  }
}

/**
 * Writes the step to the session's timeline. The typed text of actions is left out (the result message
 * says what was typed, with secrets and password fields masked); a failed write costs the step nothing.
 */
async function keepInHistory(
  ctx: StepContext,
  record: StepRecord,
  outcome: StepOutcome | { status: 'FAILED'; message: string },
  started: number,
  before: { promptTokens: number; completionTokens: number },
): Promise<void> {
  const { deps, session } = ctx;
  if (!deps.history) return;
  const after = session.conversation.usage;
  // The page as the step left it; a browser that is gone (the step failed for it) has none to give.
  const screenshot = await deps.history.capture?.(session).catch((error: unknown) => {
    deps.logger.debug({ err: error, sessionId: session.id }, 'no screenshot for the step history');
    return undefined;
  });
  const entry: StepHistoryEntry = {
    step: record.step,
    at: new Date(started).toISOString(),
    duration_ms: Date.now() - started,
    cmd: record.task,
    goal: record.goal ?? '',
    actions: record.actions.map(({ action, code, message }) => ({
      action: action.action,
      ...('index' in action && typeof action.index === 'number' ? { index: action.index } : {}),
      code,
      message,
    })),
    url: record.url,
    status: outcome.status,
    message: outcome.message,
    prompt_tokens: Math.max(0, after.promptTokens - before.promptTokens),
    completion_tokens: Math.max(0, after.completionTokens - before.completionTokens),
    ...(screenshot ? { screenshot } : {}),
  };
  await deps.history.append(session.accountId, session.id, entry).catch((error: unknown) => {
    deps.logger.warn({ err: error, sessionId: session.id, step: record.step }, 'step not recorded in history');
  });
}

async function stepOnce(ctx: StepContext, holder: { record?: StepRecord }): Promise<StepOutcome> {
  const { deps, session } = ctx;
  const { planner } = deps;
  const conversation = session.conversation;
  const driver = session.driver;
  const task = conversation.task ?? '';

  throwIfCancelled(ctx.signal);
  driver.setDialogPolicy(dialogPolicyFor(task, deps.dialogs));
  ctx.emit(`Step ${ctx.step}: reading ${driver.url() || 'the page'}.${statusNote(driver.httpStatus())}`);
  // A parked session came back for this step: the caller and the model both hear what did not.
  const revived = session.takeNotice();
  if (revived) ctx.emit(revived);
  const snapshot = await driver.snapshot();
  throwIfCancelled(ctx.signal);
  const pageUnchanged = conversation.lastPageText === snapshot.text;
  conversation.lastPageText = snapshot.text;
  const userAnswer = conversation.userAnswer;
  conversation.userAnswer = undefined;
  const record: StepRecord = {
    step: conversation.history.length + 1,
    task,
    actions: [],
    url: driver.url(),
    events: [],
    userAnswer,
    notes: [],
  };
  holder.record = record;

  let decision: PlanDecision;
  try {
    decision = await planner.plan({
      task,
      userAnswer,
      step: ctx.step,
      maxSteps: ctx.maxSteps,
      snapshot,
      url: driver.url(),
      httpStatus: driver.httpStatus(),
      tabs: await driver.tabs(),
      history: conversation.history,
      memory: conversation.memory,
      plan: conversation.plan,
      skills: await deps.skills.matching(session.accountId, driver.url(), ctx.profile?.skillIds),
      instructions: ctx.profile?.instructions,
      mode: ctx.mode,
      temperature: ctx.temperature ?? ctx.profile?.temperature ?? undefined,
      nudges: [
        ...(revived ? [revived] : []),
        ...loopNudges({ history: conversation.history, pageUnchanged, step: ctx.step, maxSteps: ctx.maxSteps }),
      ],
      signal: ctx.signal,
      screenshot: () => driver.screenshot({ marks: viewportMarks(snapshot), jpegQuality: VISION_JPEG_QUALITY }),
    });
  } catch (error) {
    // A cancelled operation aborted the model request: that is the cancellation, not a model failure.
    throwIfCancelled(ctx.signal);
    if (!(error instanceof PlannerError)) throw error;
    // A bad key or unknown model fails every step alike: say so at once. A reply that broke the format
    // (or a busy endpoint) is this step's failure; failure control stops the task if it keeps happening.
    if (!error.retriable && !(error instanceof UnusableDecision)) throw new ModelUnavailable(error.message);
    await recordUsage(ctx, error.usage);
    record.notes?.push(`no decision could be used: ${error.message}`);
    conversation.history.push(record);
    return failed(ctx, `The planner failed: ${error.message}`);
  }
  conversation.remember(decision.memory);
  await recordUsage(ctx, decision.usage);
  deps.logger.info(
    {
      sessionId: session.id,
      step: ctx.step,
      planner: planner.name,
      model: decision.model,
      usage: decision.usage,
      sessionUsage: conversation.usage,
      goal: decision.nextGoal,
    },
    'agent step planned',
  );
  if (decision.nextGoal) ctx.emit(`Goal: ${decision.nextGoal}`);

  const { kept, notes } = applyStepRules(decision.actions);
  record.goal = decision.nextGoal;
  record.notes = [...(decision.notes ?? []), ...notes];
  conversation.history.push(record);
  let outcome: StepOutcome | undefined;
  let cancelled: OperationCancelled | undefined;

  for (const [i, action] of kept.entries()) {
    cancelled = cancellationOf(ctx.signal);
    if (cancelled) {
      const names = kept.slice(i).map((a) => a.action);
      record.notes.push(`not run: ${names.join(', ')} (${cancelled.why})`);
      break;
    }
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
    const urlBefore = driver.url();
    const done = await act(ctx, action, record);
    const changed = done.code === 'navigation' || PAGE_CHANGING.has(action.action) || urlBefore !== driver.url();
    if (!changed && done.code === 'ok') continue;
    const rest = kept.slice(i + 1);
    if (rest.length > 0) {
      const names = rest.map((a) => a.action).join(', ');
      record.notes.push(
        `not run: ${names} (${changed ? 'the page changed, so they were planned for a page that is gone' : `${action.action} failed`})`,
      );
    }
    break;
  }
  record.url = driver.url();
  if (cancelled) throw cancelled;
  for (const note of record.notes) ctx.emit(`Note: ${note}.`);

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

/** Adds a planner call's tokens to the session's totals and the account's usage. */
async function recordUsage(ctx: StepContext, usage: Usage | undefined): Promise<void> {
  const { deps, session } = ctx;
  session.conversation.addUsage(usage);
  await deps.usage.record(
    session.accountId,
    {
      steps: 1,
      promptTokens: usage?.promptTokens ?? 0,
      completionTokens: usage?.completionTokens ?? 0,
      cachedTokens: usage?.cachedTokens ?? 0,
    },
    new Date(),
    ctx.keyId,
  );
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
    // A browser that is gone or may not be driven fails the step; a refused action is the agent's to fix.
    if (!isActionFailure(error)) throw error;
    const message = error instanceof DomainError ? error.message : String(error);
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
      message: `Stopped after ${MAX_CONSECUTIVE_FAILURES} failed steps in a row, without finishing ${quote(conversation.task ?? '')}. Last problem: ${why}`,
    };
  }
  return { status: 'CONTINUE', message: why };
}

function describe(record: StepRecord): string {
  const did = record.actions.map((a) => a.message).join(' ');
  const events = record.events.length ? ` ${record.events.join(' ')}` : '';
  const notes = record.notes?.length ? ` Note: ${record.notes.join('; ')}.` : '';
  return `${record.goal ? `${record.goal}: ` : ''}${did || 'No action taken.'}${events}${notes}`;
}

export interface TaskOutcome extends StepOutcome {
  steps: number;
}

/**
 * Steps until DONE or ASK_USER, or until the step budget or the time budget runs out (then CONTINUE:
 * the client may call again). Other cancellations end the task by throwing.
 */
export async function runTask(ctx: Omit<StepContext, 'step'>): Promise<TaskOutcome> {
  let last: StepOutcome = { status: 'CONTINUE', message: '' };
  const history = ctx.session.conversation.history;
  const before = history.length;
  for (let step = 1; step <= ctx.maxSteps; step++) {
    try {
      last = await runStep({ ...ctx, step });
    } catch (error) {
      if (!(error instanceof OperationCancelled) || error.reason !== 'time_budget') throw error;
      const done = history.length - before;
      return {
        status: 'CONTINUE',
        steps: done,
        message: `${error.message} ${done} step${done === 1 ? '' : 's'} done; call again with this session_id to continue.`,
      };
    }
    if (last.status !== 'CONTINUE') return { ...last, steps: step };
  }
  return {
    status: 'CONTINUE',
    steps: ctx.maxSteps,
    message: `Not finished after ${ctx.maxSteps} steps (max_steps). Last step: ${last.message} Call again with this session_id to continue.`,
  };
}
