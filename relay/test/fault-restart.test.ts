// A relay restart on the same data directory: what lives in SQLite (accounts, passwords, API keys, skills,
// agents, device tokens) is all there; sessions lived in memory, and their old ids get a 404 that says so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeExtension } from './fake-extension';
import { startTestRelay, type TestRelay } from './support';

let site: FixtureSite;
let dataDir: string;
beforeAll(async () => {
  site = await startFixtureSite();
  dataDir = mkdtempSync(join(tmpdir(), 'tandem-restart-'));
});
afterAll(async () => {
  await site?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The first message the relay sends back to an extension's hello with `token` (welcome, or the close). */
/** What the relay answers an extension's hello with this device token: "welcome", or why it closed. */
async function helloWith(relay: TestRelay, token: string): Promise<string> {
  const fake = await FakeExtension.connect(relay.url, { token, sessions: [] });
  try {
    return await Promise.race([
      fake.welcome.then((message) => String(message.type)),
      fake.closeInfo.then(({ code, reason }) => `closed ${code} ${reason}`),
    ]);
  } finally {
    fake.close();
  }
}

describe('a relay restart', () => {
  it('keeps accounts, keys, skills, agents and devices; old live session ids get a 404 saying the relay stopped', async () => {
    const before = await startTestRelay({}, { dataDir });
    const email = (await before.services.store.accounts.first())!.email;
    const password = before.firstStart!.password;
    const secondKey = await before.newAccount('second@example.com');
    const accountId = (await before.services.store.apiKeys.resolve(before.key))!.accountId;
    await before.services.store.skills.add(accountId, '127.0.0.1', 'Always accept the cookie banner.');
    const agent = await before.services.store.agents.create(accountId, { name: 'Shopper', instructions: 'Be brief.' });
    const device = await before.api('POST', '/v1/extension/token', { body: { name: 'laptop' } });
    expect(device.status).toBe(201);
    expect(await helloWith(before, device.body.token as string)).toBe('welcome');
    const session = await before.api('POST', '/v1/web/session', { body: { url: `${site.url}/form.html` } });
    expect(session.status).toBe(200);
    const oldId = session.body.session_id as string;
    await before.close();

    const after = await startTestRelay({}, { dataDir, databaseUrl: before.databaseUrl });
    try {
      expect(after.firstStart).toBeUndefined(); // the account was not created again
      // Accounts and keys: both accounts' keys work, and the password still signs in.
      expect((await after.api('GET', '/v1/web/sessions')).status).toBe(200);
      expect((await after.api('GET', '/v1/web/sessions', { key: secondKey })).status).toBe(200);
      const signIn = await after.api('POST', '/v1/extension/token', { body: { email, password }, key: null });
      expect(signIn.status, JSON.stringify(signIn.body)).toBe(201);
      // Skills and agents.
      expect(await after.services.store.skills.matching(accountId, `${site.url}/form.html`)).toEqual([
        'Always accept the cookie banner.',
      ]);
      const withAgent = await after.api('POST', '/v1/web/session', {
        body: { url: `${site.url}/form.html`, agent_id: agent.id },
      });
      expect(withAgent.status, JSON.stringify(withAgent.body)).toBe(200);
      // Devices: the token issued before the restart still opens the extension socket.
      expect(await helloWith(after, device.body.token as string)).toBe('welcome');

      // A live session was a browser of the old relay's process: it ended with it, and the store says so.
      const gone = `Session ${oldId} ended when its relay stopped or restarted (a live session is held in the relay process; parked ones come back). Create a new session (POST /v1/web/session) and use its session_id.`;
      for (const [method, path, body] of [
        ['POST', `/v1/web/session/${oldId}`, { cmd: 'scroll down', stream: false }],
        ['GET', `/v1/web/screenshot/${oldId}`, undefined],
        ['DELETE', `/v1/web/session/${oldId}`, undefined],
        ['POST', '/v1/web/browse', { cmd: 'scroll down', session_id: oldId }],
        ['POST', '/v1/web/retrieve', { cmd: 'the form', session_id: oldId, mode: 'ludicrous' }],
      ] as const) {
        const res = await after.api(method, path, { body });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body, `${method} ${path}`).toEqual({ statusCode: 404, error: 'Not Found', message: gone });
      }
      expect((await after.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([withAgent.body.session_id]);
    } finally {
      await after.close();
    }
  });
});
