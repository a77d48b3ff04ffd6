import { DeviceTokenRequest, type DeviceTokenResponse, type RevokeDeviceResponse } from '@tandem/shared';
import { Router } from 'express';
import { BadRequest, TooManyRequests, Unauthorized, ValidationFailed } from '../../errors';
import type { SignInAttempt } from '../../limits/sign-in-guard';
import type { Services } from '../../services';
import { apiKeyOf } from '../auth';
import { locals } from '../context';
import { toValidationIssues } from '../validation';

export const EXTENSION_TOKEN_PATH = '/v1/extension/token';

const TOO_MANY = (seconds: number) =>
  `Too many failed sign-ins for this account or from this address. Try again in ${seconds} s.`;

/**
 * Device tokens for the extension (local mode). POST signs a browser in with email + password, a
 * one-time pairing code or an API key header and returns a revocable token; DELETE with the device token as Bearer revokes it
 * (the popup's sign-out). Mounted outside /v1/web: it does its own authentication. Failed sign-ins
 * are limited per account and per client address (SignInGuard) and logged, never with the password.
 */
export function extensionRoutes(services: Services): Router {
  const router = Router();
  const { store } = services;

  router.post(EXTENSION_TOKEN_PATH, async (req, res) => {
    // The body is optional with an API key, so it is parsed here rather than by validate().
    const raw: unknown = req.body === undefined || req.body === null ? {} : req.body;
    const parsed = DeviceTokenRequest.safeParse(raw);
    if (!parsed.success)
      throw new ValidationFailed(toValidationIssues('body', parsed.error.issues, raw, DeviceTokenRequest));
    const request = parsed.data;

    let accountId: string;
    const key = apiKeyOf(req);
    const code = request.pairing_code?.trim();
    if (!key && !code && (!request.email || !request.password)) {
      throw new BadRequest(
        'Send {"email", "password"} of your account, a {"pairing_code"} (npm run pair), or an API key in the X_SERVICE_API_KEY header.',
      );
    }
    const attempt: SignInAttempt = {
      account: key || code ? undefined : request.email,
      address: req.ip ?? 'unknown',
    };
    const allowed = await services.signIns.check(attempt);
    if (!allowed.allowed) throw new TooManyRequests(allowed.retryAfterMs, TOO_MANY);
    const failed = async (message: string): Promise<never> => {
      const verdict = await services.signIns.failed(attempt);
      locals(res).log.warn(
        { email: attempt.account, address: attempt.address, failures: verdict.failures, apiKey: key !== undefined },
        'sign-in failed',
      );
      throw new Unauthorized(message);
    };
    if (code && !key) {
      const owner = await store.pairingCodes.redeem(code);
      if (!owner)
        return failed(
          'That pairing code is wrong, already used or expired (a code lasts 10 minutes). Make a new one: npm run pair.',
        );
      accountId = owner;
    } else if (key) {
      const record = await store.apiKeys.resolve(key);
      if (!record) return failed('Invalid or revoked API key. Sign in with email and password, or use a live key.');
      accountId = record.accountId;
    } else {
      const account = await store.accounts.authenticate(request.email as string, request.password as string);
      if (!account) return failed('Wrong email or password.');
      await services.signIns.succeeded(attempt);
      accountId = account.id;
    }
    const { token, record } = await store.devices.issue(accountId, request.name?.trim() || 'Browser extension');
    locals(res).log.info({ accountId, deviceId: record.id }, 'device token issued');
    const response: DeviceTokenResponse = { token, device_id: record.id };
    res.status(201).json(response);
  });

  router.delete(EXTENSION_TOKEN_PATH, async (req, res) => {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1];
    if (!token) throw new Unauthorized('Send the device token as Authorization: Bearer <token>.');
    const device = await store.devices.resolve(token);
    const revoked = device ? await store.devices.revoke(device.accountId, device.id) : false;
    // A revoked token must not keep a live socket: close it and end the device's sessions.
    if (device && revoked) services.gateway.revokeDevice(device.id);
    const response: RevokeDeviceResponse = { revoked };
    res.json(response);
  });

  return router;
}
