import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('a remote browser server (TANDEM_BROWSER_WS_ENDPOINT)', () => {
  const script = fileURLToPath(new URL('./browser-server.ts', import.meta.url));
  const servers: ChildProcess[] = [];

  async function startServer(port: number, wsPath: string): Promise<string> {
    const child = spawn(process.execPath, ['--import', 'tsx', script, String(port), wsPath], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    servers.push(child);
    let out = '';
    for await (const chunk of child.stdout!) {
      out += String(chunk);
      if (out.includes('\n')) break;
    }
    return out.trim();
  }

  afterAll(async () => {
    for (const child of servers) if (child.exitCode === null) child.kill('SIGTERM');
  });

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

      const server = servers[0]!;
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
});
