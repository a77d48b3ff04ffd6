import type { Action, Snapshot } from '@tandem/shared';
import { MAX_ACTIONS_PER_STEP, type PlanDecision, type PlanInput, type Planner } from '../planner';
import { elementKey } from './match';
import { goTo, loadState, newState, type PendingEntry, type PlanState, saveState } from './memory';
import { failedQuestion, finalMessage, notFoundQuestion, understandQuestion, whichQuestion } from './messages';
import { parseInstruction } from './parse';
import { applyHistory, signature } from './progress';
import { describeElement, type Resolution, type ResolveContext } from './resolution';
import { resolveStep } from './resolve';
import type { SubStep } from './substeps';

/** Scrolls and waits spent looking for one target before asking the user. */
const MAX_SEARCH_SCROLLS = 3;
const MAX_SEARCH_WAITS = 1;
const SEARCH_WAIT_MS = 5_000;
const YES = /^(?:yes|y|ok|okay|sure|retry|try again|again|continue|go on|go ahead|please do|do it)\b/i;

/**
 * The deterministic planner: parses the task into sub-steps once, then each call turns the next
 * sub-step(s) into actions on the current page. All progress rides in `memory`, so it is stateless.
 */
export class BuiltinPlanner implements Planner {
  readonly name = 'builtin' as const;

  async plan(input: PlanInput): Promise<PlanDecision> {
    const state = stateFor(input);
    applyHistory(state, input.history, input.snapshot);
    if (state.failure) {
      const { note, message } = state.failure;
      state.failure = undefined;
      state.retries[state.next] = 0;
      return ask(state, state.next, failedQuestion(note, message));
    }
    const unknown = state.steps.findIndex((s, i) => i >= state.next && s.kind === 'unknown');
    if (unknown >= 0) {
      const step = state.steps[unknown] as Extract<SubStep, { kind: 'unknown' }>;
      return ask(state, unknown, understandQuestion(step.text, step.why));
    }
    if (state.steps.length === 0) return ask(state, 0, understandQuestion(input.task));
    return nextDecision(state, input);
  }
}

/** The state to continue from: the saved one, a fresh parse of a new task, or the user's answer folded in. */
function stateFor(input: PlanInput): PlanState {
  const saved = loadState(input.memory);
  const answer = input.userAnswer?.answer.trim();
  if (saved && answer && saved.status === 'asked') return withAnswer(saved, answer);
  if (answer && !saved) return newState(input.task, parseInstruction(answer));
  const same = saved && (saved.task === input.task || saved.aliases?.includes(input.task));
  if (saved && same && saved.status !== 'finished') return { ...saved, status: 'running' };
  return newState(input.task, parseInstruction(input.task));
}

