// Hostile text against relays in their own processes: a parser that is not linear in its input would
// stall the relay's one event loop (and every other caller with it). A stuck child is killed; a stuck
// relay inside this worker would hang the whole test run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FixtureSite, type ModelServer, startFixtureSite, startModelServer } from '@tandem/e2e/fixtures';
import { MAX_CMD_CHARS } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerField, cleanEnv, spawnRelay } from './relay-process';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Ample for one request to an idle relay on a loaded machine; a stalled event loop takes minutes. */
const ANSWER_WITHIN_MS = 10_000;
const MB = 1_000_000;
/** Relays in processes of their own, several requests each, on a loaded 2-core machine. */
const SLOW_MS = 180_000;

/** 20,000 characters each, shaped against clause splitters and separator patterns. */
const pad = (head: string, unit: string, tail = '') =>
  `${head}${unit.repeat(Math.floor((MAX_CMD_CHARS - head.length - tail.length) / unit.length))}${tail}`;
const HOSTILE_CMDS = [
  pad('click a', ' ', 'b'),
  pad('type x into ', ' and', ' y'),
  pad('click ', ', ', 'z'),
  pad('open ', 'then ', ''),
  pad('what is ', '? ', 'x'),
  pad('select ', '"a', ''),
];

/** About a megabyte each: what a broken or hostile model endpoint might answer. */
const HOSTILE_REPLIES = [
  `\`\`\`${' '.repeat(MB)}`,
  `\`\`\`${'a'.repeat(MB)}`,
  '{'.repeat(MB),
  `{"actions": [${' ,'.repeat(MB / 2)}]}`,
];

/** Malformed bodies just under the 1 MB body limit, for the 422's position finder. */
const MALFORMED_BODIES = [
  '['.repeat(MB),
  `{"cmd": "${'a'.repeat(MB)}`,
  `${'[1,'.repeat(MB / 3)}]`,
  `{"cmd": "x"${', "a": 1'.repeat(MB / 8)},}`,
];

interface Child {
  base: string;
  key: string;
  stop(): Promise<void>;
}

let site: FixtureSite;
let model: ModelServer;
let builtin: Child;
let llm: Child;
const dirs: string[] = [];

/** A relay started with tsx on main.ts, as a user without npm would, on its own data directory and port. */
async function startChild(env: Record<string, string>): Promise<Child> {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-hostile-'));
  dirs.push(dir);
  const relay = spawnRelay(join(REPO, 'node_modules', '.bin', 'tsx'), [join(REPO, 'relay', 'src', 'main.ts')], {
    cwd: dir,
    env: cleanEnv({ PORT: '0', TANDEM_DATA_DIR: dir, HOME: dir, ...env }),
  });
  try {
    const banner = await relay.banner;
    return {
      key: bannerField(banner, 'API key'),
      base: bannerField(banner, 'API').replace(/\/v1\/web$/, ''),
      stop: () => relay.stop(),
    };
  } catch (error) {
    await relay.stop();
    throw error;
  }
}

beforeAll(async () => {
  [site, model] = await Promise.all([startFixtureSite(), startModelServer({ models: ['hostile-model'] })]);
  [builtin, llm] = await Promise.all([
    startChild({ TANDEM_PLANNER: 'builtin' }),
    startChild({
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'sk-test',
      TANDEM_MODEL_FAST: 'hostile-model',
      TANDEM_MODEL_OUTPUT: 'prompt',
      TANDEM_MODEL_MAX_RETRIES: '0',
    }),
  ]);
}, SLOW_MS);
afterAll(async () => {
  await Promise.all([builtin?.stop(), llm?.stop()]);
  await Promise.all([site?.close(), model?.close()]);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Sends `request` to the relay and, until it is answered, keeps asking GET /healthz: each must be
 * answered within ANSWER_WITHIN_MS, or the relay is stalled.
 */
async function answeredMeanwhile(child: Child, what: string, request: () => Promise<Response>): Promise<Response> {
  let settled = false;
  const pending = request().finally(() => {
    settled = true;
  });
  pending.catch(() => undefined); // awaited below, unless the relay stalls and the test ends first
  let answered = 0;
  while (!settled) {
    const health = await fetch(`${child.base}/healthz`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) }).catch(
      (error: unknown) => {
        throw new Error(
          `GET /healthz got no answer within ${ANSWER_WITHIN_MS} ms while the relay worked on ${what}: ${error}`,
        );
      },
    );
    expect(health.status).toBe(200);
    answered++;
  }
  expect(answered).toBeGreaterThan(0);
  return pending;
}

const post = (child: Child, path: string, body: string) =>
  fetch(`${child.base}${path}`, {
    method: 'POST',
    headers: { X_SERVICE_API_KEY: child.key, 'Content-Type': 'application/json' },
    body,
  });

describe('hostile input', () => {
  it(
    'answers a 20,000-character hostile cmd to browse with the built-in planner, and other requests meanwhile',
    async () => {
      let sessionId: string | undefined;
      for (const cmd of HOSTILE_CMDS) {
        expect(cmd.length).toBeLessThanOrEqual(MAX_CMD_CHARS);
        const body = {
          cmd,
          max_steps: 2,
          ...(sessionId ? { session_id: sessionId } : { url: `${site.url}/form.html` }),
        };
        const res = await answeredMeanwhile(builtin, JSON.stringify(cmd.slice(0, 30)), () =>
          post(builtin, '/v1/web/browse', JSON.stringify(body)),
        );
        const answer = (await res.json()) as { session_id: string; message: string };
        expect(res.status, JSON.stringify(answer).slice(0, 500)).toBe(200);
        // The answer may quote the cmd, never repeat it.
        expect(answer.message.length, answer.message.slice(0, 500)).toBeLessThan(2_000);
        sessionId = answer.session_id;
      }
    },
    SLOW_MS,
  );

  it(
    'locates the error in a megabyte of malformed JSON, and answers other requests meanwhile',
    async () => {
      for (const text of MALFORMED_BODIES) {
        const res = await answeredMeanwhile(llm, `${text.slice(0, 20)}…`, () => post(llm, '/v1/web/browse', text));
        expect(res.status).toBe(422);
        const [issue] = ((await res.json()) as { detail: { type: string; loc: unknown[] }[] }).detail;
        expect(issue).toMatchObject({ type: 'json_invalid', loc: ['body', expect.any(Number)] });
      }
    },
    SLOW_MS,
  );

  it(
    'reads a megabyte of hostile model reply in linear time, and answers other requests meanwhile',
    async () => {
      for (let i = 0; i < HOSTILE_REPLIES.length; i += 2) {
        // A step asks once, then once more for a repair: two hostile replies per step.
        model.script(
          { kind: 'content', content: HOSTILE_REPLIES[i]! },
          { kind: 'content', content: HOSTILE_REPLIES[i + 1]! },
        );
        const body = JSON.stringify({ cmd: 'do the task', url: `${site.url}/index.html`, max_steps: 1 });
        const res = await answeredMeanwhile(llm, `model reply ${i}`, () => post(llm, '/v1/web/browse', body));
        const answer = (await res.json()) as { message: string };
        expect(res.status, JSON.stringify(answer).slice(0, 500)).toBe(200);
        expect(answer.message).toMatch(/did not produce a valid decision/);
        expect(answer.message.length).toBeLessThan(3_000);
      }
    },
    SLOW_MS,
  );
});
