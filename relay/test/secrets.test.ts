import { Writable } from 'node:stream';
import {
  type FixtureSite,
  type ForwardProxy,
  type ModelServer,
  startFixtureSite,
  startForwardProxy,
  startModelServer,
} from '@tandem/e2e/fixtures';
import { type BrowserServer, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, findChromium } from '../src/browser/chromium';
import { type ConfigError, loadConfig } from '../src/config';
import { decision } from './agent-support';
import { closedPort, startTestRelay, type TestRelay } from './support';

/** Configured secrets: each must never appear in a log line or an answer. */
const BOOTSTRAP = 'tdm_secrets_bootstrap_q8w7e6r5t4y3u2i1';
const OPENAI_KEY = 'sk-secret-openai-Zx9Yw8Vu7Ts6Rq5';
const WS_TOKEN = 'ws-secret-token-Qp1Rs2Tu3Vw4';
const PROXY_PASSWORD = 'proxy-secret-Mn5Op6Kl7';
const SECRETS = [BOOTSTRAP, OPENAI_KEY, WS_TOKEN, PROXY_PASSWORD];

let site: FixtureSite;
let model: ModelServer;
let upstream: ForwardProxy;
let browserServer: BrowserServer;
let relay: TestRelay;
const logLines: string[] = [];
/** Every answer the relay gave: status line, headers and body, as text. */
const answers: string[] = [];

const sink = () =>
  new Writable({
    write(chunk, _encoding, done) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });

async function call(method: string, path: string, body?: unknown, key: string | null = BOOTSTRAP) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.X_SERVICE_API_KEY = key;
  const res = await fetch(`${relay.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  answers.push(`${res.status} ${JSON.stringify([...res.headers])} ${text}`);
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text);
  } catch {
    // SSE or an image
  }
  return { status: res.status, json, text };
}

beforeAll(async () => {
  site = await startFixtureSite();
  model = await startModelServer({ models: ['fast-model'] });
  upstream = await startForwardProxy({ password: PROXY_PASSWORD });
  browserServer = await chromium.launchServer({
    executablePath: findChromium(),
    args: chromiumArgs(),
    headless: true,
    host: '127.0.0.1',
    port: 0,
    wsPath: '/browser',
  });
  relay = await startTestRelay(
    {
      TANDEM_BOOTSTRAP_KEY: BOOTSTRAP,
      OPENAI_API_KEY: OPENAI_KEY,
      OPENAI_BASE_URL: model.url,
      TANDEM_MODEL_FAST: 'fast-model',
      TANDEM_MODEL_MAX_RETRIES: 0,
      // Hosted browser services take their token in the endpoint's query.
      TANDEM_BROWSER_WS_ENDPOINT: `${browserServer.wsEndpoint()}?token=${WS_TOKEN}`,
      TANDEM_PROXY_URLS: `http://customer:${PROXY_PASSWORD}@127.0.0.1:${upstream.port}`,
      LOG_LEVEL: 'debug',
    },
    { logDestination: sink() },
  );
});
afterAll(async () => {
  await relay?.close();
  await Promise.all([browserServer?.close(), site?.close(), model?.close(), upstream?.close()]);
});