/** "retry" tries the same sub-step again; anything else replaces it (a bare name re-targets it). */
function withAnswer(state: PlanState, answer: string): PlanState {
  const at = state.askedAt ?? state.next;
  state.status = 'running';
  state.aliases = [...(state.aliases ?? []), answer];
  state.retries[at] = 0;
  state.avoid[at] = [];
  state.search = { step: -1, phase: 0, waits: 0, scrolls: 0 };
  if (YES.test(answer) && state.steps[at]?.kind !== 'unknown') return state;
  const parsed = parseInstruction(answer);
  const old = state.steps[at];
  const retarget =
    parsed.length === 1 && parsed[0]!.kind === 'unknown' && old && 'target' in old && typeof old.target === 'object';
  const replacement: SubStep[] = retarget
    ? [{ ...old, target: { text: answer.replace(/^["'“]|["'”]$/g, '') } } as SubStep]
    : parsed;
  state.steps.splice(at, 1, ...replacement);
  if (at < state.next) goTo(state, at);
  else if (at === state.next) state.phase = 0;
  return state;
}

function nextDecision(state: PlanState, input: PlanInput): PlanDecision {
  const { snapshot } = input;
  const actions: Action[] = [];
  const notes: string[] = [];
  const used = new Set<number>();
  while (state.next < state.steps.length) {
    const step = state.steps[state.next]!;
    if (actions.length > 0 && step.kind === 'question') break;
    const ctx: ResolveContext = {
      snapshot,
      phase: state.phase,
      avoid: state.avoid[state.next] ?? [],
      anchor: state.anchor,
      used,
      following: state.steps[state.next + 1],
    };
    const resolution = resolveStep(step, ctx, input.url || snapshot.url);
    if (resolution.type === 'splice') {
      state.steps.splice(state.next, 1, ...resolution.steps);
      continue;
    }
    if (resolution.type === 'skip' || resolution.type === 'answer') {
      if (resolution.type === 'answer') state.answers.push(resolution.text);
      else state.notes[state.next] = resolution.note;
      goTo(state, state.next + 1);
      continue;
    }
    if (resolution.type !== 'act') {
      if (actions.length > 0) break;
      return resolution.type === 'ask'
        ? ask(state, state.next, resolution.question)
        : recover(state, resolution, snapshot);
    }
    if (actions.length + resolution.actions.length > MAX_ACTIONS_PER_STEP) break;
    record(state, resolution, actions, notes);
    if (resolution.endsBatch || !resolution.complete) break;
  }
  if (actions.length === 0) {
    state.status = 'finished';
    const ordered = Object.keys(state.notes)
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => state.notes[k]!);
    return decide(state, [{ action: 'done', message: finalMessage(ordered, state.answers) }], 'report the result');
  }
  return decide(state, actions, notes.join('; '));
}

function record(
  state: PlanState,
  resolution: Extract<Resolution, { type: 'act' }>,
  actions: Action[],
  notes: string[],
): void {
  const entry: PendingEntry = {
    step: state.next,
    phase: state.phase,
    actions: resolution.actions.map(signature),
    elements: resolution.elements.map((e) => (e ? elementKey(e) : undefined)),
    note: resolution.note,
    expects: resolution.expects,
  };
  state.pending.push(entry);
  actions.push(...resolution.actions);
  notes.push(resolution.note);
  const last = resolution.elements.filter((e) => e !== undefined).at(-1);
  if (last) state.anchor = { x: last.box.x + last.box.width / 2, y: last.box.y + last.box.height / 2 };
  if (resolution.complete) {
    state.notes[state.next] = resolution.note;
    goTo(state, state.next + 1);
  } else {
    state.phase++;
  }
}

/** A target is missing: wait for a loading page, scroll to look further down, then ask the user. */
function recover(
  state: PlanState,
  missing: Extract<Resolution, { type: 'missing' }>,
  snapshot: Snapshot,
): PlanDecision {
  if (state.search.step !== state.next || state.search.phase !== state.phase) {
    state.search = { step: state.next, phase: state.phase, waits: 0, scrolls: 0 };
  }
  const search = state.search;
  const step = state.steps[state.next]!;
  if (missing.strict) return ask(state, state.next, missingQuestion(missing, step));
  // A list in a scrollable box (an inbox, a long menu) hides its rest there, not below the page.
  const box = snapshot.elements.find((e) => e.in_viewport && (e.scroll?.below_px ?? 0) > 1);
  search.boxScrolls ??= 0;
  if (box && search.boxScrolls < MAX_SEARCH_SCROLLS && !missing.question) {
    search.boxScrolls++;
    return decide(
      state,
      [{ action: 'scroll', index: box.index, direction: 'down', amount: 1 }],
      `look further down in ${describeElement(box)} for ${missing.what}`,
    );
  }
  const below = snapshot.scroll.below_px > 1;
  const loading = /\b(?:loading|please wait|one moment)\b/i.test(snapshot.text);
  const canWait = search.waits < MAX_SEARCH_WAITS && !missing.question;
  if (canWait && (loading || !below)) return waitFor(state, missing);
  if (below && search.scrolls < MAX_SEARCH_SCROLLS) {
    search.scrolls++;
    return decide(state, [{ action: 'scroll', direction: 'down', amount: 1 }], `look further down for ${missing.what}`);
  }
  if (canWait) return waitFor(state, missing);
  const tried = [search.waits ? 'waited for it' : '', search.scrolls ? `scrolled down ${search.scrolls} time(s)` : ''];
  const where = snapshot.title ? `the page "${snapshot.title}"` : snapshot.url;
  return ask(state, state.next, notFoundQuestion(missing.what, where, tried.filter(Boolean)));
}

function waitFor(state: PlanState, missing: Extract<Resolution, { type: 'missing' }>): PlanDecision {
  state.search.waits++;
  const action: Action = missing.waitText
    ? { action: 'wait', until_text: missing.waitText, ms: SEARCH_WAIT_MS }
    : { action: 'wait', ms: 1_500 };
  return decide(state, [action], `wait for ${missing.what} to appear`);
}

/** A target the words could not pin down ("which button?"), or words that named nothing on the page. */
function missingQuestion(missing: Extract<Resolution, { type: 'missing' }>, step: SubStep): string {
  if (missing.what.startsWith('which ') || missing.what.includes(': the page has')) return whichQuestion(missing.what);
  if ('target' in step && typeof step.target === 'object' && step.target.text)
    return understandQuestion(step.target.text);
  return notFoundQuestion(missing.what, 'this page', []);
}

function ask(state: PlanState, at: number, question: string): PlanDecision {
  state.status = 'asked';
  state.askedAt = at;
  state.pending = [];
  return decide(state, [{ action: 'ask_user', question }], 'ask the user');
}

function decide(state: PlanState, actions: Action[], goal: string): PlanDecision {
  return { memory: saveState(state), nextGoal: goal, actions, model: 'builtin' };
}
