import { type FixtureSite, type ForwardProxy, startFixtureSite, startForwardProxy } from '@tandem/e2e/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from './support';

let site: FixtureSite;
let proxies: ForwardProxy[];
let relay: TestRelay;
/** shop.test exists only behind the proxies: a page from it proves the traffic went through one. */
let shop: string;

beforeAll(async () => {
  site = await startFixtureSite();
  const port = new URL(site.url).port;
  shop = `http://shop.test:${port}`;
  proxies = await Promise.all(
    [0, 1].map(() => startForwardProxy({ password: 'secret', hosts: { 'shop.test': '127.0.0.1' } })),
  );
  relay = await startTestRelay({
    TANDEM_PROXY_URLS: proxies.map((p) => `http://customer-{session}:secret@127.0.0.1:${p.port}`).join(', '),
  });
});
afterAll(async () => {
  await relay?.close();
  await Promise.all([site?.close(), ...(proxies ?? []).map((p) => p.close())]);
});

/** What reached the site through a proxy tunnel opened as this session (the egress proxy tunnels everything). */
const tunnelsOf = (id: string) =>
  proxies.flatMap((p) => p.seen).filter((r) => r.username === `customer-${id.replaceAll('_', '')}`);

describe('use_proxy', () => {
  it("sends a session's traffic through a proxy with credentials and the session id in the username", async () => {
    const res = await relay.api('POST', '/v1/web/session', { body: { url: `${shop}/form.html`, use_proxy: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.url).toBe(`${shop}/form.html`);
    expect(res.body.message).toContain('Form');
    const id = res.body.session_id as string;
    // The relay's egress proxy opens a tunnel through the session's proxy for each connection.
    const tunnels = tunnelsOf(id);
    expect(tunnels.length).toBeGreaterThan(0);
    for (const tunnel of tunnels) expect(tunnel).toMatchObject({ method: 'CONNECT', target: new URL(shop).host });
    expect(site.requests).toContain('GET /form.html');
    await relay.api('DELETE', `/v1/web/session/${id}`);
  });

  it('runs a browse call through the proxy, every page the agent opens included', async () => {
    const res = await relay.api('POST', '/v1/web/browse', {
      body: { url: `${shop}/form.html?via=browse`, cmd: `open ${shop}/search.html?via=browse`, use_proxy: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status, String(res.body.message)).toBe('DONE');
    expect(res.body.url).toBe(`${shop}/search.html?via=browse`);
    const id = res.body.session_id as string;
    // shop.test resolves only behind the proxies: both pages came through this session's tunnels.
    expect(site.requests).toEqual(expect.arrayContaining(['GET /form.html?via=browse', 'GET /search.html?via=browse']));
    expect(tunnelsOf(id).length).toBeGreaterThanOrEqual(2);
    await relay.api('DELETE', `/v1/web/session/${id}`);
  });

  it('applies the proxy to that session only', async () => {
    const proxied = await relay.api('POST', '/v1/web/session', {
      body: { url: `${shop}/?via=proxy`, use_proxy: true },
    });
    expect(proxied.status).toBe(200);
    const direct = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/form.html?via=direct` } });
    expect(direct.status).toBe(200);
    // Without the proxy shop.test does not resolve.
    const unreachable = await relay.api('POST', '/v1/web/session', { body: { url: `${shop}/?via=direct` } });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.message).toMatch(/could not be resolved/);
    expect(tunnelsOf(String(proxied.body.session_id)).length).toBeGreaterThan(0);
    // The unproxied sessions' connections (to 127.0.0.1, or shop.test unresolved) never reached a proxy.
    const port = new URL(site.url).port;
    const targets = proxies.flatMap((p) => p.seen.map((r) => r.target));
    expect(targets.filter((t) => t.includes(`:${port}`) && !t.startsWith('shop.test:'))).toEqual([]);
    expect(tunnelsOf(String(direct.body.session_id))).toEqual([]);
    await relay.services.sessions.closeAll();
  });

  it('takes the configured proxies round-robin', async () => {
    const counts = () => proxies.map((p) => p.seen.filter((r) => r.username).length);
    const start = counts();
    for (let i = 0; i < 4; i++) {
      const res = await relay.api('POST', '/v1/web/session', {
        body: { url: `${shop}/form.html?i=${i}`, use_proxy: true },
      });
      expect(res.status).toBe(200);
    }
    const used = counts().map((n, i) => n - (start[i] ?? 0));
    expect(used[0]).toBeGreaterThanOrEqual(2);
    expect(used[1]).toBeGreaterThanOrEqual(2);
    await relay.services.sessions.closeAll();
  });
});
