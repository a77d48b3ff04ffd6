// A disk that refuses screenshots. The full disk is real to the kernel but needs no privileges: the store's
// writer (its one way to the disk) is given one that writes what fits to the real file and the rest to
// /dev/full, which answers ENOSPC. A screenshots directory replaced by a file (ENOTDIR) works even as root.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import { StreamChunk } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FileWriter, ScreenshotStore } from '../src/store/screenshots';
import { readStream } from './agent-support';
import { startTestRelay, type TestRelay } from './support';

const TTL_MS = 3_600_000;
const FULL =
  "No screenshot: it was taken but could not be stored: the disk is full (ENOSPC). Free disk space in the relay's data directory (TANDEM_DATA_DIR).";

/** Writes the first half of each file, then meets a full disk. */
const fullDisk: FileWriter = async (path, data) => {
  await writeFile(path, data.subarray(0, data.length >> 1));
  await writeFile('/dev/full', data.subarray(data.length >> 1));
};

let site: FixtureSite;
let relay: TestRelay;
let shots: string;
beforeAll(async () => {
  site = await startFixtureSite();
  relay = await startTestRelay({ TANDEM_PLANNER: 'builtin' });
  shots = join(relay.dataDir, 'screenshots');
});
afterAll(async () => {
  await relay?.close();
  await site?.close();
});

const post = (path: string, body: Record<string, unknown>) => relay.api('POST', path, { body });

describe('a full disk for screenshots', () => {
  it('every call still answers, without a screenshot, and says so; GET screenshot is a 503; nothing half-written stays', async () => {
    relay.services.screenshots = new ScreenshotStore(relay.dataDir, TTL_MS, fullDisk);

    const created = await post('/v1/web/session', { url: `${site.url}/form.html`, include_screenshot: true });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ screenshot: '', message: `Session created; opened "Form". ${FULL}` });
    const id = created.body.session_id as string;

    const typed = await post(`/v1/web/session/${id}`, {
      cmd: 'type Ada into Name',
      stream: false,
      include_screenshot: true,
    });
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);
    expect(typed.body.screenshot).toBe('');
    expect(typed.body.message).toMatch(new RegExp(`Typed into .* it now holds "Ada".* ${literally(FULL)}$`));

    const res = await fetch(`${relay.url}/v1/web/session/${id}`, {
      method: 'POST',
      headers: { X_SERVICE_API_KEY: relay.key, 'content-type': 'application/json' },
      body: JSON.stringify({ cmd: 'scroll down', stream: true, include_screenshot: true }),
    });
    const chunks = (await readStream(res)).filter((m) => m !== '[DONE]').map((m) => StreamChunk.parse(JSON.parse(m)));
    const final = chunks.find((c) => c.type === 'final_event');
    expect(final?.data.screenshot).toBe('');
    expect(final?.data.delta.content).toMatch(new RegExp(`${literally(FULL)}$`));

    const browsed = await post('/v1/web/browse', {
      cmd: 'type Grace into Name',
      session_id: id,
      include_screenshot: true,
    });
    expect(browsed.status, JSON.stringify(browsed.body)).toBe(200);
    expect(browsed.body.screenshot).toBe('');
    expect(browsed.body.message).toMatch(new RegExp(`${literally(FULL)}$`));

    const retrieved = await post('/v1/web/retrieve', {
      cmd: 'the form',
      session_id: id,
      mode: 'ludicrous',
      include_screenshot: true,
    });
    expect(retrieved.status, JSON.stringify(retrieved.body)).toBe(200);
    expect(retrieved.body.screenshot).toBe('');
    expect(retrieved.body.message).toMatch(new RegExp(`${literally(FULL)}$`));

    const shot = await relay.api('GET', `/v1/web/screenshot/${id}`);
    expect(shot.status).toBe(503);
    expect(shot.headers.get('retry-after')).toBe('60');
    expect(shot.body).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message:
        "The screenshot was taken but could not be stored: the disk is full (ENOSPC). Free disk space in the relay's data directory (TANDEM_DATA_DIR) or fix its permissions, then retry.",
    });
    expect(readdirSync(shots)).toEqual([]);

    // Space freed: screenshots come back at once, in the same session.
    relay.services.screenshots = new ScreenshotStore(relay.dataDir, TTL_MS);
    const again = await relay.api('GET', `/v1/web/screenshot/${id}`);
    expect(again.status).toBe(200);
    expect((await fetch(again.body.screenshot as string)).headers.get('content-type')).toBe('image/png');
  });

  it('a screenshots directory that is not a directory is said the same way (and a deleted one is made again)', async () => {
    relay.services.screenshots = new ScreenshotStore(relay.dataDir, TTL_MS);
    const id = (await post('/v1/web/session', { url: `${site.url}/form.html` })).body.session_id as string;
    rmSync(shots, { recursive: true, force: true });
    writeFileSync(shots, 'not a directory');
    const step = await post(`/v1/web/session/${id}`, { cmd: 'scroll down', stream: false, include_screenshot: true });
    expect(step.status).toBe(200);
    expect(step.body.screenshot).toBe('');
    expect(step.body.message).toMatch(
      /No screenshot: it was taken but could not be stored: the screenshots directory is not a directory \(ENOTDIR\)\./,
    );
    expect(await relay.services.screenshots.sweep()).toBe(0);

    rmSync(shots, { force: true });
    const shot = await relay.api('GET', `/v1/web/screenshot/${id}`);
    expect(shot.status, JSON.stringify(shot.body)).toBe(200);
    expect(readdirSync(shots)).toHaveLength(1);
  });
});

/** `text` as a regular expression that matches it literally. */
function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
