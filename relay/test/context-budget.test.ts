// The context budget against an endpoint that refuses prompts longer than its model's context, the
// way OpenAI and vLLM do, on a page whose viewport alone holds more text than a small model takes.
import {
  type FixtureSite,
  type ModelServer,
  type RecordedRequest,
  startFixtureSite,
  startModelServer,
} from '@tandem/e2e/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../src/config';
import { indexIn, promptOf } from './agent-support';
import { startTestRelay } from './support';

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});

/** A tool-call decision, as a model in tools mode answers. */
const decide = (actions: unknown[]) => ({
  kind: 'tool_call' as const,
  name: 'decide',
  arguments: { memory: 'Export the report.', next_goal: 'export it', actions },
});

/** Browses the dense page to its export button and back with the answer, against `model`. */
async function browseDense(model: ModelServer, env: Partial<Env>) {
  const relay = await startTestRelay({
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'sk-test',
    TANDEM_MODEL_FAST: 'small-model',
    TANDEM_MODEL_MAX_RETRIES: 0,
    ...env,
  });
  try {
    model.script(
      (request: RecordedRequest) => decide([{ action: 'click', index: indexIn(request, /<button>Export report/) }]),
      (request: RecordedRequest) => {
        expect(promptOf(request)).toMatch(/<button[^>]*>Report exported/);
        return decide([{ action: 'done', message: 'The report is exported.' }]);
      },
    );
    const res = await relay.api('POST', '/v1/web/browse', {
      body: { cmd: 'Export the report', url: `${site.url}/dense.html` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'DONE', message: 'The report is exported.' });
    return res;
  } finally {
    await relay.close();
  }
}

const answered = (model: ModelServer) => model.requests.filter((r) => r.respondedAt !== undefined);

describe.each([4096, 8192])('an endpoint whose model has %i tokens of context', (contextTokens) => {
  let model: ModelServer;
  beforeAll(async () => {
    model = await startModelServer({ models: ['small-model'], contextTokens });
  });
  afterAll(async () => {
    await model?.close();
  });

  it('with TANDEM_MODEL_CONTEXT_TOKENS set, every prompt fits at once and the page is trimmed to it', async () => {
    model.reset();
    await browseDense(model, { TANDEM_MODEL_CONTEXT_TOKENS: { fast: contextTokens, standard: contextTokens } });
    expect(model.contextRefusals).toBe(0);
    expect(model.requests).toHaveLength(2);
    const first = promptOf(model.requests[0]);
    expect(first).toMatch(/characters of page text left out to fit/);
    const reply = model.requests[0]?.body?.max_tokens ?? 0;
    expect(reply).toBeGreaterThan(0);
    expect(reply).toBeLessThanOrEqual(contextTokens / 8);
  });

  it('without a setting, the first refusal teaches the context and the step is asked again, shorter', async () => {
    model.reset();
    await browseDense(model, {});
    // One refusal for the first step; the second step is sized from what was learnt.
    expect(model.contextRefusals).toBe(1);
    expect(model.requests).toHaveLength(3);
    expect(answered(model)).toHaveLength(3);
    expect(model.requests[0]?.rawBody.length).toBeGreaterThan(model.requests[1]?.rawBody.length ?? 0);
    expect(promptOf(model.requests[1])).toMatch(/characters of page text left out to fit/);
  });
});

it('llama.cpp wording (n_ctx in the body, 500) is understood too', async () => {
  const model = await startModelServer({
    models: ['small-model'],
    contextTokens: 8192,
    contextError: (limit, requested) => ({
      status: 500,
      body: {
        error: {
          code: 400,
          message: 'the request exceeds the available context size, try increasing it',
          type: 'exceed_context_size_error',
          n_prompt_tokens: requested,
          n_ctx: limit,
        },
      },
    }),
  });
  try {
    await browseDense(model, {});
    expect(model.contextRefusals).toBe(1);
  } finally {
    await model.close();
  }
});

it('retrieve cuts the page into chunks that fit the context it learnt from a refusal', async () => {
  const model = await startModelServer({
    models: ['small-model'],
    contextTokens: 4096,
    fallback: { kind: 'json', value: { items: [{ name: 'Item 1' }] } },
  });
  const relay = await startTestRelay({
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'sk-test',
    TANDEM_MODEL_FAST: 'small-model',
    TANDEM_MODEL_MAX_RETRIES: 0,
  });
  try {
    const res = await relay.api('POST', '/v1/web/retrieve', {
      body: { url: `${site.url}/generated?n=3000`, mode: 'fast', fields: ['name'], cmd: 'the items' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toMatch(/fast mode, model small-model, \d+ chunks/);
    // Only the first round of chunks (4 at a time) is refused; the chunks made after it all fit.
    expect(model.contextRefusals).toBeGreaterThanOrEqual(1);
    expect(model.contextRefusals).toBeLessThanOrEqual(4);
  } finally {
    await relay.close();
    await model.close();
  }
});
