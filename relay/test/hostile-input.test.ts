// Hostile commands against a relay in its own process: a parser that is not linear in its input would
// stall the relay's one event loop (and every other caller with it). A stuck child is killed; a stuck
// relay inside this worker would hang the whole test run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import { MAX_CMD_CHARS } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerField, cleanEnv, type RelayProcess, spawnRelay } from './relay-process';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Ample for one request to an idle relay on a loaded machine; a stalled event loop takes minutes. */
const ANSWER_WITHIN_MS = 10_000;

/** 20,000 characters each, shaped against clause splitters and separator patterns. */
const pad = (head: string, unit: string, tail = '') =>
  `${head}${unit.repeat(Math.floor((MAX_CMD_CHARS - head.length - tail.length) / unit.length))}${tail}`;
const HOSTILE = [
  pad('click a', ' ', 'b'),
  pad('type x into ', ' and', ' y'),
  pad('click ', ', ', 'z'),
  pad('open ', 'then ', ''),
  pad('what is ', '? ', 'x'),
  pad('select ', '"a', ''),
];

let site: FixtureSite;
let relay: RelayProcess;
let base: string;
let key: string;
const dataDir = mkdtempSync(join(tmpdir(), 'tandem-hostile-'));

beforeAll(async () => {
  site = await startFixtureSite();
  relay = spawnRelay(join(REPO, 'node_modules', '.bin', 'tsx'), [join(REPO, 'relay', 'src', 'main.ts')], {
    cwd: dataDir,
    env: cleanEnv({ PORT: '0', TANDEM_DATA_DIR: dataDir, TANDEM_PLANNER: 'builtin', HOME: dataDir }),
  });
  const banner = await relay.banner;
  key = bannerField(banner, 'API key');
  base = bannerField(banner, 'API').replace(/\/v1\/web$/, '');
});
afterAll(async () => {
  await relay?.stop();
  await site?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: { X_SERVICE_API_KEY: key, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('hostile input', () => {
  it('answers a 20,000-character hostile cmd to browse with the built-in planner, and other requests meanwhile', async () => {
    let sessionId: string | undefined;
    for (const cmd of HOSTILE) {
      expect(cmd.length).toBeLessThanOrEqual(MAX_CMD_CHARS);
      let settled = false;
      const browse = call('POST', '/v1/web/browse', {
        cmd,
        max_steps: 2,
        ...(sessionId ? { session_id: sessionId } : { url: `${site.url}/form.html` }),
      }).finally(() => {
        settled = true;
      });
      browse.catch(() => undefined); // awaited below, unless the relay stalls and the test ends first
      // Other callers keep being answered while the relay works on the cmd.
      let answered = 0;
      while (!settled) {
        const health = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) }).catch(
          (error: unknown) => {
            throw new Error(
              `GET /healthz got no answer within ${ANSWER_WITHIN_MS} ms while browse worked on ${JSON.stringify(cmd.slice(0, 40))}…: ${error}`,
            );
          },
        );
        expect(health.status).toBe(200);
        answered++;
      }
      const res = await browse;
      const body = (await res.json()) as { session_id: string; message: string; status: string };
      expect(res.status, JSON.stringify(body).slice(0, 500)).toBe(200);
      expect(answered).toBeGreaterThan(0);
      // The answer may quote the cmd, never repeat it.
      expect(body.message.length, body.message.slice(0, 500)).toBeLessThan(2_000);
      sessionId = body.session_id;
    }
    const list = await call('GET', '/v1/web/sessions');
    expect(((await list.json()) as { session_ids: string[] }).session_ids).toEqual([sessionId]);
  });
});
