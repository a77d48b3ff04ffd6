import { type ModelServer, type RecordedRequest, type Reply, startModelServer } from '@tandem/e2e/fixtures';
import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionTool } from 'openai/resources/chat/completions';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

let server: ModelServer;
/** Servers a test starts for itself (own options, or to be closed mid-test); closed after each test. */
const extra: ModelServer[] = [];

beforeAll(async () => {
  server = await startModelServer({ models: ['fast-model', 'standard-model'] });
});
afterEach(async () => {
  server.reset();
  await Promise.all(extra.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await server?.close();
});

/** The real client; no retries and no logging unless a test asks, so failures surface at once. */
function client(options: ConstructorParameters<typeof OpenAI>[0] = {}, target: ModelServer = server): OpenAI {
  return new OpenAI({ baseURL: target.url, apiKey: 'test-key', maxRetries: 0, logLevel: 'off', ...options });
}

async function ownServer(options?: Parameters<typeof startModelServer>[0]): Promise<ModelServer> {
  const own = await startModelServer(options);
  extra.push(own);
  return own;
}

const clickTool: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'click',
    description: 'Click an element by index',
    parameters: { type: 'object', properties: { index: { type: 'integer' } }, required: ['index'] },
  },
};

const messages = [
  { role: 'system' as const, content: 'You are Tandem.' },
  { role: 'user' as const, content: 'Open the pricing page' },
];

describe('plain completions', () => {
  it('answers with the scripted text, echoes the model and records the request as sent', async () => {
    server.script({ kind: 'content', content: 'Hello from the script' });
    const completion = await client().chat.completions.create({
      model: 'fast-model',
      messages,
      temperature: 0.3,
      tools: [clickTool],
    });

    expect(completion.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'Hello from the script' });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.model).toBe('fast-model');
    expect(completion.object).toBe('chat.completion');
    expect(completion.id).toMatch(/^chatcmpl-[A-Za-z0-9]{29}$/);
    expect(completion.created).toBeCloseTo(Date.now() / 1000, -1);

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ index: 1, method: 'POST', path: '/v1/chat/completions' });
    expect(request!.headers.authorization).toBe('Bearer test-key');
    expect(request!.body).toMatchObject({ model: 'fast-model', messages, temperature: 0.3, tools: [clickTool] });
    expect(request!.timestamp).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.parse(request!.rawBody)).toEqual(request!.body);
  });

  it('sends a json reply as JSON text and only records response_format', async () => {
    const decision = { memory: 'on home', next_goal: 'open pricing', actions: [{ click: { index: 3 } }] };
    server.script({ kind: 'json', value: decision });
    const responseFormat = {
      type: 'json_schema' as const,
      json_schema: { name: 'decision', strict: true, schema: { type: 'object' } },
    };
    const completion = await client().chat.completions.create({
      model: 'standard-model',
      messages,
      response_format: responseFormat,
    });

    expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual(decision);
    expect(server.requests[0]!.body!.response_format).toEqual(responseFormat);
  });

  it('takes replies in the order they were scripted', async () => {
    server.script({ kind: 'content', content: 'one' }, { kind: 'content', content: 'two' });
    expect(server.pending).toBe(2);
    const openai = client();
    const first = await openai.chat.completions.create({ model: 'm', messages });
    const second = await openai.chat.completions.create({ model: 'm', messages });
    expect([first.choices[0]!.message.content, second.choices[0]!.message.content]).toEqual(['one', 'two']);
    expect(server.pending).toBe(0);
  });

  it('lets a reply function choose from the prompt it receives', async () => {
    server.script((request) => {
      const last = request.body?.messages?.at(-1)?.content;
      return { kind: 'content', content: `you said: ${String(last)}` };
    });
    const completion = await client().chat.completions.create({ model: 'm', messages });
    expect(completion.choices[0]!.message.content).toBe('you said: Open the pricing page');
  });

  it('reports a truncated answer with finish_reason length', async () => {
    server.script({ kind: 'content', content: '{"memory": "cut of', finishReason: 'length' });
    const completion = await client().chat.completions.create({ model: 'm', messages });
    expect(completion.choices[0]!.finish_reason).toBe('length');
  });

  it('lists the configured models for clients that probe them', async () => {
    const openai = client();
    const ids: string[] = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    expect(ids).toEqual(['fast-model', 'standard-model']);
    expect((await openai.models.retrieve('standard-model')).id).toBe('standard-model');
    await expect(openai.models.retrieve('nope')).rejects.toMatchObject({ status: 404 });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/models',
      'GET /v1/models/standard-model',
      'GET /v1/models/nope',
    ]);
  });

  it('answers an unknown path with a 404 that names the route', async () => {
    const res = await fetch(`${server.url}/completions`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('POST /v1/completions');
    expect(server.requests).toHaveLength(1);
  });
});

