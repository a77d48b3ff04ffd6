import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from './support';

let relay: TestRelay;
beforeAll(async () => {
  relay = await startTestRelay();
});
afterAll(() => relay?.close());

const ROUTES = [
  ['POST', '/v1/web/browse'],
  ['POST', '/v1/web/session'],
  ['POST', '/v1/web/session/ses_n0_x'],
  ['DELETE', '/v1/web/session/ses_n0_x'],
  ['GET', '/v1/web/screenshot/ses_n0_x'],
  ['GET', '/v1/web/sessions'],
  ['POST', '/v1/web/retrieve'],
] as const;

describe('authentication', () => {
  it('answers 401 on every endpoint without a key, before looking at the body', async () => {
    for (const [method, path] of ROUTES) {
      const res = await relay.api(method, path, { key: null, rawBody: method === 'POST' ? '{not json' : undefined });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
      expect(res.body.message).toMatch(/X_SERVICE_API_KEY/);
      expect(res.body.message).toMatch(/Bearer/);
    }
  });

  it('answers 401 for a wrong key, an empty key and a non-bearer Authorization header', async () => {
    expect((await relay.api('GET', '/v1/web/sessions', { key: 'tdm_wrong' })).status).toBe(401);
    expect((await relay.api('GET', '/v1/web/sessions', { key: '' })).status).toBe(401);
    const basic = await relay.api('GET', '/v1/web/sessions', {
      key: null,
      headers: { authorization: `Basic ${Buffer.from(`x:${relay.key}`).toString('base64')}` },
    });
    expect(basic.status).toBe(401);
    const wrong = await relay.api('GET', '/v1/web/sessions', { key: 'tdm_wrong' });
    expect(wrong.body.message).toMatch(/Invalid or revoked API key/);
  });

  it('accepts the key as X_SERVICE_API_KEY and as Authorization: Bearer', async () => {
    expect((await relay.api('GET', '/v1/web/sessions')).status).toBe(200);
    const bearer = await relay.api('GET', '/v1/web/sessions', {
      key: null,
      headers: { authorization: `Bearer ${relay.key}` },
    });
    expect(bearer).toMatchObject({ status: 200, body: { session_ids: [] } });
  });

  it('rejects a key once it is revoked', async () => {
    const key = await relay.newAccount('revoked@example.com');
    expect((await relay.api('GET', '/v1/web/sessions', { key })).status).toBe(200);
    const record = await relay.services.store.apiKeys.resolve(key);
    expect(record).toBeDefined();
    expect(await relay.services.store.apiKeys.revoke(record!.accountId, record!.id)).toBe(true);
    expect((await relay.api('GET', '/v1/web/sessions', { key })).status).toBe(401);
  });

  it('leaves the screenshot files, docs and health check public', async () => {
    expect((await relay.api('GET', '/healthz', { key: null })).status).toBe(200);
    expect((await relay.api('GET', '/v1/openapi.json', { key: null })).status).toBe(200);
    const missing = await relay.api('GET', '/v1/web/screenshots/AAAAAAAAAAAAAAAAAAAAAA.png', { key: null });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/24 hours/);
    expect((await relay.api('GET', '/v1/web/screenshots/..%2F..%2Ftandem.db', { key: null })).status).toBe(404);
  });
});
