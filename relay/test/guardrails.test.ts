import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import type { Action } from '@tandem/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runRelayCli } from './relay-process';
import { startTestRelay, type TestRelay } from './support';

let site: FixtureSite;
let relay: TestRelay;
let accountId: string;
/** The fixture site under a second name: the same pages, another host for the guardrails. */
let elsewhere: string;

beforeAll(async () => {
  site = await startFixtureSite();
  elsewhere = site.url.replace('127.0.0.1', 'localhost');
  relay = await startTestRelay();
  accountId = (await relay.services.store.apiKeys.resolve(relay.key))?.accountId as string;
});
afterEach(async () => {
  await relay.services.store.guardrails.set(accountId, { blockedHosts: [], allowedHosts: [] });
  await relay.services.sessions.closeAll();
});
afterAll(async () => {
  await relay?.close();
  await site?.close();
});

const create = (url: string, key?: string) =>
  relay.api<{ session_id: string; message: string }>('POST', '/v1/web/session', {
    body: { url },
    ...(key ? { key } : {}),
  });
const driverOf = (id: string) => relay.services.sessions.get(accountId, id).driver;

describe("an account's guardrails", () => {
  it('refuse a blocked host on create, on navigate, after a redirect and after a click, whatever the page does', async () => {
    await relay.services.store.guardrails.set(accountId, { blockedHosts: ['localhost'], allowedHosts: [] });
    // The same host in an address form that dodges a plain comparison: refused too.
    await relay.services.store.guardrails.set(accountId, {
      blockedHosts: ['localhost', '127.0.0.1'],
      allowedHosts: [],
    });
    const mapped = await create(`${site.url.replace('127.0.0.1', '[::ffff:127.0.0.1]')}/form.html`);
    expect(mapped.status, JSON.stringify(mapped.body)).toBe(400);
    expect(mapped.body.message).toMatch(/::ffff:7f00:1 is blocked by this account's guardrails \(127\.0\.0\.1\)/);
    await relay.services.store.guardrails.set(accountId, { blockedHosts: ['localhost'], allowedHosts: [] });

    const refused = await create(`${elsewhere}/form.html`);
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.message).toBe(
      `${elsewhere}/form.html was not opened: localhost is blocked by this account's guardrails (localhost). The account's guardrails are on the console's Skills page (or PUT /v1/console/guardrails).`,
    );

    const created = await create(`${site.url}/link?href=${encodeURIComponent(`${elsewhere}/form.html`)}`);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const driver = driverOf(created.body.session_id);
    await expect(driver.act({ action: 'navigate', url: `${elsewhere}/form.html` } as Action)).rejects.toThrow(
      /blocked by this account's guardrails/,
    );

    // A redirect to the blocked host: the egress proxy refuses the connection itself.
    await expect(
      driver.navigate(`${site.url}/redirect?to=${encodeURIComponent(`${elsewhere}/form.html`)}`),
    ).rejects.toThrow(/blocked by this account's guardrails/);

    const linked = await create(`${site.url}/link?href=${encodeURIComponent(`${elsewhere}/form.html`)}`);
    const page = driverOf(linked.body.session_id);
    const link = (await page.snapshot()).elements.find((e) => e.text === 'Follow the link');
    const clicked = await page.act({ action: 'click', index: link?.index ?? -1, double: false } as Action);
    expect(clicked.code).toBe('invalid_target');
    expect(clicked.message).toMatch(/which was not opened: localhost is blocked by this account's guardrails/);
    expect(page.url()).toContain(site.url);
  });

  it('in allowed-hosts-only mode open only those hosts; continuing a session elsewhere is refused; other accounts are not bound', async () => {
    await relay.services.store.guardrails.set(accountId, { blockedHosts: [], allowedHosts: ['127.0.0.1'] });
    expect((await create(`${elsewhere}/form.html`)).body.message).toMatch(
      /localhost is not one of the hosts this account's guardrails allow \(127\.0\.0\.1\)/,
    );
    const created = await create(`${site.url}/form.html`);
    expect(created.status).toBe(200);
    const moved = await relay.api('POST', `/v1/web/session/${created.body.session_id}`, {
      body: { cmd: 'look', stream: false, url: `${elsewhere}/index.html` },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(400);
    expect(moved.body.message).toMatch(/guardrails allow/);

    const otherKey = await relay.newAccount('free@example.com');
    expect((await create(`${elsewhere}/form.html`, otherKey)).status).toBe(200);
  });

  it('npm run guardrails sets them (the next session obeys), shows them, and refuses what is no host pattern', async () => {
    const run = (...args: string[]) => runRelayCli('guardrails', args, relay);
    expect((await run('block', 'localhost', '*.ads.example')).out).toMatch(
      /blocked hosts: localhost, \*\.ads\.example/,
    );
    expect((await create(`${elsewhere}/form.html`)).status).toBe(400);
    const bad = await run('block', 'http://x/<y>');
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('is not a host pattern');
    expect((await run('unblock', 'localhost')).out).toMatch(/blocked hosts: \*\.ads\.example;/);
    expect((await create(`${elsewhere}/form.html`)).status).toBe(200);
  });
});
