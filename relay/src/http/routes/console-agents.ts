import type {
  ConsoleIdParams,
  CreateAgentRequest,
  PutSecretRequest,
  SecretNameParams,
  UpdateAgentRequest,
} from '@tandem/shared';
import { Router } from 'express';
import type { Services } from '../../services';
import { accountId, body, params } from '../context';
import { route } from '../route';

/** Agent profiles and the secrets their tasks type: what the agent works with. */
export function consoleAgentRoutes(services: Services): Router {
  const router = Router();
  const { api } = services;
  const { agents, secrets } = services.app;

  route(router, api.listAgents, async (_req, res) => {
    res.json(await agents.list(accountId(res)));
  });
  route(router, api.createAgent, async (_req, res) => {
    res.status(201).json(await agents.create(accountId(res), body<CreateAgentRequest>(res)));
  });
  route(router, api.getAgent, async (_req, res) => {
    res.json(await agents.get(accountId(res), params<ConsoleIdParams>(res).id));
  });
  route(router, api.updateAgent, async (_req, res) => {
    res.json(await agents.update(accountId(res), params<ConsoleIdParams>(res).id, body<UpdateAgentRequest>(res)));
  });
  route(router, api.deleteAgent, async (_req, res) => {
    res.json(await agents.remove(accountId(res), params<ConsoleIdParams>(res).id));
  });

  route(router, api.listSecrets, async (_req, res) => {
    res.json(await secrets.list(accountId(res)));
  });
  route(router, api.putSecret, async (_req, res) => {
    const { name } = params<SecretNameParams>(res);
    res.json(await secrets.put(accountId(res), name, body<PutSecretRequest>(res)));
  });
  route(router, api.deleteSecret, async (_req, res) => {
    res.json(await secrets.remove(accountId(res), params<SecretNameParams>(res).name));
  });
  return router;
}
