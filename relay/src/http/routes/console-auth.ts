import type { ChangePasswordRequest, SignInRequest, SignUpRequest } from '@tandem/shared';
import express, { type Request, type Response, Router } from 'express';
import type { SignedIn } from '../../app/accounts';
import type { Services } from '../../services';
import { CONSOLE_SESSION_TTL_MS } from '../../store/console-sessions';
import { clearConsoleCookie, refuseOtherSites, setConsoleCookie } from '../console-auth';
import { body, locals, principal } from '../context';
import { route } from '../route';

const addressOf = (req: Request) => req.ip ?? 'unknown';

/**
 * Signing in to the console, before any authentication: how to sign in, sign in, sign up. Mounted ahead
 * of the admin API's auth, with its own JSON parser.
 */
export function consoleSignInRoutes(services: Services): Router {
  const router = Router();
  const { api } = services;
  const accounts = services.app.accounts;
  router.use(api.signIn.path, express.json({ limit: '16kb', type: () => true, strict: false }));
  router.use(api.signUp.path, express.json({ limit: '16kb', type: () => true, strict: false }));
  const signedIn = (req: Request, res: Response, status: number, done: SignedIn) => {
    setConsoleCookie(services, req, res, done.token, CONSOLE_SESSION_TTL_MS);
    locals(res).log.info({ accountId: done.answer.account.id }, 'console sign-in');
    res.status(status).json(done.answer);
  };

  route(router, api.authOptions, (_req, res) => {
    res.json(accounts.options());
  });
  // Another site's page must not sign a visitor in to an account of its choosing (login CSRF: a text/plain
  // form can carry a JSON body), nor make accounts.
  route(router, api.signIn, async (req, res) => {
    refuseOtherSites(req);
    const { email, password } = body<SignInRequest>(res);
    try {
      signedIn(req, res, 200, await accounts.signIn(email, password, addressOf(req)));
    } catch (error) {
      locals(res).log.warn({ email, address: addressOf(req) }, 'console sign-in failed');
      throw error;
    }
  });
  route(router, api.signUp, async (req, res) => {
    refuseOtherSites(req);
    const { email, password } = body<SignUpRequest>(res);
    signedIn(req, res, 201, await accounts.signUp(email, password, addressOf(req)));
  });
  return router;
}

/** The signed-in account itself: who am I, change my password, sign out. */
export function consoleMeRoutes(services: Services): Router {
  const router = Router();
  const { api } = services;
  const accounts = services.app.accounts;
  route(router, api.me, async (_req, res) => {
    res.json(await accounts.me(principal(res)));
  });
  route(router, api.changePassword, async (req, res) => {
    const { current_password, new_password } = body<ChangePasswordRequest>(res);
    res.json(await accounts.changePassword(principal(res), current_password, new_password, addressOf(req)));
  });
  route(router, api.signOut, async (req, res) => {
    const answer = await accounts.signOut(principal(res));
    clearConsoleCookie(services, req, res);
    res.json(answer);
  });
  return router;
}
