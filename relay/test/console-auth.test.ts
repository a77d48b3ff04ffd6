import type { AccountsResponse, CreatedAccount, MeResponse, PasswordReset } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleClient, consoleSignIn } from './console-client';
import { memoryLogger, startTestRelay, type TestRelay } from './support';

const NEW_PASSWORD = 'a new Passw0rd for the admin';
let relay: TestRelay;
let admin: ConsoleClient;
const log = memoryLogger();

beforeAll(async () => {
  relay = await startTestRelay({}, { logger: log.logger });
  const first = relay.firstStart;
  if (!first) throw new Error('the test relay made no first account');
  // The first-start password is a first-run one: sign in, then change it.
  const signedIn = await consoleSignIn(relay.url, first.email, first.password);
  if (!signedIn.client) throw new Error(`first sign-in failed: ${JSON.stringify(signedIn.response.body)}`);
  const changed = await signedIn.client.call('POST', '/v1/console/me/password', {
    body: { current_password: first.password, new_password: NEW_PASSWORD },
  });
  if (changed.status !== 200) throw new Error(`password change failed: ${JSON.stringify(changed.body)}`);
  admin = signedIn.client;
});
afterAll(async () => {
  await relay?.close();
});

describe('console sign-in', () => {
  it('sets an HttpOnly, SameSite=Lax cookie that the admin API takes instead of a key', async () => {
    const { response, setCookie, client } = await consoleSignIn(relay.url, 'ADMIN@localhost', NEW_PASSWORD);
    expect(response.status).toBe(200);
    expect(response.body.account).toMatchObject({
      email: 'admin@localhost',
      role: 'admin',
      must_change_password: false,
    });
    expect(setCookie).toMatch(/^tandem_console=tdc_\w+;/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).not.toMatch(/Secure/); // plain http on loopback: a Secure cookie would never come back
    const me = await client?.call<MeResponse>('GET', '/v1/console/me');
    expect(me?.body).toMatchObject({ via: 'cookie', csrf_token: response.body.csrf_token, signup_allowed: false });
    // The cookie is for the console: the agent API still wants a key.
    const web = await fetch(`${relay.url}/v1/web/sessions`, { headers: { cookie: client?.cookie ?? '' } });
    expect(web.status).toBe(401);
    // Signed out, the cookie is worth nothing.
    const out = await client?.call('POST', '/v1/console/auth/sign-out');
    expect(out?.body).toEqual({ signed_out: true });
    expect(out?.headers.get('set-cookie')).toMatch(/tandem_console=;/);
    expect((await client?.call('GET', '/v1/console/me'))?.status).toBe(401);
  });

  it('refuses a wrong password without saying which part was wrong, and never logs or echoes it', async () => {
    const wrong = await consoleSignIn(relay.url, 'admin@localhost', 'not the password at all');
    expect(wrong.response.status).toBe(401);
    expect(wrong.response.body).toMatchObject({ message: 'Wrong email or password.' });
    const nobody = await consoleSignIn(relay.url, 'nobody@example.com', 'not the password at all');
    expect(nobody.response.body).toMatchObject({ message: 'Wrong email or password.' });
    const bad = await relay.api('POST', '/v1/console/auth/sign-in', {
      key: null,
      body: { email: 'admin@localhost', password: 'x'.repeat(500) },
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).not.toContain('xxxxxxxxxx');
    expect(JSON.stringify(log.lines)).not.toContain('not the password at all');
    expect(log.lines.some((l) => l.msg === 'console sign-in failed' && l.email === 'nobody@example.com')).toBe(true);
  });

  it('limits failed sign-ins per account: past 5 free tries, a wait (429 with Retry-After) even for the right password', async () => {
    const email = 'limited@example.com';
    await relay.services.store.accounts.create(email, 'the right password 123');
    for (let i = 0; i < 6; i++) {
      expect((await consoleSignIn(relay.url, email, `wrong ${i} xxxxxxx`)).response.status).toBe(401);
    }
    const blocked = await consoleSignIn(relay.url, email, 'the right password 123');
    expect(blocked.response.status).toBe(429);
    expect(Number(blocked.response.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('CSRF protection', () => {
  it('refuses a change made with the cookie but without the token, with a wrong one, or from another site', async () => {
    const body = { host_pattern: 'csrf.example', rule: 'Never submit forms.' };
    const without = await admin.call('POST', '/v1/console/skills', { body, csrf: null });
    expect(without.status).toBe(403);
    expect(without.body.message).toMatch(/X-CSRF-Token/);
    expect((await admin.call('POST', '/v1/console/skills', { body, csrf: 'x'.repeat(22) })).status).toBe(403);
    const foreign = await admin.call('POST', '/v1/console/skills', {
      body,
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toMatch(/another site/);
    // A form post from another page: urlencoded, no token.
    const form = await fetch(`${relay.url}/v1/console/api-keys`, {
      method: 'POST',
      headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=stolen',
    });
    expect(form.status).toBe(403);
    // Nothing was made by any of them; reading needs no token, and the right token works.
    const skills = await admin.call<{ skills: { host_pattern: string }[] }>('GET', '/v1/console/skills', {
      csrf: null,
    });
    expect(skills.body.skills.map((s) => s.host_pattern)).not.toContain('csrf.example');
    expect((await admin.call('POST', '/v1/console/skills', { body })).status).toBe(201);
  });
});

describe('signing in from another site', () => {
  it("is refused: a page elsewhere cannot sign a visitor in to an account of the page's choosing", async () => {
    // A text/plain form can carry a JSON body; the browser names the page's origin.
    const res = await fetch(`${relay.url}/v1/console/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
      body: JSON.stringify({ email: 'admin@localhost', password: NEW_PASSWORD }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('set-cookie')).toBeNull();
    // The same request from the relay's own page signs in.
    const own = await fetch(`${relay.url}/v1/console/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: relay.url },
      body: JSON.stringify({ email: 'admin@localhost', password: NEW_PASSWORD }),
    });
    expect(own.status).toBe(200);
  });
});

describe('first-run and made passwords', () => {
  it('lets a password made for an account do nothing in the console but change it; API keys are not held back', async () => {
    const made = await admin.call<CreatedAccount>('POST', '/v1/console/accounts', {
      body: { email: ' New.Member@Example.com ' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.account).toMatchObject({
      email: 'new.member@example.com',
      role: 'member',
      must_change_password: true,
    });
    const password = made.body.password ?? '';
    expect(password.length).toBeGreaterThanOrEqual(16);

    const { client } = await consoleSignIn(relay.url, 'new.member@example.com', password);
    if (!client) throw new Error('sign-in with the made password failed');
    expect((await client.call('GET', '/v1/console/me')).status).toBe(200);
    const held = await client.call('GET', '/v1/console/api-keys');
    expect(held.status).toBe(403);
    expect(held.body.message).toMatch(/change it first/);
    const tooShort = await client.call('POST', '/v1/console/me/password', {
      body: { current_password: password, new_password: 'short' },
    });
    expect(tooShort.status).toBe(422);
    expect(JSON.stringify(tooShort.body)).not.toContain(password);
    const wrongCurrent = await client.call('POST', '/v1/console/me/password', {
      body: { current_password: 'not it at all', new_password: 'member password 2026' },
    });
    expect(wrongCurrent.status).toBe(400);
    const changed = await client.call<{ account: { must_change_password: boolean } }>(
      'POST',
      '/v1/console/me/password',
      { body: { current_password: password, new_password: 'member password 2026' } },
    );
    expect(changed.body.account.must_change_password).toBe(false);
    expect((await client.call('GET', '/v1/console/api-keys')).status).toBe(200);
    // The made password is gone.
    expect((await consoleSignIn(relay.url, 'new.member@example.com', password)).response.status).toBe(401);
  });
});

describe('accounts and roles', () => {
  it('keeps the accounts list and changes to admins; members get 403', async () => {
    const made = await admin.call<CreatedAccount>('POST', '/v1/console/accounts', {
      body: { email: 'role@example.com', password: 'given password 1234' },
    });
    expect(made.body.password).toBeUndefined(); // given, so not shown
    const id = made.body.account.id;
    const key = (await relay.services.store.apiKeys.create(id, 'member key')).key;
    expect((await relay.api('GET', '/v1/console/accounts', { key })).status).toBe(403);
    expect((await relay.api('POST', '/v1/console/accounts', { key, body: { email: 'x@example.com' } })).status).toBe(
      403,
    );
    const listed = await relay.api<AccountsResponse>('GET', '/v1/console/accounts');
    expect(listed.body.accounts.find((a) => a.id === id)).toMatchObject({
      role: 'member',
      monthly_step_quota: null,
      steps_this_month: 0,
    });

    const dup = await admin.call('POST', '/v1/console/accounts', { body: { email: 'ROLE@example.com' } });
    expect(dup.status).toBe(409);

    const promoted = await admin.call('PATCH', `/v1/console/accounts/${id}`, {
      body: { role: 'admin', monthly_step_quota: 1000 },
    });
    expect(promoted.body).toMatchObject({ role: 'admin', monthly_step_quota: 1000 });
    expect((await relay.api('GET', '/v1/console/accounts', { key })).status).toBe(200);
    const lifted = await relay.api('PATCH', `/v1/console/accounts/${id}`, { body: { monthly_step_quota: null } });
    expect(lifted.body).toMatchObject({ monthly_step_quota: null });

    const reset = await admin.call<PasswordReset>('POST', `/v1/console/accounts/${id}/password`);
    expect(reset.body.account.must_change_password).toBe(true);
    expect((await consoleSignIn(relay.url, 'role@example.com', 'given password 1234')).response.status).toBe(401);
    expect((await consoleSignIn(relay.url, 'role@example.com', reset.body.password)).response.status).toBe(200);

    // Deleted: its key stops working at once, and so does everything it owned.
    expect((await admin.call('DELETE', `/v1/console/accounts/${id}`)).body).toEqual({ id, removed: true });
    expect((await relay.api('GET', '/v1/console/me', { key })).status).toBe(401);
    expect((await admin.call('DELETE', `/v1/console/accounts/${id}`)).status).toBe(404);
  });

  it('never leaves the relay without an admin, and an admin cannot delete itself', async () => {
    const me = await admin.call<MeResponse>('GET', '/v1/console/me');
    const self = me.body.account.id;
    const demote = await admin.call('PATCH', `/v1/console/accounts/${self}`, { body: { role: 'member' } });
    expect(demote.status).toBe(400);
    expect(demote.body.message).toMatch(/last admin/);
    const remove = await admin.call('DELETE', `/v1/console/accounts/${self}`);
    expect(remove.status).toBe(400);
    expect((await admin.call('PATCH', '/v1/console/accounts/acc_nosuch', { body: { role: 'member' } })).status).toBe(
      404,
    );
  });
});

describe('sign-up', () => {
  it('is off by default (403) and, with TANDEM_ALLOW_SIGNUP, makes a member and signs it in', async () => {
    const off = await relay.api('POST', '/v1/console/auth/sign-up', {
      key: null,
      body: { email: 'self@example.com', password: 'my own password 1' },
    });
    expect(off.status).toBe(403);
    expect((await relay.api('GET', '/v1/console/auth', { key: null })).body).toEqual({ signup_allowed: false });

    const open = await startTestRelay({ TANDEM_ALLOW_SIGNUP: true });
    try {
      expect((await open.api('GET', '/v1/console/auth', { key: null })).body).toEqual({ signup_allowed: true });
      const res = await fetch(`${open.url}/v1/console/auth/sign-up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'self@example.com', password: 'my own password 1' }),
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('set-cookie')).toMatch(/^tandem_console=/);
      expect(await res.json()).toMatchObject({ account: { role: 'member', must_change_password: false } });
      const again = await open.api('POST', '/v1/console/auth/sign-up', {
        key: null,
        body: { email: 'SELF@example.com', password: 'my own password 1' },
      });
      expect(again.status).toBe(409);
    } finally {
      await open.close();
    }
  });
});