describe('tool calls', () => {
  it('returns a tool call whose arguments parse back to the scripted object', async () => {
    server.script({ kind: 'tool_call', name: 'click', arguments: { index: 7 }, id: 'call_fixed' });
    const completion = await client().chat.completions.create({ model: 'm', messages, tools: [clickTool] });

    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls![0]!;
    expect(call).toMatchObject({ id: 'call_fixed', type: 'function' });
    if (call.type !== 'function') throw new Error('expected a function call');
    expect(call.function.name).toBe('click');
    expect(typeof call.function.arguments).toBe('string');
    expect(JSON.parse(call.function.arguments)).toEqual({ index: 7 });
  });

  it('returns several tool calls in one message and sends string arguments verbatim', async () => {
    server.script({
      kind: 'tool_calls',
      content: 'Doing two things',
      calls: [
        { name: 'click', arguments: { index: 1 } },
        { name: 'click', arguments: '{"index": 2' },
      ],
    });
    const completion = await client().chat.completions.create({ model: 'm', messages, tools: [clickTool] });

    const message = completion.choices[0]!.message;
    expect(message.content).toBe('Doing two things');
    const calls = message.tool_calls!.map((c) => (c.type === 'function' ? c.function.arguments : ''));
    expect(calls).toEqual(['{"index":1}', '{"index": 2']);
    const ids = message.tool_calls!.map((c) => c.id);
    expect(ids[0]).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(new Set(ids).size).toBe(2);
  });

  it("runs the client's runTools loop and records the tool result it sends back", async () => {
    server.script(
      { kind: 'tool_call', name: 'get_price', arguments: { item: 'pro' }, id: 'call_price' },
      { kind: 'content', content: 'The pro plan costs $20.' },
    );
    const runner = client().chat.completions.runTools({
      model: 'm',
      messages,
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_price',
            description: 'Price of a plan',
            parameters: { type: 'object', properties: { item: { type: 'string' } } },
            parse: JSON.parse,
            function: (args: { item: string }) => `${args.item}: $20`,
          },
        },
      ],
    });

    expect(await runner.finalContent()).toBe('The pro plan costs $20.');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body!.messages!.at(-1)).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_price',
      content: 'pro: $20',
    });
  });
});

describe('streaming', () => {
  it('streams content deltas that the client assembles, with a usage chunk when asked', async () => {
    const text = 'A longer answer that the server splits into several deltas.';
    server.script({ kind: 'content', content: text, usage: { prompt_tokens: 11, completion_tokens: 5 } });
    const stream = await client().chat.completions.create({
      model: 'fast-model',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);

    const assembled = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(assembled).toBe(text);
    expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBeGreaterThan(3);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'fast-model')).toBe(true);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 });
    expect(server.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('sends no usage chunk when the request does not ask for one', async () => {
    server.script({ kind: 'content', content: 'short' });
    const stream = await client().chat.completions.create({ model: 'm', messages, stream: true });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.choices.length === 1 && c.usage === undefined)).toBe(true);
  });

  it('streams tool calls with incremental arguments that the stream helper assembles', async () => {
    server.script({
      kind: 'tool_calls',
      calls: [
        { name: 'click', arguments: { index: 12, reason: 'open the pricing page' }, id: 'call_a' },
        { name: 'click', arguments: { index: 13 }, id: 'call_b' },
      ],
    });
    const stream = client().chat.completions.stream({ model: 'm', messages, tools: [clickTool] });
    const fragments: string[] = [];
    stream.on('tool_calls.function.arguments.delta', (event) => fragments.push(event.arguments_delta));
    const completion = await stream.finalChatCompletion();

    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    const calls = completion.choices[0]!.message.tool_calls!;
    expect(calls.map((c) => c.id)).toEqual(['call_a', 'call_b']);
    expect(calls.map((c) => (c.type === 'function' ? JSON.parse(c.function.arguments) : null))).toEqual([
      { index: 12, reason: 'open the pricing page' },
      { index: 13 },
    ]);
    expect(fragments.length).toBeGreaterThan(2);
  });

  it('runs a streaming runTools loop', async () => {
    server.script({ kind: 'tool_call', name: 'now', arguments: {} }, { kind: 'content', content: 'It is noon.' });
    const runner = client().chat.completions.runTools({
      model: 'm',
      messages,
      stream: true,
      tools: [
        {
          type: 'function',
          function: {
            name: 'now',
            description: 'Current time',
            parameters: { type: 'object' },
            function: () => 'noon',
          },
        },
      ],
    });
    expect(await runner.finalContent()).toBe('It is noon.');
    expect(server.requests.map((r) => r.body?.messages?.at(-1)?.role)).toEqual(['user', 'tool']);
  });
});

