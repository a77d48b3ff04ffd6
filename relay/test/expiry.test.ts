import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay } from './support';

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(() => site?.close());

describe('idle expiry', () => {
  it('expires an idle session, frees its context and says "expired" afterwards', async () => {
    const relay = await startTestRelay({ TANDEM_SESSION_IDLE_SECONDS: 1 });
    try {
      const created = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/` } });
      const id = created.body.session_id as string;
      const browser = await relay.services.browsers.get();
      expect(browser.contexts()).toHaveLength(1);
      await expect
        .poll(async () => (await relay.api('GET', '/v1/web/sessions')).body.session_ids, { timeout: 10_000 })
        .toEqual([]);
      // Expiry starts closing the context at once; closing takes a moment.
      await expect.poll(() => browser.contexts().length, { timeout: 5000 }).toBe(0);
      const res = await relay.api('GET', `/v1/web/screenshot/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toMatch(/expired after being idle/);
    } finally {
      await relay.close();
    }
  });

  it('never expires a session while an operation is running, and restarts the timer after it', async () => {
    const relay = await startTestRelay({ TANDEM_SESSION_IDLE_SECONDS: 0.5 });
    try {
      // Opening /slow takes 1.5 s, three idle periods: the session must survive it.
      const created = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/slow?ms=1500` } });
      expect(created.status).toBe(200);
      const id = created.body.session_id as string;
      const accountId = (await relay.services.store.apiKeys.resolve(relay.key))!.accountId;
      const session = relay.services.sessions.get(accountId, id);
      expect(Date.now() - session.lastUsedAt).toBeLessThan(500);
      expect((await relay.api('GET', `/v1/web/screenshot/${id}`)).status).toBe(200);
      await expect
        .poll(async () => (await relay.api('GET', '/v1/web/sessions')).body.session_ids, { timeout: 10_000 })
        .toEqual([]);
    } finally {
      await relay.close();
    }
  });
});

describe('session cap', () => {
  it('answers 503 with Retry-After at TANDEM_MAX_SESSIONS when no session can be parked, and accepts again after a close', async () => {
    const relay = await startTestRelay({ TANDEM_MAX_SESSIONS: 2 });
    try {
      // Sessions that are still opening hold their slot and cannot be parked.
      const opening = [0, 1].map(() =>
        relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/slow?ms=2500&cap=1` } }),
      );
      await expect
        .poll(() => site.requests.filter((r) => r.includes('cap=1')).length, { timeout: 10_000 })
        .toBeGreaterThanOrEqual(2);
      const full = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/` } });
      expect(full.status).toBe(503);
      expect(full.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
      expect(full.body.message).toMatch(/limit of 2 live sessions/);
      expect(Number(full.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const [a] = await Promise.all(opening);
      await relay.api('DELETE', `/v1/web/session/${a?.body.session_id}`);
      expect((await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/` } })).status).toBe(200);
    } finally {
      await relay.close();
    }
  });

  it('counts sessions still opening, so concurrent creates cannot overshoot the cap', async () => {
    const relay = await startTestRelay({ TANDEM_MAX_SESSIONS: 3 });
    try {
      const results = await Promise.all(
        Array.from({ length: 6 }, () => relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/` } })),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(3);
      expect(results.filter((r) => r.status === 503)).toHaveLength(3);
    } finally {
      await relay.close();
    }
  });
});
