import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBanner } from '../src/banner';
import { loadConfig } from '../src/config';
import { type Relay, startRelay } from '../src/server';
import { memoryLogger } from './support';

let site: FixtureSite;
let dataDir: string;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(() => site?.close());
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** A relay on a data dir the test keeps between starts, logging into `log` when given. */
async function start(
  log?: ReturnType<typeof memoryLogger>,
  env: Record<string, string> = {},
  port = 0,
): Promise<Relay> {
  const config = loadConfig(
    { CHROMIUM_PATH: process.env.CHROMIUM_PATH, ...env },
    { PORT: port, HOST: '127.0.0.1', TANDEM_DATA_DIR: dataDir, LOG_LEVEL: 'info' },
  );
  return startRelay(config, { logger: (log ?? memoryLogger()).logger });
}

describe('the first start', () => {
  it('creates an account and a working API key, printed once with the API and docs URLs', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tandem-start-'));
    const first = await start();
    let key: string;
    try {
      expect(first.firstStart).toMatchObject({ email: 'admin@localhost', apiKey: expect.stringMatching(/^tdm_/) });
      key = first.firstStart!.apiKey;
      const banner = startBanner(first.services.publicUrl(), first.firstStart);
      for (const part of [
        key,
        first.firstStart!.password,
        'admin@localhost',
        `${first.url}/v1/web`,
        `${first.url}/docs`,
      ]) {
        expect(banner).toContain(part);
      }
      const list = await fetch(`${first.url}/v1/web/sessions`, { headers: { X_SERVICE_API_KEY: key } });
      expect(list.status).toBe(200);
      const account = await first.services.store.accounts.authenticate('admin@localhost', first.firstStart!.password);
      expect(account?.email).toBe('admin@localhost');
    } finally {
      await first.close();
    }
    const second = await start();
    try {
      expect(second.firstStart).toBeUndefined();
      expect(startBanner(second.services.publicUrl(), undefined)).not.toMatch(/tdm_|password/);
      const list = await fetch(`${second.url}/v1/web/sessions`, { headers: { Authorization: `Bearer ${key}` } });
      expect(list.status).toBe(200);
    } finally {
      await second.close();
    }
  });
});

describe('a first start that cannot listen', () => {
  it('creates no account, so the next start still shows the credentials', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tandem-start-'));
    const holder = await start();
    const port = Number(new URL(holder.url).port);
    await holder.close();
    rmSync(dataDir, { recursive: true, force: true });
    dataDir = mkdtempSync(join(tmpdir(), 'tandem-start-'));
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      await expect(start(undefined, {}, port)).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
    const relay = await start();
    try {
      expect(relay.firstStart?.apiKey).toMatch(/^tdm_/);
    } finally {
      await relay.close();
    }
  });
});

describe('TANDEM_PUBLIC_URL', () => {
  it('is the base of the screenshot URLs the relay hands out', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tandem-start-'));
    const relay = await start(undefined, { TANDEM_PUBLIC_URL: 'https://tandem.example.com/base' });
    try {
      const res = await fetch(`${relay.url}/v1/web/session`, {
        method: 'POST',
        headers: { X_SERVICE_API_KEY: relay.firstStart!.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${site.url}/form.html`, include_screenshot: true }),
      });
      const { screenshot } = (await res.json()) as { screenshot: string };
      expect(screenshot).toMatch(/^https:\/\/tandem\.example\.com\/base\/v1\/web\/screenshots\/\w{22}\.png$/);
      const served = await fetch(`${relay.url}${new URL(screenshot).pathname.replace('/base', '')}`);
      expect(served.headers.get('content-type')).toBe('image/png');
    } finally {
      await relay.close();
    }
  });
});

describe('logs', () => {
  it('carry the request id on every request line and the session id once a session is known', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tandem-start-'));
    const log = memoryLogger();
    const { lines } = log;
    const relay = await start(log);
    try {
      const key = relay.firstStart!.apiKey;
      const res = await fetch(`${relay.url}/v1/web/session`, {
        method: 'POST',
        headers: { X_SERVICE_API_KEY: key, 'content-type': 'application/json', 'x-request-id': 'req-from-client-1' },
        body: JSON.stringify({ url: `${site.url}/form.html` }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBe('req-from-client-1');
      const { session_id } = (await res.json()) as { session_id: string };
      await expect
        .poll(() => lines.find((l) => l.msg === 'request' && l.reqId === 'req-from-client-1'))
        .toMatchObject({
          method: 'POST',
          path: '/v1/web/session',
          status: 200,
          sessionId: session_id,
        });
      expect(lines.some((l) => l.sessionId === session_id && l.msg !== 'request')).toBe(true);
    } finally {
      await relay.close();
    }
  });
});
