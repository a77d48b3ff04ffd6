import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from './support';

let relay: TestRelay;
let site: FixtureSite;
beforeAll(async () => {
  [relay, site] = await Promise.all([startTestRelay(), startFixtureSite()]);
});
afterAll(() => Promise.all([relay?.close(), site?.close()]));

describe('account isolation', () => {
  it("hides one account's sessions from another, which gets 404 as for an unknown session", async () => {
    const other = await relay.newAccount('other@example.com');
    const mine = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/` } });
    const id = mine.body.session_id as string;

    expect((await relay.api('GET', '/v1/web/sessions', { key: other })).body).toEqual({ session_ids: [] });
    for (const [method, path, body] of [
      ['GET', `/v1/web/screenshot/${id}`, undefined],
      ['POST', `/v1/web/session/${id}`, { cmd: 'x', stream: false }],
      ['DELETE', `/v1/web/session/${id}`, undefined],
      ['POST', '/v1/web/browse', { cmd: 'x', session_id: id }],
      ['POST', '/v1/web/retrieve', { cmd: 'x', session_id: id }],
    ] as const) {
      const res = await relay.api(method, path, { key: other, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toMatch(/is not known to this relay/);
    }
    // The other account's attempts changed nothing.
    expect((await relay.api('GET', '/v1/web/sessions')).body).toEqual({ session_ids: [id] });
    expect((await relay.api('GET', `/v1/web/screenshot/${id}`)).status).toBe(200);
    await relay.api('DELETE', `/v1/web/session/${id}`);
  });
});
