// Secrets named in a cmd as <secret:name>: typed by the relay, never seen by the model, masked everywhere.
import {
  decodePng,
  type FixtureSite,
  type ModelServer,
  type RecordedRequest,
  region,
  startFixtureSite,
  startModelServer,
} from '@tandem/e2e/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decision, indexIn, promptOf, readStream } from './agent-support';
import { runRelayCli } from './relay-process';
import { memoryLogger, startTestRelay, type TestRelay } from './support';

/** From the account's store, for the fixture site's host only. */
const STORE_PASSWORD = 'Store-Pa55word-7Hq2';
/** From the store, for a host the fixture site is not. */
const ELSEWHERE_TOKEN = 'Elsewhere-token-9Kd4';
/** From optional_params.secrets, for one call. */
const CALL_USER = 'call-user-Zq81';
const CALL_PIN = '4817-2293';
const VALUES = [STORE_PASSWORD, ELSEWHERE_TOKEN, CALL_USER, CALL_PIN];

let site: FixtureSite;
let model: ModelServer;
let relay: TestRelay;
let accountId: string;
let logs: Record<string, unknown>[];
let builtinLogs: Record<string, unknown>[] = [];
/** Every answer the relay gave (bodies and streams), as text. */
const answers: string[] = [];

async function call(method: string, path: string, body?: unknown, target: TestRelay = relay) {
  const res = await fetch(`${target.url}${path}`, {
    method,
    headers: { X_SERVICE_API_KEY: target.key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  answers.push(text);
  return { status: res.status, json: JSON.parse(text) as Record<string, unknown>, text };
}

/** The secret values that appear in `text`. */
const leaked = (text: string) => VALUES.filter((value) => text.includes(value));

/** The index of the input the snapshot shows beside `label` ("Password [2]<input type=password>"). */
function field(request: RecordedRequest, label: string): number {
  const match = new RegExp(`${label} \\[(\\d+)\\]<input`).exec(pageOf(request));
  if (!match) throw new Error(`no field ${label} in ${pageOf(request)}`);
  return Number(match[1]);
}

/** The page part of a prompt: the snapshot the model was shown. */
const pageOf = (request: RecordedRequest | undefined) => {
  const prompt = promptOf(request);
  return prompt.slice(prompt.lastIndexOf('<page_snapshot>'));
};

beforeAll(async () => {
  [site, model] = await Promise.all([startFixtureSite(), startModelServer({ models: ['fast-model'] })]);
  const logger = memoryLogger('debug');
  logs = logger.lines;
  relay = await startTestRelay(
    {
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'sk-test',
      TANDEM_MODEL_FAST: 'fast-model',
      TANDEM_MODEL_OUTPUT: 'prompt',
      TANDEM_MODEL_MAX_RETRIES: 0,
    },
    { logger: logger.logger },
  );
  accountId = (await relay.services.store.apiKeys.resolve(relay.key))?.accountId as string;
  await relay.services.store.secrets.set(accountId, 'vault-password', STORE_PASSWORD, '127.0.0.1');
  await relay.services.store.secrets.set(accountId, 'elsewhere-token', ELSEWHERE_TOKEN, '*.bank.example');
});
afterEach(async () => {
  await relay.services.sessions.closeAll();
  model.reset();
  site.signins.length = 0;
});
afterAll(async () => {
  await relay?.close();
  await Promise.all([site?.close(), model?.close()]);
  // Whatever each test did, no value ever reached an answer or a log line.
  expect(leaked(answers.join('\n'))).toEqual([]);
  expect(leaked(JSON.stringify([logs, builtinLogs]))).toEqual([]);
});

describe('with the LLM planner', () => {
  it('types stored and per-call secrets where the model put placeholders; the model never sees a value', async () => {
    model.script(
      (request) =>
        decision([
          { action: 'type', index: field(request, 'Username'), text: '<secret:vault-user>' },
          { action: 'type', index: field(request, 'Password'), text: '<secret:vault-password>' },
          { action: 'type', index: field(request, 'Account PIN'), text: 'PIN <secret:pin>' },
        ]),
      (request) => decision([{ action: 'click', index: indexIn(request, /<button[^>]*>Sign in/) }]),
      decision([{ action: 'done', message: 'Signed in as <secret:vault-user>.' }]),
    );
    const res = await call('POST', '/v1/web/browse', {
      url: `${site.url}/vault-login.html`,
      cmd: 'Sign in as <secret:vault-user> with password <secret:vault-password> and PIN <secret:pin>',
      optional_params: { secrets: { 'vault-user': CALL_USER, pin: CALL_PIN } },
      max_steps: 5,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.status, res.text).toBe('DONE');
    // The server got the real values.
    expect(site.signins).toEqual([{ user: CALL_USER, password: STORE_PASSWORD, pin: `PIN ${CALL_PIN}` }]);

    const requests = model.requests;
    expect(requests).toHaveLength(3);
    expect(leaked(JSON.stringify(requests))).toEqual([]);
    expect(promptOf(requests[0])).toContain('Sign in as <secret:vault-user> with password <secret:vault-password>');
    // The page copied the PIN into its text as it was typed: the model saw the placeholder there.
    expect(pageOf(requests[1])).toContain('You typed: pin=PIN <secret:pin>');
    expect(pageOf(requests[1])).toMatch(/<input[^>]*value="?<secret:vault-user>/);
    // The server showed every field back: masked too, and the history speaks in placeholders.
    expect(pageOf(requests[2])).toContain('password: <secret:vault-password>');
    expect(pageOf(requests[2])).toContain('Welcome, <secret:vault-user>');
    expect(promptOf(requests[2])).toContain('<secret:vault-password>');
  });

  it('refuses to type a secret on a host its pattern does not allow, and says so to the model', async () => {
    const created = await call('POST', '/v1/web/session', { url: `${site.url}/vault-login.html` });
    const id = String(created.json.session_id);
    model.script((request) =>
      decision([{ action: 'type', index: field(request, 'Password'), text: '<secret:elsewhere-token>' }]),
    );
    const res = await fetch(`${relay.url}/v1/web/session/${id}`, {
      method: 'POST',
      headers: { X_SERVICE_API_KEY: relay.key, 'content-type': 'application/json' },
      body: JSON.stringify({ cmd: 'type <secret:elsewhere-token> into Password', stream: true }),
    });
    const events = (await readStream(res)).join('\n');
    answers.push(events);
    expect(events).toContain('secret \\"elsewhere-token\\" may not be typed on host 127.0.0.1');
    const snapshot = await relay.services.sessions.get(accountId, id).driver.snapshot();
    const password = snapshot.elements.find((e) => e.attributes.type === 'password');
    expect(password?.states?.filled).toBeUndefined();

    // The next step's prompt tells the model what happened.
    model.script(decision([{ action: 'done', message: 'Cannot sign in here.' }]));
    const next = await call('POST', `/v1/web/session/${id}`, { cmd: '', stream: false });
    expect(next.status, next.text).toBe(200);
    expect(promptOf(model.requests.at(-1))).toContain('may not be typed on host 127.0.0.1');
  });

  it('answers 400 for an unknown secret name before anything runs', async () => {
    const sessionsBefore = relay.services.sessions.list(accountId).length;
    const browse = await call('POST', '/v1/web/browse', {
      url: `${site.url}/vault-login.html`,
      cmd: 'log in with <secret:vault-password> and <secret:no-such-secret>',
    });
    expect(browse.status).toBe(400);
    expect(browse.json).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(browse.json.message).toContain('<secret:no-such-secret>');
    expect(browse.json.message).not.toContain('<secret:vault-password>');
    expect(relay.services.sessions.list(accountId)).toHaveLength(sessionsBefore);

    const created = await call('POST', '/v1/web/session', { url: `${site.url}/vault-login.html` });
    const id = String(created.json.session_id);
    const step = await call('POST', `/v1/web/session/${id}`, { cmd: 'type <secret:nope> into Password', stream: true });
    expect(step.status).toBe(400);
    expect(relay.services.sessions.get(accountId, id).conversation.history).toHaveLength(0);
    expect(model.requests).toHaveLength(0);
  });

  it('paints a field holding a typed secret over in the screenshots: two values give the same image', async () => {
    const images: Buffer[] = [];
    for (const value of [CALL_USER, CALL_PIN]) {
      const created = await call('POST', '/v1/web/session', { url: `${site.url}/form.html` });
      const id = String(created.json.session_id);
      model.script((request) => decision([{ action: 'type', index: field(request, 'Name'), text: '<secret:name>' }]));
      const step = await call('POST', `/v1/web/session/${id}`, {
        cmd: 'type <secret:name> into Name',
        stream: false,
        optional_params: { secrets: { name: value } },
      });
      expect(step.status, step.text).toBe(200);
      const shot = await call('GET', `/v1/web/screenshot/${id}`);
      expect(shot.status, shot.text).toBe(200);
      const image = Buffer.from(await (await fetch(String(shot.json.screenshot))).arrayBuffer());
      // The page does hold the value: only the image hides it.
      const holds = await relay.services.sessions.get(accountId, id).driver.snapshot();
      expect(holds.text).toContain('<secret:name>');
      const box = holds.elements.find((e) => e.attributes.name === 'name')?.box;
      expect(box).toBeDefined();
      images.push(region(decodePng(image), box as NonNullable<typeof box>));
    }
    expect(images[0]?.equals(images[1] as Buffer), 'the field shows its text').toBe(true);
  });

  it('never echoes a per-call secret in a 422', async () => {
    const res = await call('POST', '/v1/web/browse', {
      cmd: 'sign in',
      optional_params: { secrets: { 'bad name!': CALL_USER, pin: 123, user: 'ab' } },
    });
    expect(res.status).toBe(422);
    const detail = res.json.detail as { loc: unknown[]; input?: unknown }[];
    expect(detail.length).toBeGreaterThanOrEqual(2);
    for (const issue of detail) {
      expect(issue.loc.slice(0, 3)).toEqual(['body', 'optional_params', 'secrets']);
      expect(issue).not.toHaveProperty('input');
    }
    expect(res.text).not.toContain('123');
    expect(res.text).not.toContain('"ab"');
  });
});

describe('with the built-in planner', () => {
  let builtin: TestRelay;
  beforeAll(async () => {
    const logger = memoryLogger('debug');
    builtin = await startTestRelay({}, { logger: logger.logger });
    builtinLogs = logger.lines;
    const account = (await builtin.services.store.apiKeys.resolve(builtin.key))?.accountId as string;
    await builtin.services.store.secrets.set(account, 'vault-password', STORE_PASSWORD, '127.0.0.1');
  });
  afterAll(() => builtin?.close());

  it('carries the placeholders through its parsing and types the values', async () => {
    const res = await call(
      'POST',
      '/v1/web/browse',
      {
        url: `${site.url}/vault-login.html`,
        cmd: 'type <secret:vault-user> into Username, type <secret:vault-password> into Password, then click Sign in',
        optional_params: { secrets: { 'vault-user': CALL_USER } },
        max_steps: 8,
      },
      builtin,
    );
    expect(res.status, res.text).toBe(200);
    expect(site.signins).toEqual([{ user: CALL_USER, password: STORE_PASSWORD, pin: '' }]);
    expect(res.json.message).not.toMatch(/Store-Pa55|call-user/);
  });
});

describe('npm run secrets', () => {
  /** Runs the command line on the relay's store, with `input` on standard input. */
  const run = (args: string[], input = '') => runRelayCli('secrets', args, relay, input);

  it('stores a value read from standard input, lists names only, and deletes', async () => {
    const set = await run(['set', 'cli-pin', '--site', '127.0.0.1'], `${CALL_PIN}\n`);
    expect(set.out).toContain('Stored <secret:cli-pin>');
    expect(set.code).toBe(0);
    expect((await relay.services.store.secrets.resolve(accountId, ['cli-pin'])).get('cli-pin')).toEqual({
      value: CALL_PIN,
      hostPattern: '127.0.0.1',
    });
    const list = await run(['list']);
    expect(list.out).toContain('<secret:cli-pin>  on 127.0.0.1');
    expect(list.out).toContain('<secret:vault-password>');
    answers.push(set.out, list.out);

    const short = await run(['set', 'too-short'], 'abc');
    expect(short.code).toBe(1);
    expect(short.out).toMatch(/4 to 4096 characters; nothing was stored/);
    const badName = await run(['set', 'no spaces']);
    expect(badName.code).toBe(1);

    expect((await run(['delete', 'cli-pin'])).out).toContain('Deleted <secret:cli-pin>');
    expect((await relay.services.store.secrets.resolve(accountId, ['cli-pin'])).size).toBe(0);
  });
});
