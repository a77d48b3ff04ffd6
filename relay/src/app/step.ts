import type { StepRequest } from '@tandem/shared';
import type { AgentSession } from '../agent/conversation';
import { runStep, type StepOutcome } from '../agent/steps';
import { type AgentCallDeps, callSetup } from './agent-call';
import type { CallOptions } from './browse';
import { checkPreparation } from './preparation';
import { modeOf } from './profiles';
import type { OptionalScreenshot } from './screenshots';

/** What one step did, for the caller to answer with. */
export interface StepResult {
  session: AgentSession;
  outcome: StepOutcome;
  shot: OptionalScreenshot;
}

/**
 * How a caller hears about a step: a JSON answer hears only the end, a stream every event. Each is
 * called inside the session's operation, so an answer is out before the next operation starts.
 */
export interface StepReporter<T> {
  /** The request passed its checks and the step's work begins (a stream sends its first chunk). */
  started(session: AgentSession): void;
  /** What the agent is doing, as it does it. */
  emit(content: string): void;
  /** The answer to a step that ran. */
  finished(result: StepResult): T | Promise<T>;
  /** The answer to a step that failed after `started` (or rethrow, for a plain error response). */
  failed(error: unknown, session: AgentSession): T;
}

/** One step of a session the client drives (POST /v1/web/session/{id}), as JSON or as a stream. */
export class StepService {
  constructor(private readonly deps: AgentCallDeps) {}

  /**
   * Problems with the request itself (an unknown session, agent or secret, a refused URL, an empty cmd
   * with no task) are thrown before `started`, so they get a plain error; the cmd is taken only after
   * the optional navigation succeeded, so a page that fails to load leaves the task as it was.
   */
  async step<T>(
    accountId: string,
    sessionId: string,
    request: StepRequest,
    reporter: StepReporter<T>,
    options: CallOptions = {},
  ): Promise<T> {
    const { deps } = this;
    const session = await deps.opener.session(accountId, sessionId);
    const { profile, secrets } = await callSetup(deps, accountId, request, session);
    return deps.opener.sessions.run(
      session,
      async (operation) => {
        session.driver.arm(secrets);
        try {
          const navigate = await checkPreparation(deps.guard, session, request);
          session.conversation.check(request.cmd);
          reporter.started(session);
          try {
            await navigate();
            session.conversation.accept(request.cmd);
            const outcome = await runStep({
              deps: deps.agent,
              session,
              mode: modeOf(request.mode, session, profile),
              temperature: request.temperature,
              profile,
              keyId: options.keyId,
              // Manual stepping has no budget: the client decides when to stop.
              step: session.conversation.history.length + 1,
              maxSteps: Number.POSITIVE_INFINITY,
              emit: (content) => reporter.emit(content),
              signal: operation,
            });
            const shot = await deps.screenshots.optional(session, request.include_screenshot);
            return await reporter.finished({ session, outcome, shot });
          } catch (error) {
            return reporter.failed(error, session);
          }
        } finally {
          session.driver.disarm();
        }
      },
      { signal: options.signal },
    );
  }
}
