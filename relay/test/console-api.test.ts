import type {
  ApiKeysResponse,
  CreatedApiKey,
  DevicesResponse,
  SkillPreviewResponse,
  SkillsResponse,
} from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from './support';

let relay: TestRelay;
let otherKey: string;

beforeAll(async () => {
  relay = await startTestRelay();
  otherKey = await relay.newAccount('other@example.com');
});
afterAll(async () => {
  await relay?.close();
});

describe('the admin API: API keys', () => {
  it('creates a key shown once, lists it without the key, revokes it (the next call is a 401)', async () => {
    const created = await relay.api<CreatedApiKey>('POST', '/v1/console/api-keys', { body: { name: '  CI script ' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { key, id, prefix } = created.body;
    expect(key).toMatch(/^tdm_/);
    expect(key.startsWith(prefix)).toBe(true);
    expect(created.body).toMatchObject({ name: 'CI script', last_used_at: null });

    expect((await relay.api('GET', '/v1/web/sessions', { key })).status).toBe(200);
    const listed = await relay.api<ApiKeysResponse>('GET', '/v1/console/api-keys');
    const entry = listed.body.api_keys.find((k) => k.id === id);
    expect(entry).toMatchObject({ name: 'CI script', prefix });
    expect(entry?.last_used_at).not.toBeNull();
    expect(JSON.stringify(listed.body)).not.toContain(key);
    // Another account neither sees nor reaches it.
    const foreign = await relay.api<ApiKeysResponse>('GET', '/v1/console/api-keys', { key: otherKey });
    expect(foreign.body.api_keys.map((k) => k.id)).not.toContain(id);
    expect((await relay.api('DELETE', `/v1/console/api-keys/${id}`, { key: otherKey })).status).toBe(404);

    // The key of the call itself is not revoked this way.
    const self = await relay.api('DELETE', `/v1/console/api-keys/${id}`, { key });
    expect(self.status).toBe(400);
    expect(self.body.message).toMatch(/revoke it with another key/);

    const revoked = await relay.api('DELETE', `/v1/console/api-keys/${id}`);
    expect(revoked.body).toEqual({ id, removed: true });
    expect((await relay.api('GET', '/v1/web/sessions', { key })).status).toBe(401);
    expect((await relay.api('DELETE', `/v1/console/api-keys/${id}`)).status).toBe(404);
  });

  it('refuses a key without a name, with the 422 shape, and the admin API without a key', async () => {
    const bad = await relay.api('POST', '/v1/console/api-keys', { body: { name: '   ' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'name'] })]);
    expect((await relay.api('GET', '/v1/console/api-keys', { key: null })).status).toBe(401);
  });
});

describe('the admin API: skills', () => {
  it("adds, lists, previews by URL with the agent's matching, and deletes skills, per account", async () => {
    const added = await relay.api<{ id: string; host_pattern: string }>('POST', '/v1/console/skills', {
      body: { host_pattern: ' *.Shop.example ', rule: 'Compare prices before buying.' },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.host_pattern).toBe('*.shop.example');
    const preview = async (url: string) =>
      (await relay.api<SkillPreviewResponse>('POST', '/v1/console/skills/preview', { body: { url } })).body.skills.map(
        (s) => s.id,
      );
    expect(await preview('https://www.shop.example/cart')).toContain(added.body.id);
    expect(await preview('https://shop.example/')).not.toContain(added.body.id); // *. is subdomains only
    expect(await preview('https://elsewhere.example/')).not.toContain(added.body.id);
    expect((await relay.api<SkillsResponse>('GET', '/v1/console/skills')).body.skills.map((s) => s.id)).toContain(
      added.body.id,
    );
    expect((await relay.api<SkillsResponse>('GET', '/v1/console/skills', { key: otherKey })).body.skills).toEqual([]);
    expect((await relay.api('DELETE', `/v1/console/skills/${added.body.id}`, { key: otherKey })).status).toBe(404);

    const bad = await relay.api<{ detail: { loc: unknown[] }[] }>('POST', '/v1/console/skills', {
      body: { host_pattern: 'http://x/<b>', rule: 'x' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]?.loc).toEqual(['body', 'host_pattern']);

    expect((await relay.api('DELETE', `/v1/console/skills/${added.body.id}`)).body).toEqual({
      id: added.body.id,
      removed: true,
    });
    expect(await preview('https://www.shop.example/cart')).not.toContain(added.body.id);
  });
});

describe('the admin API: extension devices', () => {
  it('lists signed-in browsers and revokes one (its token works no more)', async () => {
    const issued = await relay.api<{ token: string; device_id: string }>('POST', '/v1/extension/token', {
      body: { name: 'Laptop Chrome' },
    });
    expect(issued.status).toBe(201);
    const devices = await relay.api<DevicesResponse>('GET', '/v1/console/devices');
    expect(devices.body.devices.find((d) => d.id === issued.body.device_id)).toMatchObject({
      name: 'Laptop Chrome',
      connected: false,
      api_enabled: false,
    });
    expect((await relay.api('DELETE', `/v1/console/devices/${issued.body.device_id}`, { key: otherKey })).status).toBe(
      404,
    );
    expect((await relay.api('DELETE', `/v1/console/devices/${issued.body.device_id}`)).status).toBe(200);
    expect(await relay.services.store.devices.resolve(issued.body.token)).toBeUndefined();
    expect(
      (await relay.api<DevicesResponse>('GET', '/v1/console/devices')).body.devices.map((d) => d.id),
    ).not.toContain(issued.body.device_id);
  });
});
