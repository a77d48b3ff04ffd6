import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, pngSize, startTestRelay, type TestRelay } from './support';

let relay: TestRelay;
let site: FixtureSite;

beforeAll(async () => {
  [relay, site] = await Promise.all([startTestRelay(), startFixtureSite()]);
});
afterAll(async () => {
  await Promise.all([relay?.close(), site?.close()]);
});
afterEach(async () => {
  await relay.services.sessions.closeAll();
});

describe('session lifecycle', () => {
  it('creates, lists, screenshots and closes a session, then answers 404 saying it was closed', async () => {
    const created = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/form.html` } });
    expect(created.status).toBe(200);
    const sessionId = created.body.session_id as string;
    expect(sessionId).toMatch(/^ses_n0_[0-9A-Za-z]{22}$/);
    expect(created.body).toMatchObject({ status: 'CONTINUE', url: `${site.url}/form.html`, screenshot: '' });
    expect(created.body.message).toContain('Form');

    const list = await relay.api('GET', '/v1/web/sessions');
    expect(list.body.session_ids).toContain(sessionId);

    const shot = await relay.api('GET', `/v1/web/screenshot/${sessionId}`);
    expect(shot.status).toBe(200);
    const image = await fetch(shot.body.screenshot as string);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await image.arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(pngSize(png)).toEqual({ width: 1280, height: 800 });

    const closed = await relay.api('DELETE', `/v1/web/session/${sessionId}`);
    expect(closed).toMatchObject({ status: 200, body: { status: 'closed', session_id: sessionId } });

    const after = await relay.api('GET', `/v1/web/screenshot/${sessionId}`);
    expect(after.status).toBe(404);
    expect(after.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect(after.body.message).toMatch(/was closed/);
    expect((await relay.api('GET', '/v1/web/sessions')).body.session_ids).not.toContain(sessionId);
    expect((await relay.api('DELETE', `/v1/web/session/${sessionId}`)).status).toBe(404);
  });

  it('returns a screenshot URL on create when include_screenshot is true, sized by browser_params', async () => {
    const created = await relay.api('POST', '/v1/web/session', {
      body: { url: `${site.url}/`, include_screenshot: true, browser_params: { width: 800, height: 600 } },
    });
    expect(created.status).toBe(200);
    expect(created.body.screenshot).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/web\/screenshots\/[0-9A-Za-z]{22}\.png$/);
    const png = Buffer.from(await (await fetch(created.body.screenshot as string)).arrayBuffer());
    expect(pngSize(png)).toEqual({ width: 800, height: 600 });
    await relay.api('DELETE', `/v1/web/session/${created.body.session_id}`);
  });

  it('frees the browser context as soon as a session is closed', async () => {
    const browser = await relay.services.browsers.get();
    const before = browser.contexts().length;
    const created = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/` } });
    expect(browser.contexts().length).toBe(before + 1);
    await relay.api('DELETE', `/v1/web/session/${created.body.session_id}`);
    expect(browser.contexts().length).toBe(before);
  });

  it('answers 404 for an unknown session id on every session endpoint', async () => {
    const id = 'ses_n0_doesnotexist0000000000';
    for (const [method, path, body] of [
      ['GET', `/v1/web/screenshot/${id}`, undefined],
      ['DELETE', `/v1/web/session/${id}`, undefined],
      ['POST', `/v1/web/session/${id}`, { cmd: 'hi', stream: false }],
    ] as const) {
      const res = await relay.api(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toMatch(/is not known to this relay/);
    }
  });

  it('handles 20 concurrent creates, each with its own session', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/form.html?n=${i}` } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = results.map((r) => r.body.session_id as string);
    expect(new Set(ids).size).toBe(20);
    expect(results.map((r) => r.body.url)).toEqual(ids.map((_, i) => `${site.url}/form.html?n=${i}`));
    const listed = (await relay.api('GET', '/v1/web/sessions')).body.session_ids as string[];
    expect(listed).toEqual(expect.arrayContaining(ids));
    await Promise.all(ids.map((id) => relay.api('DELETE', `/v1/web/session/${id}`)));
    expect((await relay.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([]);
  });
});

describe('navigation errors', () => {
  it('answers 400 with a clear message for an unreachable URL and keeps no session', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/`;
    const res = await relay.api('POST', '/v1/web/session', { body: { url } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `Could not open ${url}: the connection was refused (ERR_CONNECTION_REFUSED). Check that the URL is right and the site is reachable from the relay.`,
    );
    expect((await relay.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([]);
  });

  it('gives up on a page that never answers after the navigation timeout', async () => {
    const impatient = await startTestRelay({ TANDEM_NAVIGATION_TIMEOUT_MS: 1500 });
    try {
      const res = await impatient.api('POST', '/v1/web/session', { body: { url: `${site.url}/hang` } });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/did not load within 2 s/);
      expect((await impatient.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([]);
    } finally {
      await impatient.close();
    }
  });

  it('refuses URLs that are not http(s)', async () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
      const res = await relay.api('POST', '/v1/web/session', { body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.message).toMatch(/http/);
    }
  });
});

describe('requests this relay cannot run', () => {
  it('answers 400 for local mode, use_proxy without proxies and an unknown agent_id', async () => {
    const local = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/`, local: true } });
    expect(local.status).toBe(400);
    expect(local.body.message).toMatch(/extension/);
    const proxy = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/`, use_proxy: true } });
    expect(proxy.status).toBe(400);
    expect(proxy.body.message).toMatch(/TANDEM_PROXY_URLS/);
    const agent = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/`, agent_id: 'nope' } });
    expect(agent.status).toBe(400);
    expect(agent.body.message).toMatch(/agent_id/);
    expect((await relay.api('GET', '/v1/web/sessions')).body.session_ids).toEqual([]);
  });
});
