import { type FixtureSite, type ForwardProxy, startFixtureSite, startForwardProxy } from '@tandem/e2e/fixtures';
import type { Action } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from './support';

let site: FixtureSite;
let proxy: ForwardProxy;
/** A page on a name only the proxy resolves stands for a public site; its links point at loopback. */
let publicPage: string;

beforeAll(async () => {
  site = await startFixtureSite();
  proxy = await startForwardProxy({ hosts: { 'public.test': '127.0.0.1' } });
  publicPage = `http://public.test:${new URL(site.url).port}/private-link.html`;
});
afterAll(async () => {
  await Promise.all([site?.close(), proxy?.close()]);
});

/** Opens the public page in a session and returns what clicking its link and its probe led to. */
async function visit(relay: TestRelay) {
  const created = await relay.api('POST', '/v1/web/session', { body: { url: publicPage, use_proxy: true } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const account = (await relay.services.store.accounts.first())!;
  const session = relay.services.sessions.get(account.id, String(created.body.session_id));
  const snapshot = await session.driver.snapshot();
  const index = (name: string) => snapshot.elements.find((e) => e.name === name)!.index;
  await session.driver.act({ action: 'click', index: index('Probe the internal address'), double: false } as Action);
  await expect.poll(async () => (await session.driver.snapshot()).text).not.toContain('not probed');
  const probe = (await session.driver.snapshot()).text.includes('refused') ? 'refused' : 'reached';
  const click = await session.driver.act({ action: 'click', index: index('Internal admin'), double: false } as Action);
  return { probe, click, url: session.driver.url() };
}

describe('TANDEM_ALLOW_PRIVATE_NETWORK=false', () => {
  it('refuses what a public page leads to on a private address: a followed link and a fetch', async () => {
    const relay = await startTestRelay({
      TANDEM_ALLOW_PRIVATE_NETWORK: false,
      TANDEM_PROXY_URLS: proxy.url,
    });
    try {
      const { probe, click, url } = await visit(relay);
      expect(probe).toBe('refused');
      // The agent hears why, and the tab is back on the page it was on, not on Chromium's error page.
      expect(url).toBe(publicPage);
      expect(click).toMatchObject({
        code: 'invalid_target',
        message: expect.stringMatching(
          /^Clicked .*\[1\]\. It led to http:\/\/127\.0\.0\.1:\d+\/form\.html, which was not opened: 127\.0\.0\.1:\d+ is a private or loopback address, .*TANDEM_ALLOW_PRIVATE_NETWORK.*Still at http:\/\/public\.test/,
        ),
      });
    } finally {
      await relay.close();
    }
  });

  it('is what stops them: with private networks allowed the same page reaches both', async () => {
    const relay = await startTestRelay({ TANDEM_ALLOW_PRIVATE_NETWORK: true, TANDEM_PROXY_URLS: proxy.url });
    try {
      const { probe, url } = await visit(relay);
      expect(probe).toBe('reached');
      expect(url).toBe(`http://127.0.0.1:${new URL(site.url).port}/form.html`);
    } finally {
      await relay.close();
    }
  });
});
