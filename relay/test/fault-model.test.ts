// The model endpoint down, slow or answering garbage, over real HTTP through the relay: every call answers
// with a message that says what to check, retries stay bounded, and the session stays usable.
import {
  type FixtureSite,
  type ModelServer,
  type Reply,
  startFixtureSite,
  startModelServer,
} from '@tandem/e2e/fixtures';
import { StreamChunk } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decision, readStream } from './agent-support';
import { closedPort, startTestRelay, type TestRelay } from './support';

const MODEL = 'fault-model';
let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(() => site?.close());

/** A relay whose planner asks the model at `baseUrl`: 1 s per request, `retries` retries. */
function modelRelay(baseUrl: string, retries: number): Promise<TestRelay> {
  return startTestRelay({
    OPENAI_BASE_URL: baseUrl,
    OPENAI_API_KEY: 'sk-fault',
    TANDEM_MODEL_FAST: MODEL,
    TANDEM_MODEL_OUTPUT: 'prompt',
    TANDEM_MODEL_TIMEOUT_MS: 1000,
    TANDEM_MODEL_MAX_RETRIES: retries,
  });
}

async function create(relay: TestRelay): Promise<string> {
  const res = await relay.api('POST', '/v1/web/session', { body: { url: `${site.url}/form.html` } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.session_id as string;
}

const step = (relay: TestRelay, id: string, cmd = 'click Send') =>
  relay.api('POST', `/v1/web/session/${id}`, { body: { cmd, stream: false } });

/** The final event of a streamed step. */
async function streamedFinal(relay: TestRelay, id: string) {
  const res = await fetch(`${relay.url}/v1/web/session/${id}`, {
    method: 'POST',
    headers: { X_SERVICE_API_KEY: relay.key, 'content-type': 'application/json' },
    body: JSON.stringify({ cmd: 'click Send', stream: true }),
  });
  const messages = await readStream(res);
  expect(messages.at(-1)).toBe('[DONE]');
  const final = messages
    .slice(0, -1)
    .map((m) => StreamChunk.parse(JSON.parse(m)))
    .find((c) => c.type === 'final_event');
  if (!final) throw new Error(`no final_event in ${messages.join('\n')}`);
  return final.data.delta;
}

describe('the model endpoint down (connection refused)', () => {
  let relay: TestRelay;
  let base: string;
  beforeAll(async () => {
    base = `http://127.0.0.1:${await closedPort()}/v1`;
    relay = await modelRelay(base, 2);
  });
  afterAll(() => relay?.close());

  const refused = () =>
    `The planner failed: could not reach the model endpoint ${base}: the connection was refused (ECONNREFUSED), after 2 retries; check the base URL (OPENAI_BASE_URL) and that the server is running`;

  it('fails the step as a step (CONTINUE, the reason in words), as JSON and as a stream', async () => {
    const id = await create(relay);
    const json = await step(relay, id);
    expect(json.status, JSON.stringify(json.body)).toBe(200);
    expect(json.body).toMatchObject({ status: 'CONTINUE', message: refused(), session_id: id });
    expect(await streamedFinal(relay, id)).toMatchObject({ status: 'CONTINUE', content: refused() });
  });

  it('ends a browse after a bounded number of failed steps, saying why', async () => {
    const started = Date.now();
    const res = await relay.api('POST', '/v1/web/browse', {
      body: { cmd: 'click Send', url: `${site.url}/form.html`, max_steps: 20 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('DONE');
    expect(res.body.message).toBe(
      `Stopped after 3 failed steps in a row, without finishing "click Send". Last problem: ${refused()}`,
    );
    expect(res.body.metadata).toMatchObject({ step_count: 3 });
    // 3 steps × (1 try + 2 retries with the client's backoff, well under a second each).
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('leaves retrieve to its heuristics, and the answer says the model failed', async () => {
    const res = await relay.api('POST', '/v1/web/retrieve', {
      body: { cmd: 'the form fields', url: `${site.url}/table.html`, mode: 'fast' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toMatch(/The model failed \(.*the connection was refused \(ECONNREFUSED\)/);
  });
});

describe('the model endpoint slower than TANDEM_MODEL_TIMEOUT_MS', () => {
  let relay: TestRelay;
  let model: ModelServer;
  beforeAll(async () => {
    model = await startModelServer({ models: [MODEL] });
    relay = await modelRelay(model.url, 1);
  });
  afterAll(async () => {
    await relay?.close();
    await model?.close();
  });

  it('gives up after the timeout and one retry, says so, and the next step works', async () => {
    const id = await create(relay);
    const late = { kind: 'delay', ms: 5000, reply: decision([{ action: 'done', message: 'Too late.' }]) } as const;
    model.script(late, late);
    const slow = await step(relay, id);
    expect(slow.status, JSON.stringify(slow.body)).toBe(200);
    expect(slow.body).toMatchObject({
      status: 'CONTINUE',
      message: `The planner failed: the model endpoint ${model.url} did not answer within 1000 ms (model "${MODEL}", 1 retry); check that the server is up and the model is loaded, or raise the timeout`,
    });
    expect(model.requests).toHaveLength(2);

    model.script(decision([{ action: 'done', message: 'Sent.' }]));
    const next = await step(relay, id, '');
    expect(next.body).toMatchObject({ status: 'DONE', message: 'Sent.' });
    expect(model.requests).toHaveLength(3);
  });
});

describe('the model endpoint answering garbage', () => {
  let relay: TestRelay;
  let model: ModelServer;
  let id: string;
  beforeAll(async () => {
    model = await startModelServer({ models: [MODEL] });
    relay = await modelRelay(model.url, 1);
    id = await create(relay);
  });
  afterAll(async () => {
    await relay?.close();
    await model?.close();
  });

  const bigErrorPage = `<html><head><style>body{color:red}</style></head><body><h1>502 Bad Gateway</h1>${'<p>upstream trouble</p>'.repeat(5000)}</body></html>`;
  const cases: { name: string; reply: Reply; status: number; message: RegExp; requests: number }[] = [
    {
      name: 'text that is not JSON',
      reply: { kind: 'garbage', text: 'Hello! How can I help you today?', contentType: 'text/plain' },
      status: 500,
      message:
        /answered with text, not a chat completion \("Hello! How can I help you today\?"\); check that the base URL/,
      requests: 1,
    },
    {
      name: 'an HTML page with 200',
      reply: {
        kind: 'garbage',
        text: '<html><body><h1>Welcome to nginx!</h1></body></html>',
        contentType: 'text/html',
      },
      status: 500,
      message: /answered with text, not a chat completion \("Welcome to nginx!"\)/,
      requests: 1,
    },
    {
      name: 'a large HTML error page with 502 (retried, then the step fails)',
      reply: { kind: 'error', status: 502, body: bigErrorPage },
      status: 200,
      message:
        /^The planner failed: the model endpoint .* failed with 502 after 1 retry: 502 Bad Gateway upstream trouble/,
      requests: 2,
    },
    {
      name: 'truncated JSON',
      reply: { kind: 'garbage', text: '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"mess' },
      status: 500,
      message: /answered with a body that is not JSON; check the base URL/,
      requests: 1,
    },
    {
      name: '200 with an empty choices array',
      reply: {
        kind: 'garbage',
        text: JSON.stringify({ id: 'c', object: 'chat.completion', model: MODEL, choices: [] }),
      },
      status: 500,
      message: new RegExp(
        `answered without any choice for model "${MODEL}" \\(.*"choices":\\[\\]\\}\\); check that the base URL`,
      ),
      requests: 1,
    },
  ];

  for (const c of cases) {
    it(`${c.name}: a clear answer, ${c.requests} request(s), and the session goes on`, async () => {
      model.reset();
      model.script(...Array.from({ length: c.requests }, () => c.reply));
      const res = await step(relay, id);
      expect(res.status, JSON.stringify(res.body)).toBe(c.status);
      const message = String(res.body.message);
      expect(message).toMatch(c.message);
      expect(message.length).toBeLessThan(600);
      if (c.status === 500) {
        expect(res.body.error).toBe('Internal Server Error');
        expect(message).toMatch(/^The agent's model could not be used: .*\(request id req_\w+\)$/);
      } else {
        expect(res.body.status).toBe('CONTINUE');
      }
      expect(model.requests).toHaveLength(c.requests);

      model.script(decision([{ action: 'done', message: 'Back on track.' }]));
      const next = await step(relay, id, 'say when you are back');
      expect(next.status, JSON.stringify(next.body)).toBe(200);
      expect(next.body).toMatchObject({ status: 'DONE', message: 'Back on track.' });
    });
  }
});
