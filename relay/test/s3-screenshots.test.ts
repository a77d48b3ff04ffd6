// Relays with TANDEM_S3_URL: screenshots live in a real S3-compatible bucket (s3rver over HTTP), under
// the shelves' prefixes, and come back at the same capability URLs from any relay on the bucket. A bucket
// that refuses the relay costs an answer its screenshot, never the answer, and the key is never shown.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import type { SessionStepsResponse } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3_KEY, type S3Server, startS3Server } from './s3-server';
import { startTestRelay, type TestRelay } from './support';

/** s3rver checks the key id, not the signature: any secret passes with S3_KEY, so this one is ours to look for. */
const SECRET = 'tandem-s3-secret-Vb8Nm2Qw4Er6';
const WRONG_SECRET = 'wrong-s3-secret-Zx1Cv3Bn5Lk7';
const BUCKET = 'tandem';
const REFUSED =
  'No screenshot: it was taken but could not be stored: the object store refused to store it (403 InvalidAccessKeyId). Check the object store in TANDEM_S3_URL: it must be up, its bucket must exist and its key must be allowed to write there.';

let s3: S3Server;
let site: FixtureSite;
let relay: TestRelay;
/** A second relay on the same bucket, with its own data directory: it never took a screenshot. */
let other: TestRelay;
/** A relay whose key the store does not know. */
let refused: TestRelay;
const logs: string[] = [];
const answers: string[] = [];

const logTo = () => ({
  logDestination: new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  }),
});

beforeAll(async () => {
  s3 = await startS3Server();
  await s3.createBucket(BUCKET);
  site = await startFixtureSite();
  const settings = { TANDEM_PLANNER: 'builtin', LOG_LEVEL: 'debug' } as const;
  relay = await startTestRelay(
    { ...settings, TANDEM_S3_URL: s3.urlFor(BUCKET, 'cluster', { key: S3_KEY, secret: SECRET }) },
    logTo(),
  );
  other = await startTestRelay(
    { ...settings, TANDEM_S3_URL: s3.urlFor(BUCKET, 'cluster', { key: S3_KEY, secret: SECRET }) },
    logTo(),
  );
  refused = await startTestRelay(
    { ...settings, TANDEM_S3_URL: s3.urlFor(BUCKET, 'cluster', { key: 'unknown-key', secret: WRONG_SECRET }) },
    logTo(),
  );
});
afterAll(async () => {
  await Promise.all([relay?.close(), other?.close(), refused?.close()]);
  await site?.close();
  await s3?.close();
});

/** Calls the API and keeps the answer (status, headers, body) to look for secrets in. */
async function call(on: TestRelay, method: string, path: string, body?: Record<string, unknown>) {
  const res = await on.api(method, path, body ? { body } : {});
  answers.push(`${res.status} ${JSON.stringify([...res.headers])} ${JSON.stringify(res.body)}`);
  return res;
}

