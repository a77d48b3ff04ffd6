import type {
  CloseSessionResponse,
  CreateSessionRequest,
  CreateSessionResponse,
  ListSessionsResponse,
  ScreenshotResponse,
  SessionIdParams,
  StepRequest,
  StepResponse,
} from '@tandem/shared';
import { Router } from 'express';
import { checkPreparation, modeOf, resolveProfile } from '../../agent/session-agent';
import { runStep } from '../../agent/steps';
import { resolveSecrets, secretsText } from '../../agent/task-secrets';
import { statusNote } from '../../browser/http-status';
import type { Services } from '../../services';
import { captureScreenshot, openSession, optionalScreenshot } from '../../sessions/lifecycle';
import { clientSignal } from '../client-signal';
import { accountId, body, locals, params } from '../context';
import { emitTo, streamStep } from '../step-stream';
import { validate } from '../validation';

/** Create, step, close, list and screenshot: manual control of sessions. */
export function sessionRoutes(services: Services): Router {
  const router = Router();

  router.post(services.api.createSession.path, validate(services.api.createSession), async (_req, res) => {
    const request = body<CreateSessionRequest>(res);
    const session = await openSession(services, accountId(res), request);
    locals(res).sessionId = session.id;
    const response = await services.sessions
      .run(session, async (): Promise<CreateSessionResponse> => {
        const title = await session.driver.title();
        const shot = await optionalScreenshot(services, session, request.include_screenshot);
        return {
          status: 'CONTINUE',
          message: `Session created; opened ${title ? `"${title}"` : session.driver.url()}.${statusNote(session.driver.httpStatus())}${shot.note}`,
          session_id: session.id,
          url: session.driver.url(),
          screenshot: shot.screenshot,
        };
      })
      .catch(async (error: unknown) => {
        // The client never learns the id of a session whose create failed: it would only wait to expire.
        await services.sessions.close(accountId(res), session.id).catch(() => undefined);
        throw error;
      });
    res.json(response);
  });

  router.post(services.api.stepSession.path, validate(services.api.stepSession), async (_req, res) => {
    const gone = clientSignal(res);
    const { session_id } = params<SessionIdParams>(res);
    locals(res).sessionId = session_id;
    const request = body<StepRequest>(res);
    const account = accountId(res);
    const session = services.sessions.get(account, session_id);
    const profile = await resolveProfile(services, account, request.agent_id ?? session.info.agentId);
    const secrets = await resolveSecrets(
      services.store.secrets,
      account,
      secretsText(request.cmd, session.conversation),
      request.optional_params?.secrets,
    );
    const context = (emit: (content: string) => void, signal: AbortSignal) => ({
      services,
      session,
      planner: services.planner,
      mode: modeOf(request.mode, session, profile),
      temperature: request.temperature,
      profile,
      // Manual stepping has no budget: the client decides when to stop.
      step: session.conversation.history.length + 1,
      maxSteps: Number.POSITIVE_INFINITY,
      emit,
      signal,
    });
    const metadata = request.temperature !== undefined ? { temperature: request.temperature } : {};

    const step = async (signal: AbortSignal) => {
      // Problems with the request itself (a refused URL, an empty cmd with no task) still get a plain
      // HTTP error, before any event is sent; navigating is part of the step, after the first chunk.
      const prepare = await checkPreparation(services, session, request);
      if (!request.stream) {
        // Navigate before taking the cmd: a JSON step whose page fails to load leaves the task as it was.
        await prepare();
        session.conversation.accept(request.cmd);
        const outcome = await runStep(context(() => undefined, signal));
        const shot = await optionalScreenshot(services, session, request.include_screenshot);
        const response: StepResponse = {
          status: outcome.status,
          message: `${outcome.message}${shot.note}`,
          session_id: session.id,
          url: session.driver.url(),
          screenshot: shot.screenshot,
          metadata,
        };
        res.json(response);
        return;
      }
      session.conversation.accept(request.cmd);
      await streamStep(
        res,
        session,
        async () => {
          await prepare();
          return runStep(context(emitTo(res, session), signal));
        },
        () => optionalScreenshot(services, session, request.include_screenshot),
      );
    };
    await services.sessions.run(
      session,
      async (signal) => {
        session.driver.arm(secrets);
        try {
          await step(signal);
        } finally {
          session.driver.disarm();
        }
      },
      { signal: gone },
    );
  });

  router.delete(services.api.closeSession.path, validate(services.api.closeSession), async (_req, res) => {
    const { session_id } = params<SessionIdParams>(res);
    locals(res).sessionId = session_id;
    await services.sessions.close(accountId(res), session_id);
    const response: CloseSessionResponse = { status: 'closed', session_id };
    res.json(response);
  });

  router.get(services.api.screenshot.path, validate(services.api.screenshot), async (_req, res) => {
    const { session_id } = params<SessionIdParams>(res);
    locals(res).sessionId = session_id;
    const session = services.sessions.get(accountId(res), session_id);
    const screenshot = await services.sessions.run(session, () => captureScreenshot(services, session));
    const response: ScreenshotResponse = { screenshot };
    res.json(response);
  });

  router.get(services.api.listSessions.path, (_req, res) => {
    const response: ListSessionsResponse = { session_ids: services.sessions.list(accountId(res)) };
    res.json(response);
  });

  return router;
}
