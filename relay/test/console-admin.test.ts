import type {
  AgentInfo,
  AgentsResponse,
  ConsoleSessionsResponse,
  GuardrailsResponse,
  PairingCode,
  SecretInfo,
  SecretsResponse,
  SkillInfo,
  SkillPreviewResponse,
  UsageResponse,
} from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { decision, promptOf, useAgentRelay } from './agent-support';

const h = useAgentRelay();

/** A second account with its own key, for isolation checks. */
async function otherKey(email: string): Promise<string> {
  return h.relay.newAccount(email);
}

describe('the admin API: agents', () => {
  it('makes, reads, changes and deletes agent profiles that browse then uses; per account', async () => {
    const skill = await h.relay.api<SkillInfo>('POST', '/v1/console/skills', {
      body: { host_pattern: '127.0.0.1', rule: 'Only the chosen rule.' },
    });
    const made = await h.relay.api<AgentInfo>('POST', '/v1/console/agents', {
      body: { name: ' Careful ', instructions: 'Ask before buying.', default_mode: 'standard', max_steps: 3 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      id: expect.stringMatching(/^agt_/),
      name: 'Careful',
      default_mode: 'standard',
      temperature: null,
      max_steps: 3,
      skill_ids: null,
    });
    const id = made.body.id;
    const changed = await h.relay.api<AgentInfo>('PATCH', `/v1/console/agents/${id}`, {
      body: { temperature: 0.2, skill_ids: [skill.body.id] },
    });
    expect(changed.body).toMatchObject({ name: 'Careful', temperature: 0.2, skill_ids: [skill.body.id] });
    expect((await h.relay.api<AgentInfo>('GET', `/v1/console/agents/${id}`)).body).toEqual(changed.body);
    expect((await h.relay.api<AgentsResponse>('GET', '/v1/console/agents')).body.agents.map((a) => a.id)).toContain(id);

    // The profile steers the agent: its instructions, temperature and skills reach the model.
    h.model.script(decision([{ action: 'done', message: 'Nothing to do.' }]));
    const run = await h.relay.api('POST', '/v1/web/browse', {
      body: { cmd: 'look around', url: `${h.site.url}/index.html`, agent_id: id },
    });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    const request = h.model.requests.at(-1);
    expect(promptOf(request)).toContain('Ask before buying.');
    expect(promptOf(request)).toContain('Only the chosen rule.');
    expect(request?.body?.temperature).toBe(0.2);

    // Another account neither sees nor reaches it, nor names another account's skills in its own.
    const other = await otherKey('agents-other@example.com');
    expect((await h.relay.api('GET', `/v1/console/agents/${id}`, { key: other })).status).toBe(404);
    expect((await h.relay.api('PATCH', `/v1/console/agents/${id}`, { key: other, body: { name: 'x' } })).status).toBe(
      404,
    );
    const foreignSkill = await h.relay.api('POST', '/v1/console/agents', {
      key: other,
      body: { name: 'thief', skill_ids: [skill.body.id] },
    });
    expect(foreignSkill.status).toBe(400);
    expect(foreignSkill.body.message).toMatch(/skill_ids names a skill this account does not have/);

    expect((await h.relay.api('DELETE', `/v1/console/agents/${id}`)).body).toEqual({ id, removed: true });
    const gone = await h.relay.api('POST', '/v1/web/browse', { body: { cmd: 'x', agent_id: id } });
    expect(gone.status).toBe(400);
    expect(gone.body.message).toMatch(/Unknown agent_id/);
  });

  it('refuses bad profiles with the 422 shape', async () => {
    const bad = await h.relay.api('POST', '/v1/console/agents', {
      body: { name: '', temperature: 3, max_steps: 0, default_mode: 'turbo' },
    });
    expect(bad.status).toBe(422);
    const locs = (bad.body.detail as { loc: string[] }[]).map((d) => d.loc.join('.'));
    expect(locs.sort()).toEqual(['body.default_mode', 'body.max_steps', 'body.name', 'body.temperature']);
  });
});

describe('the admin API: secrets', () => {
  it('stores values write-only: listed by name and site, never shown, never echoed by a 422', async () => {
    const value = 'S3cret-value-never-shown';
    const saved = await h.relay.api<SecretInfo>('PUT', '/v1/console/secrets/shop-password', {
      body: { value, host_pattern: 'Shop.Example' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ name: 'shop-password', host_pattern: 'shop.example' });
    const listed = await h.relay.api<SecretsResponse>('GET', '/v1/console/secrets');
    expect(listed.body.secrets.map((s) => s.name)).toContain('shop-password');
    expect(JSON.stringify(listed.body)).not.toContain(value);
    expect(JSON.stringify(saved.body)).not.toContain(value);

    const tooShort = await h.relay.api('PUT', '/v1/console/secrets/pin', { body: { value: 'abc' } });
    expect(tooShort.status).toBe(422);
    expect(tooShort.body.detail).toEqual([expect.not.objectContaining({ input: expect.anything() })]);
    const badName = await h.relay.api('PUT', '/v1/console/secrets/has%20space', { body: { value } });
    expect(badName.status).toBe(422);

    // A cmd naming it is accepted; after it is deleted the same cmd is refused before anything runs.
    const other = await otherKey('secrets-other@example.com');
    expect((await h.relay.api('DELETE', '/v1/console/secrets/shop-password', { key: other })).status).toBe(404);
    expect((await h.relay.api('DELETE', '/v1/console/secrets/shop-password')).body).toEqual({
      id: 'shop-password',
      removed: true,
    });
    const refused = await h.relay.api('POST', '/v1/web/browse', {
      body: { cmd: 'log in with <secret:shop-password>', url: `${h.site.url}/login.html` },
    });
    expect(refused.status).toBe(400);
  });
});

describe('the admin API: skills and guardrails', () => {
  it('edits and disables a skill: a disabled one is kept but no longer read', async () => {
    const added = await h.relay.api<SkillInfo>('POST', '/v1/console/skills', {
      body: { host_pattern: 'docs.example', rule: 'Read the whole page.' },
    });
    expect(added.body).toMatchObject({ enabled: true });
    const preview = async () =>
      (
        await h.relay.api<SkillPreviewResponse>('POST', '/v1/console/skills/preview', {
          body: { url: 'https://docs.example/a' },
        })
      ).body.skills.map((s) => s.rule);
    expect(await preview()).toContain('Read the whole page.');
    const edited = await h.relay.api<SkillInfo>('PATCH', `/v1/console/skills/${added.body.id}`, {
      body: { rule: 'Read the summary only.' },
    });
    expect(edited.body).toMatchObject({ rule: 'Read the summary only.', host_pattern: 'docs.example', enabled: true });
    expect(await preview()).toEqual(['Read the summary only.']);
    await h.relay.api('PATCH', `/v1/console/skills/${added.body.id}`, { body: { enabled: false } });
    expect(await preview()).toEqual([]);
    const other = await otherKey('skills-other@example.com');
    expect(
      (await h.relay.api('PATCH', `/v1/console/skills/${added.body.id}`, { key: other, body: { enabled: true } }))
        .status,
    ).toBe(404);
    expect(await preview()).toEqual([]);
  });

  it('sets guardrails the next session obeys, and says uploads are blocked', async () => {
    const other = await otherKey('guard@example.com');
    const set = await h.relay.api<GuardrailsResponse>('PUT', '/v1/console/guardrails', {
      key: other,
      body: { blocked_hosts: ['127.0.0.1', '127.0.0.1'], allowed_hosts: [] },
    });
    expect(set.body).toEqual({ blocked_hosts: ['127.0.0.1'], allowed_hosts: [], file_uploads: 'blocked' });
    expect((await h.relay.api('GET', '/v1/console/guardrails', { key: other })).body).toEqual(set.body);
    const refused = await h.relay.api('POST', '/v1/web/session', { key: other, body: { url: `${h.site.url}/` } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/guardrails/);
    // Not the test account's: its sessions open as before.
    expect((await h.relay.api('POST', '/v1/web/session', { body: { url: `${h.site.url}/` } })).status).toBe(200);
    const bad = await h.relay.api('PUT', '/v1/console/guardrails', {
      key: other,
      body: { blocked_hosts: ['not a host/path'], allowed_hosts: [] },
    });
    expect(bad.status).toBe(422);
  });
});

describe('the admin API: devices and pairing', () => {
  it('makes a one-time pairing code the extension sign-in accepts once', async () => {
    const made = await h.relay.api<PairingCode>('POST', '/v1/console/devices/pairing-codes');
    expect(made.status).toBe(201);
    expect(made.body.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const signIn = () =>
      h.relay.api('POST', '/v1/extension/token', { key: null, body: { pairing_code: made.body.code } });
    expect((await signIn()).status).toBe(201);
    expect((await signIn()).status).toBe(401);
  });
});

describe('the admin API: usage', () => {
  it('counts steps, tokens and retrieve calls per day and per API key, with the quota', async () => {
    const second = await h.relay.api<{ key: string; id: string }>('POST', '/v1/console/api-keys', {
      body: { name: 'retrieve script' },
    });
    const before = (await h.relay.api<UsageResponse>('GET', '/v1/console/usage?days=1')).body;
    h.model.script(decision([{ action: 'done', message: 'Done.' }]));
    expect(
      (await h.relay.api('POST', '/v1/web/browse', { body: { cmd: 'finish', url: `${h.site.url}/index.html` } }))
        .status,
    ).toBe(200);
    const retrieved = await h.relay.api('POST', '/v1/web/retrieve', {
      key: second.body.key,
      body: { cmd: 'the rows', url: `${h.site.url}/retrieve/table.html`, mode: 'ludicrous' },
    });
    expect(retrieved.status).toBe(200);

    const usage = await h.relay.api<UsageResponse>('GET', '/v1/console/usage?days=1');
    expect(usage.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(usage.body).toMatchObject({ from: today, to: today });
    expect(usage.body.days).toHaveLength(1);
    expect(usage.body.totals.steps).toBe(before.totals.steps + 1);
    expect(usage.body.totals.retrieve_calls).toBe(before.totals.retrieve_calls + 1);
    expect(usage.body.totals.prompt_tokens).toBe(before.totals.prompt_tokens + 1000);
    const byKey = new Map(usage.body.keys.map((k) => [k.key_id, k]));
    expect(byKey.get(second.body.id)).toMatchObject({
      name: 'retrieve script',
      steps: 0,
      retrieve_calls: 1,
      revoked: false,
    });
    const testKey = usage.body.keys.find((k) => k.name.startsWith('bootstrap key'));
    expect(testKey?.steps).toBeGreaterThanOrEqual(1);
    expect(usage.body.quota).toMatchObject({ monthly_steps: null, used: expect.any(Number) });
    expect(Date.parse(usage.body.quota.resets_at)).toBeGreaterThan(Date.now());

    expect((await h.relay.api('GET', '/v1/console/usage?days=0')).status).toBe(422);
    expect((await h.relay.api('GET', '/v1/console/usage?days=abc')).status).toBe(422);
    expect((await h.relay.api<UsageResponse>('GET', '/v1/console/usage')).body.days).toHaveLength(30);
  });
});

describe('the admin API: sessions', () => {
  it("lists live sessions and closes one; another account's are invisible and unreachable", async () => {
    const id = await h.createSession('/form.html');
    const listed = await h.relay.api<ConsoleSessionsResponse>('GET', '/v1/console/sessions');
    expect(listed.body.sessions[0]).toMatchObject({
      session_id: id,
      state: 'idle',
      local: false,
      url: `${h.site.url}/form.html`,
      steps: 0,
    });
    const other = await otherKey('sessions-other@example.com');
    expect((await h.relay.api<ConsoleSessionsResponse>('GET', '/v1/console/sessions', { key: other })).body).toEqual({
      sessions: [],
    });
    expect((await h.relay.api('DELETE', `/v1/console/sessions/${id}`, { key: other })).status).toBe(404);
    expect((await h.relay.api('DELETE', `/v1/console/sessions/${id}`)).body).toEqual({
      status: 'closed',
      session_id: id,
    });
    expect((await h.relay.api('POST', `/v1/web/session/${id}`, { body: { cmd: 'x', stream: false } })).status).toBe(
      404,
    );
    const after = await h.relay.api<ConsoleSessionsResponse>('GET', '/v1/console/sessions');
    expect(after.body.sessions.find((s) => s.session_id === id)).toMatchObject({
      state: 'ended',
      end_reason: 'closed',
      ended_at: expect.any(String),
    });
  });
});