/** The image at a screenshot URL, and the object it came from. */
async function served(url: string) {
  const res = await fetch(url);
  answers.push(`${res.status} ${JSON.stringify([...res.headers])}`);
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

const nameOf = (url: string) => /\/v1\/web\/screenshots\/(\w{22}\.(?:png|jpg))$/.exec(url)?.[1] ?? '';

describe('screenshots in an S3 bucket', () => {
  it("a session's create and step screenshots are objects under screenshots/, served at the capability URLs", async () => {
    const created = await call(relay, 'POST', '/v1/web/session', {
      url: `${site.url}/form.html`,
      include_screenshot: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const first = created.body.screenshot as string;
    expect(first).toMatch(new RegExp(`^${relay.url}/v1/web/screenshots/\\w{22}\\.png$`));
    const id = created.body.session_id as string;
    const step = await call(relay, 'POST', `/v1/web/session/${id}`, {
      cmd: 'scroll down',
      stream: false,
      include_screenshot: true,
    });
    expect(step.status, JSON.stringify(step.body)).toBe(200);
    const second = step.body.screenshot as string;
    expect(second).toMatch(/\.png$/);

    for (const url of [first, second]) {
      const object = await s3.object(BUCKET, `cluster/screenshots/${nameOf(url)}`);
      expect(object?.contentType).toBe('image/png');
      expect(object?.body.subarray(1, 4).toString()).toBe('PNG');
      const image = await served(url);
      expect(image).toMatchObject({ status: 200, type: 'image/png' });
      expect(image.body.equals(object?.body ?? Buffer.alloc(0))).toBe(true);
      // Any relay on the bucket serves it: the one that took it need not be the one asked.
      const elsewhere = await served(url.replace(relay.url, other.url));
      expect(elsewhere.body.equals(image.body)).toBe(true);
    }
    // The data directory holds none of them.
    expect(existsSync(join(relay.dataDir, 'screenshots'))).toBe(false);

    const fresh = await call(relay, 'GET', `/v1/web/screenshot/${id}`);
    expect(fresh.status).toBe(200);
    expect((await served(fresh.body.screenshot as string)).type).toBe('image/png');
  });

  it("the step history's screenshots are objects under step-screenshots/", async () => {
    const id = (await call(relay, 'POST', '/v1/web/session', { url: `${site.url}/form.html` })).body
      .session_id as string;
    expect((await call(relay, 'POST', `/v1/web/session/${id}`, { cmd: 'scroll down', stream: false })).status).toBe(
      200,
    );
    const history = await relay.api<SessionStepsResponse>('GET', `/v1/console/sessions/${id}/steps`);
    const url = history.body.steps[0]?.screenshot ?? '';
    expect(url).toMatch(new RegExp(`^${relay.url}/v1/web/screenshots/\\w{22}\\.jpg$`));
    const object = await s3.object(BUCKET, `cluster/step-screenshots/${nameOf(url)}`);
    expect(object?.contentType).toBe('image/jpeg');
    const image = await served(url);
    expect(image).toMatchObject({ status: 200, type: 'image/jpeg' });
    expect(image.body.equals(object?.body ?? Buffer.alloc(0))).toBe(true);
    expect(await s3.keys(BUCKET, 'cluster/')).toContain(`cluster/step-screenshots/${nameOf(url)}`);
  });

  it('a name the bucket does not hold is a 404 with the usual message', async () => {
    const res = await fetch(`${relay.url}/v1/web/screenshots/${'A'.repeat(22)}.png`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message:
        'No such screenshot. Screenshot URLs are kept 24 hours; take a new one with GET /v1/web/screenshot/{session_id}.',
    });
  });

  it('a bucket that refuses the key: every answer goes out without its screenshot and says why', async () => {
    const created = await call(refused, 'POST', '/v1/web/session', {
      url: `${site.url}/form.html`,
      include_screenshot: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ screenshot: '', message: `Session created; opened "Form". ${REFUSED}` });
    const id = created.body.session_id as string;

    const step = await call(refused, 'POST', `/v1/web/session/${id}`, {
      cmd: 'scroll down',
      stream: false,
      include_screenshot: true,
    });
    expect(step.status).toBe(200);
    expect(step.body.screenshot).toBe('');
    expect(step.body.message).toMatch(new RegExp(`${REFUSED.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));

    const shot = await call(refused, 'GET', `/v1/web/screenshot/${id}`);
    expect(shot.status).toBe(503);
    expect(shot.body.message).toBe(
      'The screenshot was taken but could not be stored: the object store refused to store it (403 InvalidAccessKeyId). Check the object store in TANDEM_S3_URL: it must be up, its bucket must exist and its key must be allowed to write there, then retry.',
    );
    // The step is in the history, without a screenshot; nothing reached the bucket from this relay.
    const history = await refused.api<SessionStepsResponse>('GET', `/v1/console/sessions/${id}/steps`);
    expect(history.body.steps).toHaveLength(1);
    expect(history.body.steps[0]?.screenshot ?? '').toBe('');
    // Reading through it says the store is unavailable rather than that the image is gone.
    const elsewhere = await call(relay, 'POST', '/v1/web/session', {
      url: `${site.url}/form.html`,
      include_screenshot: true,
    });
    const unreadable = await fetch((elsewhere.body.screenshot as string).replace(relay.url, refused.url));
    expect(unreadable.status).toBe(503);
    expect(((await unreadable.json()) as { message: string }).message).toMatch(
      /^The screenshot could not be read: the object store refused to hand it back \(403 InvalidAccessKeyId\)\./,
    );
  });

  it('never puts the key or the URL that carries it in a log line or an answer', () => {
    const everything = [...logs, ...answers].join('\n');
    expect(logs.join('\n')).toContain('screenshot not stored'); // the refusals were logged...
    for (const secret of [SECRET, WRONG_SECRET, encodeURIComponent(SECRET)]) {
      expect(everything).not.toContain(secret); // ...without the secret
    }
    expect(everything).not.toContain(s3.urlFor(BUCKET, 'cluster', { key: S3_KEY, secret: SECRET }));
  });
});
