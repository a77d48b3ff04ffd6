import type {
  ConsoleIdParams,
  CreateApiKeyRequest,
  CreateSkillRequest,
  Guardrails,
  SkillPreviewRequest,
  UpdateSkillRequest,
} from '@tandem/shared';
import { Router } from 'express';
import type { Services } from '../../services';
import { accountId, body, keyIdOf, params } from '../context';
import { route } from '../route';

/** The admin API (/v1/console/…): API keys, skills, guardrails and extension devices of the caller's account. */
export function consoleRoutes(services: Services): Router {
  const router = Router();
  const { api } = services;
  const admin = services.app.console;

  route(router, api.createApiKey, async (_req, res) => {
    res.status(201).json(await admin.createApiKey(accountId(res), body<CreateApiKeyRequest>(res).name));
  });
  route(router, api.listApiKeys, async (_req, res) => {
    res.json(await admin.apiKeys(accountId(res)));
  });
  route(router, api.revokeApiKey, async (_req, res) => {
    res.json(await admin.revokeApiKey(accountId(res), params<ConsoleIdParams>(res).id, keyIdOf(res)));
  });

  route(router, api.listSkills, async (_req, res) => {
    res.json(await admin.skills(accountId(res)));
  });
  // Before /skills/:id, which would otherwise take "preview" for an id.
  route(router, api.previewSkills, async (_req, res) => {
    res.json(await admin.previewSkills(accountId(res), body<SkillPreviewRequest>(res).url));
  });
  route(router, api.createSkill, async (_req, res) => {
    res.status(201).json(await admin.addSkill(accountId(res), body<CreateSkillRequest>(res)));
  });
  route(router, api.updateSkill, async (_req, res) => {
    res.json(await admin.updateSkill(accountId(res), params<ConsoleIdParams>(res).id, body<UpdateSkillRequest>(res)));
  });
  route(router, api.deleteSkill, async (_req, res) => {
    res.json(await admin.deleteSkill(accountId(res), params<ConsoleIdParams>(res).id));
  });

  route(router, api.getGuardrails, async (_req, res) => {
    res.json(await admin.guardrails(accountId(res)));
  });
  route(router, api.setGuardrails, async (_req, res) => {
    res.json(await admin.setGuardrails(accountId(res), body<Guardrails>(res)));
  });

  route(router, api.listDevices, async (_req, res) => {
    res.json(await admin.devices(accountId(res)));
  });
  // Before /devices/:id, as for skills.
  route(router, api.createPairingCode, async (_req, res) => {
    res.status(201).json(await admin.pairingCode(accountId(res)));
  });
  route(router, api.revokeDevice, async (_req, res) => {
    res.json(await admin.revokeDevice(accountId(res), params<ConsoleIdParams>(res).id));
  });
  return router;
}
