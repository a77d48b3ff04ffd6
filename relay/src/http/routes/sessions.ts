import type {
  CloseSessionResponse,
  CreateSessionRequest,
  SessionIdParams,
  StepRequest,
  StepResponse,
} from '@tandem/shared';
import { Router } from 'express';
import type { StepReporter } from '../../app/index';
import type { Services } from '../../services';
import { clientSignal } from '../client-signal';
import { accountId, body, keyIdOf, locals, params } from '../context';
import { streamReporter } from '../step-stream';
import { validate } from '../validation';

/** A step answered as one JSON body; every failure is a plain error response. */
function jsonReporter(request: StepRequest): StepReporter<StepResponse> {
  return {
    started: () => undefined,
    emit: () => undefined,
    finished: ({ session, outcome, shot }) => ({
      status: outcome.status,
      message: `${outcome.message}${shot.note}`,
      session_id: session.id,
      url: session.driver.url(),
      screenshot: shot.screenshot,
      metadata: request.temperature !== undefined ? { temperature: request.temperature } : {},
    }),
    failed: (error) => {
      throw error;
    },
  };
}

/** Create, step, close, list and screenshot: manual control of sessions. */
export function sessionRoutes(services: Services): Router {
  const router = Router();
  const { sessions, steps } = services.app;

  router.post(services.api.createSession.path, validate(services.api.createSession), async (_req, res) => {
    const response = await sessions.create(accountId(res), body<CreateSessionRequest>(res), (id) => {
      locals(res).sessionId = id;
    });
    res.json(response);
  });

  router.post(services.api.stepSession.path, validate(services.api.stepSession), async (_req, res) => {
    const signal = clientSignal(res);
    const { session_id } = params<SessionIdParams>(res);
    locals(res).sessionId = session_id;
    const request = body<StepRequest>(res);
    const options = { signal, keyId: keyIdOf(res) };
    if (request.stream) {
      await steps.step(accountId(res), session_id, request, streamReporter(res), options);
      return;
    }
    res.json(await steps.step(accountId(res), session_id, request, jsonReporter(request), options));
  });

  router.delete(services.api.closeSession.path, validate(services.api.closeSession), async (_req, res) => {
    const { session_id } = params<SessionIdParams>(res);
    locals(res).sessionId = session_id;
    await sessions.close(accountId(res), session_id);
    const response: CloseSessionResponse = { status: 'closed', session_id };
    res.json(response);
  });

  router.get(services.api.screenshot.path, validate(services.api.screenshot), async (_req, res) => {
    const { session_id } = params<SessionIdParams>(res);
    locals(res).sessionId = session_id;
    res.json(await sessions.screenshot(accountId(res), session_id));
  });

  router.get(services.api.listSessions.path, async (_req, res) => {
    res.json(await sessions.list(accountId(res)));
  });

  return router;
}
