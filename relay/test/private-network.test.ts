import type { Action } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserDriver } from '../src/browser/driver';
import { type Connect, systemConnect } from '../src/network/dial';
import { type Resolver, systemResolver } from '../src/network/network-guard';
import { ADDRESS_FORMS, bareHost, PUBLIC_IP } from './address-forms';
import { type Intranet, startIntranet } from './intranet';
import { startTestRelay, type TestRelay } from './support';

/**
 * Real Chromium, real relay, guard on (TANDEM_ALLOW_PRIVATE_NETWORK=false) and, as the control, off.
 * The network is played by an injected resolver and connect: public.test resolves to a public
 * address, and that address, like the forms only a network could route (metadata, LAN, NAT64), is
 * routed to the loopback intranet server. What refuses a request is therefore the guard, nothing else.
 */
let intranet: Intranet;
let guarded: TestRelay;
let open: TestRelay;
const dialed: string[] = [];
let rebinds = 0;

const ROUTED = new Set([
  ...ADDRESS_FORMS.filter((f) => f.reach === 'routed').map((f) => bareHost(f.host)),
  PUBLIC_IP,
  // With the guard off names are not resolved by the relay: the network gets them as they are.
  'public.test',
  'secure.localhost',
]);
const resolve: Resolver = async (host) => {
  if (host === 'public.test') return [PUBLIC_IP];
  if (host === 'secure.localhost') return ['127.0.0.1'];
  // A rebinding name server: public for the first question, loopback after.
  if (host === 'rebind.test') return [rebinds++ === 0 ? PUBLIC_IP : '127.0.0.1'];
  if (host === 'nowhere.test') throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
  return systemResolver(host);
};
const connect: Connect = (host, port) => {
  dialed.push(host);
  return systemConnect(ROUTED.has(host) ? '127.0.0.1' : host, port);
};

beforeAll(async () => {
  intranet = await startIntranet();
  const network = { resolve, connect };
  // secure.localhost: a page in a secure context (service workers need one), allowed by name.
  guarded = await startTestRelay(
    { TANDEM_ALLOW_PRIVATE_NETWORK: false, TANDEM_ALLOW_HOSTS: 'secure.localhost' },
    { network },
  );
  open = await startTestRelay({ TANDEM_ALLOW_PRIVATE_NETWORK: true }, { network });
});
afterAll(async () => {
  await Promise.all([guarded?.close(), open?.close()]);
  await intranet?.close();
});

const secret = (host: string, tag: string) => `http://${host}:${intranet.port}/secret?${tag}`;
const hitFor = (tag: string) => intranet.hits.find((hit) => hit.endsWith(`?${tag}`));

