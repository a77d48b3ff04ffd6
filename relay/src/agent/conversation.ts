import { BadRequest } from '../errors';
import type { Session } from '../sessions/session';
import type { StepRecord, Usage } from './planner';
import { excerpt } from './quote';

/** A conversation as the store keeps it while its session is parked (plain JSON). */
export interface ConversationState {
  task?: string | undefined;
  history: StepRecord[];
  memory?: string | undefined;
  plan?: string | undefined;
  planned: boolean;
  pendingQuestion?: string | undefined;
  userAnswer?: { question: string; answer: string } | undefined;
  lastPageText?: string | undefined;
  consecutiveFailures: number;
  usage: Usage & { steps: number };
}

/**
 * The agent's side of a session: the task, what happened so far, the planner's memory, and a question
 * waiting for the user. Lives as long as the session (a parked session keeps it in the store: `state()`,
 * `Conversation.from()`).
 */
export class Conversation {
  task: string | undefined;
  readonly history: StepRecord[] = [];
  memory: string | undefined;
  /**
   * The task's plan: the memory of its first decision (the system prompt asks for a short plan there).
   * Kept apart from `memory` so it stays in every later prompt of the task even when the model returns
   * empty or unrelated memory (DESIGN §4: the plan is kept in the session's memory).
   */
  plan: string | undefined;
  /** Whether the current task had its first decision yet (its plan, possibly none, is taken). */
  private planned = false;
  /** Set after ASK_USER: the next cmd is the answer to it. */
  pendingQuestion: string | undefined;
  /** The answer to hand the planner on its next step. */
  userAnswer: { question: string; answer: string } | undefined;
  /** The last snapshot's text, to notice a page that did not change. */
  lastPageText: string | undefined;
  consecutiveFailures = 0;
  readonly usage: Usage & { steps: number } = { steps: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0 };

  /**
   * Throws what `accept` would refuse, changing nothing: a call checks its cmd before it starts work
   * (a navigation) that may fail, and takes it only once that work succeeded.
   */
  check(cmd: string): void {
    const text = cmd.trim();
    if (this.pendingQuestion !== undefined) {
      if (!text) {
        throw new BadRequest(`The agent asked: "${excerpt(this.pendingQuestion, 300)}". Send the answer in cmd.`);
      }
      return;
    }
    if (text) return;
    if (!this.task) throw new BadRequest('cmd is empty and this session has no task yet. Send an instruction in cmd.');
    // Going on with a finished task would start it over (and bring back any question it once asked).
    if (this.finished()) {
      throw new BadRequest(
        'cmd is empty and the last task is done. Send a new instruction in cmd, or the same one to do it again.',
      );
    }
  }

  /**
   * Takes the cmd of a browse or step call: the answer to a pending question, a new task, or ("") go on
   * with the current one.
   */
  accept(cmd: string): void {
    this.check(cmd);
    const text = cmd.trim();
    if (this.pendingQuestion !== undefined) {
      this.userAnswer = { question: this.pendingQuestion, answer: text };
      this.pendingQuestion = undefined;
      return;
    }
    if (text) {
      if (text !== this.task) {
        this.task = text;
        this.memory = undefined;
        this.plan = undefined;
        this.planned = false;
      }
      this.consecutiveFailures = 0;
    }
  }

  /** Whether the task ended with a final answer (a done action), so there is nothing to go on with. */
  private finished(): boolean {
    return this.history.at(-1)?.actions.some((a) => a.action.action === 'done') === true;
  }

  /** Takes the planner's memory after a decision; the task's first decision's memory is also its plan. */
  remember(memory: string | undefined): void {
    if (!this.planned) {
      this.plan = memory?.trim() || undefined;
      this.planned = true;
    }
    this.memory = memory;
  }

  /** Everything it holds, as plain data for the store. */
  state(): ConversationState {
    return {
      task: this.task,
      history: this.history,
      memory: this.memory,
      plan: this.plan,
      planned: this.planned,
      pendingQuestion: this.pendingQuestion,
      userAnswer: this.userAnswer,
      lastPageText: this.lastPageText,
      consecutiveFailures: this.consecutiveFailures,
      usage: this.usage,
    };
  }

  /** The conversation `state()` gave, back as it was. */
  static from(state: ConversationState): Conversation {
    const conversation = new Conversation();
    conversation.task = state.task;
    conversation.history.push(...state.history);
    conversation.memory = state.memory;
    conversation.plan = state.plan;
    conversation.planned = state.planned;
    conversation.pendingQuestion = state.pendingQuestion;
    conversation.userAnswer = state.userAnswer;
    conversation.lastPageText = state.lastPageText;
    conversation.consecutiveFailures = state.consecutiveFailures;
    Object.assign(conversation.usage, state.usage);
    return conversation;
  }

  /** Adds one planner call's tokens to the session's totals (read by the end-of-session log). */
  addUsage(usage: Usage | undefined): void {
    this.usage.steps++;
    if (!usage) return;
    this.usage.promptTokens += usage.promptTokens;
    this.usage.completionTokens += usage.completionTokens;
    this.usage.cachedTokens += usage.cachedTokens;
  }
}

/** A session as the agent drives it: its browser, and the conversation it keeps there. */
export type AgentSession = Session<Conversation>;