describe('secrets never leave', () => {
  it('a full session: create, browse, screenshot, retrieve, errors, the extension token endpoint', async () => {
    // A model endpoint that echoes the key in its error, as some servers do.
    model.script({ kind: 'error', status: 401, message: `Incorrect API key provided: ${OPENAI_KEY}` });
    const created = await call('POST', '/v1/web/session', {
      url: `${site.url}/form.html?token=page-token`,
      use_proxy: true,
      include_screenshot: true,
    });
    expect(created.status, created.text).toBe(200);
    const id = String(created.json.session_id);
    expect(upstream.seen.some((r) => r.username === 'customer')).toBe(true);

    const image = await fetch(String(created.json.screenshot));
    expect(image.headers.get('content-type')).toBe('image/png');
    const token = /screenshots\/(\w+)\.png/.exec(String(created.json.screenshot))?.[1] ?? '';
    expect(token.length).toBeGreaterThan(10);
    expect((await call('GET', `/v1/web/screenshot/${id}`)).status).toBe(200);

    // The planner fails with the endpoint's words: the key it echoed is masked.
    const failed = await call('POST', `/v1/web/session/${id}`, { cmd: 'fill in the form', stream: false });
    expect(failed.status, failed.text).toBe(500);
    expect(failed.json.message).toMatch(/rejected the API key \(401: Incorrect API key provided: \[redacted\]\)/);
    model.script({ kind: 'error', status: 401, message: `bad key ${OPENAI_KEY}` });
    const streamed = await call('POST', `/v1/web/session/${id}`, { cmd: 'fill in the form', stream: true });
    expect(streamed.text).toMatch(/data: \[DONE\]/);
    model.script(decision([{ action: 'done', message: 'Done.' }]));
    const browsed = await call('POST', '/v1/web/browse', { session_id: id, cmd: 'say done', max_steps: 2 });
    expect(browsed.json.status, browsed.text).toBe('DONE');
    expect(
      (await call('POST', '/v1/web/retrieve', { session_id: id, cmd: 'the form', mode: 'ludicrous' })).status,
    ).toBe(200);

    // Errors.
    expect((await call('GET', '/v1/web/sessions', undefined, 'tdm_wrong_key_0000000000000000')).status).toBe(401);
    expect((await call('POST', '/v1/web/session', { url: 'http://nowhere.invalid/' })).status).toBe(400);
    expect((await call('POST', '/v1/web/session', { url: 42 })).status).toBe(422);
    expect((await call('GET', '/v1/web/screenshot/ses_n0_unknown')).status).toBe(404);

    // The extension's token endpoint: with the key, and with a wrong password.
    expect((await call('POST', '/v1/extension/token', {})).status).toBe(201);
    expect(
      (await call('POST', '/v1/extension/token', { email: 'admin@localhost', password: 'wrong-password' }, null))
        .status,
    ).toBe(401);
    expect((await call('DELETE', `/v1/web/session/${id}`)).status).toBe(200);

    // What was logged is real: requests, the browser server, the session's connections.
    expect(logLines.some((l) => l.includes('"msg":"request"'))).toBe(true);
    expect(logLines.some((l) => l.includes('connecting to browser server') && l.includes('token=[redacted]'))).toBe(
      true,
    );
    // A screenshot's capability path is logged as its first characters only.
    expect(logLines.some((l) => l.includes(`/v1/web/screenshots/${token.slice(0, 4)}`))).toBe(true);
    expect(logLines.filter((l) => l.includes(token))).toEqual([]);
    // A page URL's token parameter is masked in logs too.
    expect(logLines.filter((l) => l.includes('page-token'))).toEqual([]);

    for (const secret of SECRETS) {
      expect(logLines.filter((l) => l.includes(secret))).toEqual([]);
      expect(answers.filter((a) => a.includes(secret))).toEqual([]);
    }
  });

  it('names TANDEM_BROWSER_WS_ENDPOINT, not its value, when the browser server cannot be reached', async () => {
    const lines: string[] = [];
    const dead = await startTestRelay(
      { TANDEM_BROWSER_WS_ENDPOINT: `ws://127.0.0.1:${await closedPort()}/browser?token=${WS_TOKEN}` },
      {
        logDestination: new Writable({
          write(chunk, _encoding, done) {
            lines.push(String(chunk));
            done();
          },
        }),
      },
    );
    try {
      const res = await dead.api('POST', '/v1/web/session', { body: { url: `${site.url}/form.html` } });
      expect(res.status).toBe(503);
      expect(res.body.message).toMatch(/the browser server \(TANDEM_BROWSER_WS_ENDPOINT\) could not be reached/);
      expect(JSON.stringify(res.body)).not.toContain(WS_TOKEN);
      expect(lines.join('\n')).not.toContain(WS_TOKEN);
    } finally {
      await dead.close();
    }
  });

  it('never prints a secret setting back when it is invalid', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        return (error as ConfigError).message;
      }
      throw new Error('expected a ConfigError');
    };
    const short = problems({ TANDEM_BOOTSTRAP_KEY: 'short-secret-value' });
    expect(short).toMatch(/TANDEM_BOOTSTRAP_KEY=\(18 characters, not shown\): .*at least 24 characters/);
    expect(short).not.toContain('short-secret-value');
    const endpoint = problems({ TANDEM_BROWSER_WS_ENDPOINT: `http://browser.example/?token=${WS_TOKEN}` });
    expect(endpoint).toMatch(/TANDEM_BROWSER_WS_ENDPOINT=\(\d+ characters, not shown\)/);
    expect(endpoint).not.toContain(WS_TOKEN);
    const database = problems({ TANDEM_DATABASE_URL: 'mysql://tandem:db-password-123@db.internal/tandem' });
    expect(database).toMatch(/TANDEM_DATABASE_URL=\(\d+ characters, not shown\): .*postgres:\/\/ URL/);
    expect(database).not.toContain('db-password-123');
    // An S3 URL is checked part by part; no message repeats it, or the secret key in it.
    for (const value of [
      's3://AKIAEXAMPLE:s3-secret-key%2F123@minio:9000/tandem',
      'https://AKIAEXAMPLE:s3-secret-key%2F123@minio:9000/',
      'https://AKIAEXAMPLE:s3-secret-key%2F123@minio:9000/Bad_Bucket',
    ]) {
      const s3 = problems({ TANDEM_S3_URL: value });
      expect(s3).toMatch(/TANDEM_S3_URL=\(\d+ characters, not shown\): TANDEM_S3_URL( must|: the bucket)/);
      expect(s3).not.toMatch(/s3-secret-key|AKIAEXAMPLE|minio/);
    }
    // URL settings are shown, their credentials masked.
    const url = problems({ TANDEM_PUBLIC_URL: 'not a url?key=abc123secret' });
    expect(url).toContain('key=[redacted]');
    expect(url).not.toContain('abc123secret');
  });
});
