import type { ConsoleIdParams, CreateApiKeyRequest, CreateSkillRequest, SkillPreviewRequest } from '@tandem/shared';
import { Router } from 'express';
import type { Services } from '../../services';
import { accountId, body, locals, params } from '../context';
import { validate } from '../validation';

/** The admin API (/v1/console/…): API keys, skills and extension devices of the caller's account. */
export function consoleRoutes(services: Services): Router {
  const router = Router();
  const { api } = services;
  const admin = services.app.console;

  router.post(api.createApiKey.path, validate(api.createApiKey), async (_req, res) => {
    res.status(201).json(await admin.createApiKey(accountId(res), body<CreateApiKeyRequest>(res).name));
  });
  router.get(api.listApiKeys.path, async (_req, res) => {
    res.json(await admin.apiKeys(accountId(res)));
  });
  router.delete(api.revokeApiKey.path, validate(api.revokeApiKey), async (_req, res) => {
    const caller = locals(res).apiKey?.id ?? '';
    res.json(await admin.revokeApiKey(accountId(res), params<ConsoleIdParams>(res).id, caller));
  });

  router.get(api.listSkills.path, async (_req, res) => {
    res.json(await admin.skills(accountId(res)));
  });
  // Before /skills/:id routes would see "preview" as an id (there are none for POST, but keep it first).
  router.post(api.previewSkills.path, validate(api.previewSkills), async (_req, res) => {
    res.json(await admin.previewSkills(accountId(res), body<SkillPreviewRequest>(res).url));
  });
  router.post(api.createSkill.path, validate(api.createSkill), async (_req, res) => {
    const { host_pattern, rule } = body<CreateSkillRequest>(res);
    res.status(201).json(await admin.addSkill(accountId(res), host_pattern, rule));
  });
  router.delete(api.deleteSkill.path, validate(api.deleteSkill), async (_req, res) => {
    res.json(await admin.deleteSkill(accountId(res), params<ConsoleIdParams>(res).id));
  });

  router.get(api.listDevices.path, async (_req, res) => {
    res.json(await admin.devices(accountId(res)));
  });
  router.delete(api.revokeDevice.path, validate(api.revokeDevice), async (_req, res) => {
    res.json(await admin.revokeDevice(accountId(res), params<ConsoleIdParams>(res).id));
  });
  return router;
}