async function session(relay: TestRelay, url: string): Promise<BrowserDriver> {
  const created = await relay.api('POST', '/v1/web/session', { body: { url } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const account = (await relay.services.store.accounts.first())!;
  return relay.services.sessions.get(account.id, String(created.body.session_id)).driver;
}

async function click(driver: BrowserDriver, name: string) {
  const snapshot = await driver.snapshot();
  const element = snapshot.elements.find((e) => e.name === name || e.text === name);
  if (!element) throw new Error(`no element "${name}" in ${snapshot.text}`);
  return driver.act({ action: 'click', index: element.index, double: false } as Action);
}

async function textOf(driver: BrowserDriver): Promise<string> {
  return (await driver.snapshot()).text;
}

describe('every address form, asked for by the client and loaded by the browser', () => {
  let guardedTab: BrowserDriver;
  let openTab: BrowserDriver;
  beforeAll(async () => {
    guardedTab = await session(guarded, `http://public.test:${intranet.port}/public.html`);
    openTab = await session(open, `http://public.test:${intranet.port}/public.html`);
  });

  it.each(ADDRESS_FORMS)('refuses $name ($host); unguarded, the browser reaches the server', async (form) => {
    const tag = `form=${encodeURIComponent(form.name)}`;
    // The client's URL: refused up front with the reason.
    const created = await guarded.api('POST', '/v1/web/session', { body: { url: secret(form.host, `${tag}&api`) } });
    expect(created.status).toBe(400);
    expect(created.body.message).toMatch(form.reason);
    expect(created.body.message).toMatch(/TANDEM_ALLOW_HOSTS/);
    // The browser's load (no up-front check on this path): the egress proxy refuses it.
    await expect(guardedTab.navigate(secret(form.host, `${tag}&browser`))).rejects.toThrow(form.reason);
    expect(hitFor(`${tag}&browser`)).toBeUndefined();
    // The control: the same load with the guard off reaches the internal server.
    await openTab.navigate(secret(form.host, `${tag}&control`));
    expect(hitFor(`${tag}&control`)).toBe(`GET /secret?${tag}&control`);
  });
});

describe('what a public page leads to', () => {
  const target = () => secret('127.0.0.1', 'from-page');
  const publicPage = (target: string, ws = `ws://[::ffff:7f00:1]:${intranet.port}/socket?from-page`) =>
    `http://public.test:${intranet.port}/public.html?target=${encodeURIComponent(target)}&ws=${encodeURIComponent(ws)}`;

  it('refuses a fetch and a WebSocket; unguarded both get through', async () => {
    const tab = await session(guarded, publicPage(target()));
    await click(tab, 'Fetch it');
    await click(tab, 'Open a socket');
    await expect.poll(() => textOf(tab)).toMatch(/fetch: refused[\s\S]*socket: failed/);
    expect(intranet.hits.filter((h) => h.includes('from-page'))).toEqual([]);

    const control = await session(open, publicPage(target()));
    await click(control, 'Fetch it');
    await click(control, 'Open a socket');
    await expect.poll(() => textOf(control)).toMatch(/fetch: reached[\s\S]*socket: open/);
    expect(intranet.hits).toEqual(expect.arrayContaining(['GET /secret?from-page', 'WS /socket?from-page']));
  });

  it.each([
    ['a followed link', 'Internal admin', 'GET'],
    ['a form post', 'Send the form', 'POST'],
  ])('refuses %s, keeps the tab where it was and tells the agent why', async (_what, name, method) => {
    const tag = `${method}-action`;
    const page = publicPage(secret('[::ffff:127.0.0.1]', tag));
    const tab = await session(guarded, page);
    const result = await click(tab, name);
    expect(result).toMatchObject({
      code: 'invalid_target',
      message: expect.stringMatching(
        /It led to http:\/\/\[::ffff:7f00:1\]:\d+\/secret\?.*, which was not opened: \[::ffff:7f00:1\] is the IPv4-mapped form of 127\.0\.0\.1, a loopback address, and this relay keeps remote sessions out of private networks.*TANDEM_ALLOW_HOSTS.*Still at http:\/\/public\.test/,
      ),
    });
    expect(tab.url()).toBe(page);
    expect(hitFor(tag)).toBeUndefined();

    const control = await session(open, page);
    await click(control, name);
    await expect.poll(() => hitFor(tag)).toBe(`${method} /secret?${tag}`);
  });

  it('refuses where a redirect leads, for the client and for the agent', async () => {
    const redirect = `http://public.test:${intranet.port}/redirect?to=${encodeURIComponent(secret('10.0.0.1', 'redirected'))}`;
    const created = await guarded.api('POST', '/v1/web/session', { body: { url: redirect } });
    expect(created.status).toBe(400);
    expect(created.body.message).toMatch(
      /^http:\/\/public\.test:\d+\/redirect\?to=.* was not opened: it led to http:\/\/10\.0\.0\.1:\d+\/secret\?redirected: 10\.0\.0\.1 is a private address/,
    );
    const tab = await session(guarded, publicPage(redirect));
    expect(await click(tab, 'Internal admin')).toMatchObject({
      code: 'invalid_target',
      message: expect.stringMatching(/It led to http:\/\/10\.0\.0\.1:\d+\/secret\?redirected, which was not opened/),
    });
    expect(hitFor('redirected')).toBeUndefined();
    await session(open, redirect);
    expect(hitFor('redirected')).toBe('GET /secret?redirected');
  });

  it('refuses a service worker’s fetch, with service workers on; unguarded it gets through', async () => {
    const page = (tag: string) =>
      `http://secure.localhost:${intranet.port}/worker.html?target=${encodeURIComponent(secret('127.0.0.1', tag))}`;
    const tab = await session(guarded, page('worker'));
    await expect.poll(() => textOf(tab), { timeout: 15_000 }).toMatch(/worker: refused/);
    expect(hitFor('worker')).toBeUndefined();
    const control = await session(open, page('worker-control'));
    await expect.poll(() => textOf(control), { timeout: 15_000 }).toMatch(/worker: reached/);
    expect(hitFor('worker-control')).toBe('GET /secret?worker-control');
  });
});

describe('names', () => {
  it('resolves once and connects to what it checked: a rebinding name gets nowhere', async () => {
    rebinds = 0;
    // The up-front check hears the public answer; the proxy, asking again, hears loopback and refuses.
    const created = await guarded.api('POST', '/v1/web/session', { body: { url: secret('rebind.test', 'rebind') } });
    expect(created.status).toBe(400);
    expect(created.body.message).toMatch(/rebind\.test resolves to 127\.0\.0\.1, a loopback address/);
    expect(rebinds).toBeGreaterThanOrEqual(2); // Chromium retries a load whose connection closed unanswered
    expect(hitFor('rebind')).toBeUndefined();
  });

  it('refuses a name that does not resolve, up front and from a page', async () => {
    const created = await guarded.api('POST', '/v1/web/session', { body: { url: 'http://nowhere.test/' } });
    expect(created.status).toBe(400);
    expect(created.body.message).toBe(
      'Could not open http://nowhere.test/: the host name nowhere.test could not be resolved. Check that the URL is right and the site is reachable from the relay.',
    );
    const tab = await session(
      guarded,
      `http://public.test:${intranet.port}/public.html?target=${encodeURIComponent('http://nowhere.test/x')}`,
    );
    expect(await click(tab, 'Internal admin')).toMatchObject({
      code: 'invalid_target',
      message: expect.stringMatching(
        /It led to http:\/\/nowhere\.test\/x, which could not be opened: the host name nowhere\.test could not be resolved\. Still at http:\/\/public\.test/,
      ),
    });
    expect(dialed).not.toContain('nowhere.test');
  });
});
