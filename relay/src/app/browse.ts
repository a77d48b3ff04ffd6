import type { BrowseRequest, BrowseResponse } from '@tandem/shared';
import { runTask } from '../agent/steps';
import type { Config } from '../config';
import { deadline } from '../sessions/cancellation';
import { type AgentCallDeps, callSetup } from './agent-call';
import { checkPreparation } from './preparation';
import { modeOf } from './profiles';

export interface BrowseDeps extends AgentCallDeps {
  config: Pick<Config, 'TANDEM_START_URL' | 'TANDEM_BROWSE_TIMEOUT_SECONDS'>;
}

/** What a call carries besides its request: the client's signal, and who wants to know the session id. */
export interface CallOptions {
  /** Aborts when the client goes away: the work stops at its next action boundary. */
  signal?: AbortSignal | undefined;
  /** Told the session's id as soon as it is known (for the request's log lines). */
  onSession?: ((sessionId: string) => void) | undefined;
  /** The API key the call came with: its usage is counted under it. */
  keyId?: string | undefined;
}

/** Browse: create or continue a session and step while the status is CONTINUE, up to max_steps. */
export class BrowseService {
  constructor(private readonly deps: BrowseDeps) {}

  async browse(accountId: string, request: BrowseRequest, options: CallOptions = {}): Promise<BrowseResponse> {
    const { deps } = this;
    const { opener } = deps;
    const started = Date.now();
    const continuing = request.session_id !== undefined;
    const existing = continuing ? await opener.session(accountId, request.session_id as string) : undefined;
    // A continued session keeps the agent profile it was created with unless this call names another.
    const { profile, secrets } = await callSetup(deps, accountId, request, existing);
    const session =
      existing ??
      (await opener.open(accountId, {
        url: request.url ?? deps.config.TANDEM_START_URL,
        local: request.local,
        agent_id: request.agent_id,
        mode: request.mode ?? profile?.defaultMode ?? undefined,
        use_proxy: request.use_proxy,
      }));
    options.onSession?.(session.id);

    const seconds = deps.config.TANDEM_BROWSE_TIMEOUT_SECONDS;
    const work = opener.sessions.run(
      session,
      async (operation): Promise<BrowseResponse> => {
        // The time budget counts from the start of the work, not from a wait for a busy session.
        const budget = deadline(
          operation,
          seconds * 1000,
          `Stopped after the browse time limit of ${seconds} s (TANDEM_BROWSE_TIMEOUT_SECONDS), before finishing.`,
        );
        try {
          session.driver.arm(secrets);
          if (continuing) await (await checkPreparation(deps.guard, session, { url: request.url }))();
          session.conversation.accept(request.cmd);
          const outcome = await runTask({
            deps: deps.agent,
            session,
            mode: modeOf(request.mode, session, profile),
            temperature: request.temperature,
            profile,
            keyId: options.keyId,
            // The profile's limit holds even when the call asks for more.
            maxSteps: Math.min(request.max_steps, profile?.maxSteps ?? Number.POSITIVE_INFINITY),
            emit: () => undefined,
            signal: budget.signal,
          });
          const shot = await deps.screenshots.optional(session, request.include_screenshot);
          return {
            message: `${outcome.message}${shot.note}`,
            status: outcome.status,
            url: session.driver.url(),
            screenshot: shot.screenshot,
            session_id: session.id,
            metadata: {
              step_count: outcome.steps,
              processing_time: Math.round((Date.now() - started) / 1000),
              ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            },
          };
        } finally {
          budget.clear();
          session.driver.disarm();
        }
      },
      { signal: options.signal },
    );
    return continuing ? work : opener.closingOnFailure(accountId, session, work);
  }
}
