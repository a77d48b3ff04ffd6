import { once } from 'node:events';
import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserServers } from './browser-servers';
import { closedPort, startTestRelay } from './support';

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(() => site?.close());

describe('the relay Chromium', () => {
  it('is replaced after being killed from outside; sessions it held end with a clear message', async () => {
    const relay = await startTestRelay();
    try {
      const first = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/` } });
      const pid = await relay.services.browsers.pid();
      expect(pid).toBeGreaterThan(0);
      process.kill(pid!, 'SIGKILL');

      await expect.poll(async () => (await relay.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([]);
      const old = await relay.api('GET', `/v1/web/screenshot/${first.body.session_id}`);
      expect(old.status).toBe(404);
      expect(old.body.message).toMatch(/browser stopped unexpectedly/);

      const next = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/form.html` } });
      expect(next.status).toBe(200);
      expect(next.body.url).toBe(`${site.url}/form.html`);
      expect(relay.services.browsers.starts).toBe(2);
      expect(await relay.services.browsers.pid()).not.toBe(pid);
    } finally {
      await relay.close();
    }
  });
});

describe('a create right after Chromium died', () => {
  it('succeeds on a new Chromium even before the relay noticed the old one was gone', async () => {
    const relay = await startTestRelay();
    try {
      expect((await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/` } })).status).toBe(200);
      const pid = await relay.services.browsers.pid();
      process.kill(pid!, 'SIGKILL');
      const next = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/form.html` } });
      expect(next.status, JSON.stringify(next.body)).toBe(200);
      expect(next.body.url).toBe(`${site.url}/form.html`);
      expect(await relay.services.browsers.pid()).not.toBe(pid);
    } finally {
      await relay.close();
    }
  });
});

describe('remote browser servers (TANDEM_BROWSER_WS_ENDPOINT, TANDEM_BROWSER_WS_ENDPOINTS)', () => {
  const servers = new BrowserServers();
  const startServer = (port: number, wsPath: string) => servers.start(port, wsPath);
  afterAll(() => servers.stop());

  it('runs sessions on the server and reconnects after the connection drops', async () => {
    const port = await closedPort();
    const endpoint = await startServer(port, '/tandem-test');
    expect(endpoint).toBe(`ws://127.0.0.1:${port}/tandem-test`);
    const relay = await startTestRelay({ TANDEM_BROWSER_WS_ENDPOINT: endpoint });
    try {
      const first = await relay.api('POST', '/v1/web/session', {
        body: { url: `${site.url}/form.html`, include_screenshot: true },
      });
      expect(first.status).toBe(200);
      expect(await relay.services.browsers.pid()).toBeUndefined(); // no local Chromium was launched

      const server = servers.children[0]!;
      server.kill('SIGTERM');
      await once(server, 'exit');
      await expect.poll(async () => (await relay.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([]);

      const whileDown = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/` } });
      expect(whileDown.status).toBe(503);
      // The setting is named, not its value (an endpoint often carries a token).
      expect(whileDown.body.message).toMatch(/the browser server \(TANDEM_BROWSER_WS_ENDPOINT\) could not be reached/);

      await startServer(port, '/tandem-test');
      const again = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/form.html` } });
      expect(again.status).toBe(200);
      expect(relay.services.browsers.starts).toBe(2);
    } finally {
      await relay.close();
    }
  });

  it('spreads sessions over a tier of servers, keeps serving from one when the other stops, and uses it again once back', async () => {
    const [portA, portB] = [await closedPort(), await closedPort()];
    const a = await startServer(portA, '/tier-a');
    const b = await startServer(portB, '/tier-b');
    const serverA = servers.children.at(-2)!;
    const relay = await startTestRelay({ TANDEM_BROWSER_WS_ENDPOINTS: `${a}, ${b}` });
    const create = () => relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/form.html` } });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await create();
        expect(res.status).toBe(200);
        ids.push(res.body.session_id as string);
      }
      expect(relay.services.browsers.load()).toEqual([2, 2]); // least loaded first
      expect(await relay.services.browsers.pid()).toBeUndefined(); // no local Chromium

      serverA.kill('SIGTERM');
      await once(serverA, 'exit');
      // The two sessions on the stopped server end; the two on the other one live on.
      await expect
        .poll(async () => (await relay.api('GET', '/v1/web/sessions')).body.session_ids, { timeout: 10_000 })
        .toHaveLength(2);
      for (let i = 0; i < 2; i++) expect((await create()).status).toBe(200);
      expect(relay.services.browsers.load()).toEqual([null, 4]);

      await startServer(portA, '/tier-a');
      // Passed over for a few seconds after it failed, then tried again and used (it is the least loaded).
      await expect
        .poll(
          async () => {
            expect((await create()).status).toBe(200);
            return relay.services.browsers.load()[0];
          },
          { timeout: 20_000, interval: 500 },
        )
        .toBeGreaterThanOrEqual(1);
    } finally {
      await relay.close();
    }
  });
});
