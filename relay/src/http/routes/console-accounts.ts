import type { ConsoleIdParams, CreateAccountRequest, UpdateAccountRequest } from '@tandem/shared';
import { Router } from 'express';
import type { Services } from '../../services';
import { body, params, principal } from '../context';
import { route } from '../route';

/** Accounts, for admins: list, make, change (role, quota), delete, reset a password. */
export function consoleAccountRoutes(services: Services): Router {
  const router = Router();
  const { api } = services;
  const accounts = services.app.accounts;
  route(router, api.listAccounts, async (_req, res) => {
    res.json(await accounts.list());
  });
  route(router, api.createAccount, async (_req, res) => {
    res.status(201).json(await accounts.create(body<CreateAccountRequest>(res)));
  });
  route(router, api.updateAccount, async (_req, res) => {
    const { id } = params<ConsoleIdParams>(res);
    res.json(await accounts.update(principal(res), id, body<UpdateAccountRequest>(res)));
  });
  route(router, api.deleteAccount, async (_req, res) => {
    res.json(await accounts.remove(principal(res), params<ConsoleIdParams>(res).id));
  });
  route(router, api.resetPassword, async (_req, res) => {
    res.json(await accounts.resetPassword(params<ConsoleIdParams>(res).id));
  });
  return router;
}
