import type { BrowseRequest, BrowseResponse } from '@tandem/shared';
import { Router } from 'express';
import { modeOf, prepareSession, resolveProfile } from '../../agent/session-agent';
import { runTask } from '../../agent/steps';
import { resolveSecrets, secretsText } from '../../agent/task-secrets';
import type { Services } from '../../services';
import { deadline } from '../../sessions/cancellation';
import { openSession, optionalScreenshot } from '../../sessions/lifecycle';
import { clientSignal } from '../client-signal';
import { accountId, body, locals } from '../context';
import { validate } from '../validation';

/** Browse: create or continue a session and step while the status is CONTINUE, up to max_steps. */
export function browseRoutes(services: Services): Router {
  const router = Router();
  router.post(services.api.browse.path, validate(services.api.browse), async (_req, res) => {
    const started = Date.now();
    const gone = clientSignal(res);
    const request = body<BrowseRequest>(res);
    const account = accountId(res);
    const continuing = request.session_id !== undefined;
    const existing = continuing ? services.sessions.get(account, request.session_id as string) : undefined;
    // A continued session keeps the agent profile it was created with unless this call names another.
    const profile = await resolveProfile(services, account, request.agent_id ?? existing?.info.agentId);
    const secrets = await resolveSecrets(
      services.store.secrets,
      account,
      secretsText(request.cmd, existing?.conversation),
      request.optional_params?.secrets,
    );
    const session =
      existing ??
      (await openSession(services, account, {
        url: request.url ?? services.config.TANDEM_START_URL,
        local: request.local,
        agent_id: request.agent_id,
        mode: request.mode ?? profile?.defaultMode ?? undefined,
        use_proxy: request.use_proxy,
      }));
    locals(res).sessionId = session.id;

    const seconds = services.config.TANDEM_BROWSE_TIMEOUT_SECONDS;
    const work = services.sessions.run(
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
          if (continuing) await prepareSession(services, session, { url: request.url });
          session.conversation.accept(request.cmd);
          const outcome = await runTask({
            services,
            session,
            planner: services.planner,
            mode: modeOf(request.mode, session, profile),
            temperature: request.temperature,
            profile,
            maxSteps: request.max_steps,
            emit: () => undefined,
            signal: budget.signal,
          });
          const shot = await optionalScreenshot(services, session, request.include_screenshot);
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
      { signal: gone },
    );
    // A session this call created and could not report back would only wait for its idle expiry.
    const response = await work.catch(async (error: unknown) => {
      if (!continuing) await services.sessions.close(account, session.id).catch(() => undefined);
      throw error;
    });
    res.json(response);
  });
  return router;
}