describe('errors and faults', () => {
  it("recovers from a 429 through the client's own retry, recording both requests", async () => {
    server.script(
      { kind: 'error', status: 429, headers: { 'retry-after': '0' } },
      { kind: 'content', content: 'after the rate limit' },
    );
    const completion = await client({ maxRetries: 2 }).chat.completions.create({ model: 'm', messages });

    expect(completion.choices[0]!.message.content).toBe('after the rate limit');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body).toEqual(server.requests[0]!.body);
  });

  it('surfaces a 429 as RateLimitError with its headers and OpenAI error body when retries are off', async () => {
    server.script({ kind: 'error', status: 429, message: 'Slow down', headers: { 'retry-after': '7' } });
    const error = await client()
      .chat.completions.create({ model: 'm', messages })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimit = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rateLimit.status).toBe(429);
    expect(rateLimit.headers?.get('retry-after')).toBe('7');
    expect(rateLimit.error).toEqual({
      message: 'Slow down',
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    });
  });

  it('surfaces a 500 as OpenAI.APIError with its status when retries are 0', async () => {
    server.script({ kind: 'error', status: 500 });
    const error = await client()
      .chat.completions.create({ model: 'm', messages })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(500);
    expect(server.requests).toHaveLength(1);
  });

  it('sends a custom error body as given', async () => {
    server.script({ kind: 'error', status: 400, body: { error: { message: 'bad tools', code: 'invalid_tools' } } });
    await expect(client().chat.completions.create({ model: 'm', messages })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_tools',
      message: '400 bad tools',
    });
  });

  it('makes the client throw on a garbage body, and records the request', async () => {
    server.script({ kind: 'garbage', text: '{"choices": [ oops' });
    await expect(client().chat.completions.create({ model: 'm', messages })).rejects.toThrow(SyntaxError);
    expect(server.requests).toHaveLength(1);
  });

  it('makes a streaming client throw on a garbage event', async () => {
    server.script({ kind: 'garbage', text: 'not json at all' });
    const stream = await client().chat.completions.create({ model: 'm', messages, stream: true });
    await expect(
      (async () => {
        for await (const _chunk of stream) {
          // draining the stream is what parses it
        }
      })(),
    ).rejects.toThrow(SyntaxError);
  });

  it('lets the client time out on a hung reply', async () => {
    server.script({ kind: 'hang' });
    await expect(client({ timeout: 200 }).chat.completions.create({ model: 'm', messages })).rejects.toBeInstanceOf(
      OpenAI.APIConnectionTimeoutError,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('closes promptly while a request hangs, failing the waiting client', async () => {
    const own = await ownServer();
    own.script({ kind: 'hang' });
    const pending = client({ timeout: 60_000 }, own)
      .chat.completions.create({ model: 'm', messages })
      .catch((e: unknown) => e);
    await vi.waitFor(() => expect(own.requests).toHaveLength(1));

    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await pending).toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it('cancels a pending delay on close', async () => {
    const own = await ownServer();
    own.script({ kind: 'delay', ms: 60_000, reply: { kind: 'content', content: 'too late' } });
    const pending = client({}, own)
      .chat.completions.create({ model: 'm', messages })
      .catch((e: unknown) => e);
    await vi.waitFor(() => expect(own.requests).toHaveLength(1));
    await own.close();
    expect(await pending).toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it('answers a delayed reply after the others, so replies can be ordered', async () => {
    // Async, with a function inside the delay: nested replies resolve however they are written.
    const byPrompt = async (request: RecordedRequest): Promise<Reply> =>
      request.body?.messages?.at(-1)?.content === 'slow'
        ? { kind: 'delay', ms: 150, reply: () => ({ kind: 'content', content: 'slow' }) }
        : { kind: 'content', content: 'fast' };
    server.script(byPrompt, byPrompt);
    const openai = client();
    const order: string[] = [];
    const ask = (prompt: string) =>
      openai.chat.completions
        .create({ model: 'm', messages: [{ role: 'user', content: prompt }] })
        .then((c) => order.push(c.choices[0]!.message.content!));
    await Promise.all([ask('slow'), ask('fast')]);
    expect(order).toEqual(['fast', 'slow']);
  });

  it('records when a request arrived and when its answer was sent, so model time can be measured', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.script(async () => {
      await gate;
      return { kind: 'content', content: 'released' };
    });
    const pending = client().chat.completions.create({ model: 'm', messages });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    const request = server.requests[0]!;
    expect(request.receivedAt).toBeGreaterThan(0);
    expect(request.respondedAt).toBeUndefined();
    const releasedAt = performance.now();
    release();
    await pending;
    expect(request.respondedAt).toBeGreaterThanOrEqual(releasedAt);
    expect(request.respondedAt!).toBeGreaterThan(request.receivedAt);
  });

  it('fails loudly with a 500 naming the request when the script is used up, without client retries', async () => {
    server.script({ kind: 'content', content: 'only one' });
    const openai = client({ maxRetries: 2 });
    await openai.chat.completions.create({ model: 'm', messages });
    const error = await openai.chat.completions.create({ model: 'm', messages }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as Error).message).toMatch(
      /model server: no scripted reply left for request #2 \(1 scripted reply was used; last message: user: "Open the pricing page"\)/,
    );
    expect(server.requests).toHaveLength(2);
  });

  it('answers from the fallback reply once the script is used up', async () => {
    const own = await ownServer({ fallback: { kind: 'json', value: { done: true } } });
    const openai = client({}, own);
    for (let i = 0; i < 2; i++) {
      const completion = await openai.chat.completions.create({ model: 'm', messages });
      expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual({ done: true });
    }
  });

  it('rejects a body that is not JSON with a 400 without using a scripted reply', async () => {
    server.script({ kind: 'content', content: 'kept' });
    const res = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{nope' });
    expect(res.status).toBe(400);
    expect(server.pending).toBe(1);
    expect(server.requests[0]).toMatchObject({ rawBody: '{nope', body: undefined });
  });
});

describe('usage and reset', () => {
  it('returns scripted usage numbers, totals included', async () => {
    server.script({
      kind: 'tool_call',
      name: 'click',
      arguments: { index: 1 },
      usage: { prompt_tokens: 1200, completion_tokens: 30, cached_tokens: 1024 },
    });
    const completion = await client().chat.completions.create({ model: 'm', messages });
    expect(completion.usage).toMatchObject({
      prompt_tokens: 1200,
      completion_tokens: 30,
      total_tokens: 1230,
      prompt_tokens_details: { cached_tokens: 1024 },
    });
  });

  it('estimates usage from characters when the reply sets none', async () => {
    const content = 'x'.repeat(40);
    server.script({ kind: 'content', content });
    const completion = await client().chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'y'.repeat(80) }],
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
  });

  it('forgets queued replies and recorded requests on reset, keeping the same requests array', async () => {
    const recorded = server.requests;
    server.script({ kind: 'content', content: 'used' }, { kind: 'content', content: 'dropped' });
    await client().chat.completions.create({ model: 'm', messages });
    server.reset();
    expect(server.pending).toBe(0);
    expect(recorded).toHaveLength(0);
    expect(server.requests).toBe(recorded);
    await expect(client().chat.completions.create({ model: 'm', messages })).rejects.toThrow(
      /no scripted reply left for request #1/,
    );
  });
});
