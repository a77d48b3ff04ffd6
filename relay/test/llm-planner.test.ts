// The LLM planner against the scripted OpenAI-compatible server, over HTTP, through the real openai client.
import { Writable } from 'node:stream';
import { type ModelServer, type RecordedRequest, type Reply, startModelServer } from '@tandem/e2e/fixtures';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LlmPlanner, type LlmPlannerOptions } from '../src/agent/llm/index';
import { DECISION_JSON_SCHEMA, STRICT_DECISION_JSON_SCHEMA } from '../src/agent/llm/schema';
import { PlannerError, type StepRecord, UnusableDecision } from '../src/agent/planner';
import { createPlanner, PlannerConfigError } from '../src/agent/planners';
import { loadConfig } from '../src/config';
import { ModelClient } from '../src/model/index';
import { planInput, textSnapshot } from './plan-input';

const API_KEY = 'sk-test-secret-key-0123456789';

let server: ModelServer;
let logLines: string[] = [];
const logger = pino(
  { level: 'debug' },
  new Writable({
    write(chunk, _encoding, callback) {
      logLines.push(String(chunk));
      callback();
    },
  }),
);

beforeAll(async () => {
  server = await startModelServer({ models: ['fast-model', 'standard-model'] });
});
afterEach(() => {
  server.reset();
  logLines = [];
});
afterAll(async () => {
  await server?.close();
});

function planner(options: Partial<LlmPlannerOptions> = {}, target: ModelServer = server): LlmPlanner {
  return new LlmPlanner({
    baseURL: target.url,
    apiKey: API_KEY,
    models: { fast: 'fast-model', standard: 'standard-model' },
    maxRetries: 0,
    logger,
    ...options,
  });
}

const snapshot = textSnapshot;
const input = planInput;

const decision = {
  memory: 'Plan: open Mugs, find the red mug.',
  next_goal: 'Open the mugs page',
  actions: [{ action: 'click', index: 1 }],
};
const decide = (value: unknown = decision) => ({ kind: 'tool_call' as const, name: 'decide', arguments: value });

const body = (request: RecordedRequest | undefined) => {
  if (!request?.body) throw new Error('no request recorded');
  return request.body;
};
const messageText = (request: RecordedRequest | undefined, role: string) =>
  body(request)
    .messages?.filter((m) => m.role === role)
    .map((m) => (typeof m.content === 'string' ? m.content : ''))
    .join('\n') ?? '';

async function plannerError(promise: Promise<unknown>): Promise<PlannerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlannerError);
  return error as PlannerError;
}

describe('tools mode (the default)', () => {
  it('sends one forced decision tool generated from the action schema and returns the decision', async () => {
    server.script({ ...decide(), usage: { prompt_tokens: 1200, completion_tokens: 40, cached_tokens: 1024 } });
    const result = await planner().plan(input());

    expect(result).toEqual({
      memory: decision.memory,
      nextGoal: 'Open the mugs page',
      actions: [{ action: 'click', index: 1, double: false }],
      usage: { promptTokens: 1200, completionTokens: 40, cachedTokens: 1024 },
      model: 'fast-model',
    });
    const request = body(server.requests[0]);
    expect(request.model).toBe('fast-model');
    expect(request.tools).toEqual([
      {
        type: 'function',
        function: { name: 'decide', description: expect.any(String), parameters: DECISION_JSON_SCHEMA },
      },
    ]);
    expect(request.tool_choice).toEqual({ type: 'function', function: { name: 'decide' } });
    expect(request.response_format).toBeUndefined();
    expect(request.messages?.map((m) => m.role)).toEqual(['system', 'user']);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('keeps page actions and drops done when the model mixes them', async () => {
    server.script(
      decide({
        ...decision,
        actions: [
          { action: 'click', index: 1 },
          { action: 'done', message: 'x' },
        ],
      }),
    );
    const result = await planner().plan(input());
    expect(result.actions).toEqual([{ action: 'click', index: 1, double: false }]);
  });

  it('accepts actions called as separate tools', async () => {
    server.script({
      kind: 'tool_calls',
      calls: [
        { name: 'type', arguments: { index: 2, text: 'red mug', submit: true } },
        { name: 'wait', arguments: { until_text: 'results' } },
      ],
    });
    const result = await planner().plan(input());
    expect(result.actions).toEqual([
      { action: 'type', index: 2, text: 'red mug', clear: true, submit: true },
      { action: 'wait', until_text: 'results' },
    ]);
  });
});

describe('prompts', () => {
  it('sends a byte-identical system message on different steps and sessions', async () => {
    server.script(decide(), decide(), decide());
    await planner().plan(input());
    await planner().plan(
      input({
        task: 'Something else entirely',
        step: 7,
        history: [
          {
            step: 6,
            task: 'Something else entirely',
            goal: 'g',
            actions: [{ action: { action: 'go_back' }, code: 'ok', message: 'Went back.' }],
            url: 'https://shop.test/',
            events: [],
          },
        ],
        memory: 'remember this',
        skills: ['a rule'],
        instructions: 'be brief',
        nudges: ['a nudge'],
        snapshot: snapshot('[9]<button>Other</>'),
        mode: 'standard',
      }),
    );
    const [first, second] = server.requests.map((r) => body(r).messages![0]!);
    expect(first!.role).toBe('system');
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(messageText(server.requests[0], 'user')).not.toBe(messageText(server.requests[1], 'user'));
  });

  it('puts the task, history, memory, skills, instructions, nudges, budget and indexed snapshot in the user message', async () => {
    const history: StepRecord[] = [
      {
        step: 1,
        task: 'Find the price of the red mug',
        goal: 'Open the mugs page',
        actions: [
          { action: { action: 'click', index: 1, double: false }, code: 'navigation', message: 'Opened /mugs.' },
        ],
        url: 'https://shop.test/mugs',
        events: [],
      },
      {
        step: 2,
        task: 'Find the price of the red mug',
        goal: 'Search for it',
        actions: [
          {
            action: { action: 'type', index: 2, text: 'red', clear: true, submit: false },
            code: 'ok',
            message: 'Typed.',
          },
        ],
        url: 'https://shop.test/mugs',
        events: [],
      },
    ];
    server.script(decide());
    await planner().plan(
      input({
        step: 20,
        history,
        memory: 'The mugs are under Kitchen.',
        skills: ['Prices on shop.test exclude VAT.'],
        instructions: 'Always answer in French.',
        nudges: ['You typed into [2] twice; try something else.'],
        snapshot: snapshot('[5]<button>Red mug — 12 €</>'),
      }),
    );
    const user = messageText(server.requests[0], 'user');
    expect(user).toContain('# Task\nFind the price of the red mug');
    expect(user).toContain('Step 1: goal: Open the mugs page | click(index=1) → navigation: Opened /mugs.');
    expect(user).toContain('Step 2: goal: Search for it | type(index=2, text="red") → ok: Typed.');
    expect(user).toContain('The mugs are under Kitchen.');
    expect(user).toContain('- Prices on shop.test exclude VAT.');
    expect(user).toContain('Always answer in French.');
    expect(user).toContain('- You typed into [2] twice; try something else.');
    expect(user).toContain('Step 20 of 20. This is the last step: you must finish now. Answer with done alone');
    expect(user).toContain('<page_snapshot>\n[5]<button>Red mug — 12 €</>\n</page_snapshot>');
    // Only the newest snapshot is sent: none of the history carries page text.
    expect(user.match(/<page_snapshot>/g)).toHaveLength(1);
  });

  it('leaves out skills and instructions when none are given', async () => {
    server.script(decide());
    await planner().plan(input());
    const user = messageText(server.requests[0], 'user');
    expect(user).not.toContain('Rules for this site');
    expect(user).not.toContain('Agent instructions');
    expect(user).toContain('Step 1 of 20.');
  });
});

describe('models, temperature, usage', () => {
  it('picks the model by mode and passes the temperature through only when given', async () => {
    server.script(decide(), decide());
    const p = planner();
    const standard = await p.plan(input({ mode: 'standard', temperature: 0.3 }));
    await p.plan(input({ mode: 'fast' }));
    expect(standard.model).toBe('standard-model');
    expect(body(server.requests[0]).model).toBe('standard-model');
    expect(body(server.requests[0]).temperature).toBe(0.3);
    expect(body(server.requests[1]).model).toBe('fast-model');
    expect(body(server.requests[1])).not.toHaveProperty('temperature');
  });

  it('logs each call at debug with model, time and tokens, never the API key', async () => {
    server.script({ ...decide(), usage: { prompt_tokens: 10, completion_tokens: 5, cached_tokens: 2 } });
    await planner().plan(input());
    const calls = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'model call');
    expect(calls).toEqual([
      expect.objectContaining({
        level: 20,
        model: 'fast-model',
        mode: 'tools',
        promptTokens: 10,
        completionTokens: 5,
        cachedTokens: 2,
      }),
    ]);
    expect(typeof calls[0].ms).toBe('number');
    expect(logLines.join('')).not.toContain(API_KEY);
  });
});

describe('strict JSON schema mode', () => {
  it('sends a strict response_format and reads the JSON content (nulls mean "not given")', async () => {
    server.script({
      kind: 'json',
      value: { ...decision, actions: [{ action: 'scroll', direction: 'down', index: null, amount: null }] },
    });
    const p = planner({ output: 'json_schema' });
    const result = await p.plan(input());
    expect(result.actions).toEqual([{ action: 'scroll', direction: 'down', amount: 1 }]);
    const request = body(server.requests[0]);
    expect(request.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'decision', strict: true, schema: STRICT_DECISION_JSON_SCHEMA },
    });
    expect(request.tools).toBeUndefined();
    expect(messageText(server.requests[0], 'system')).toContain('matches the response schema');
  });

  it('turns a refusal into a non-retriable PlannerError', async () => {
    // The script has no refusal kind; a raw body carries one exactly as OpenAI sends it.
    const completion = {
      id: 'chatcmpl-refusal',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'fast-model',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: null, refusal: "I can't help with that." },
          finish_reason: 'stop',
        },
      ],
    };
    server.script({ kind: 'garbage', text: JSON.stringify(completion) });
    const error = await plannerError(planner({ output: 'json_schema' }).plan(input()));
    expect(error).toMatchObject({ retriable: false, message: `model "fast-model" refused: I can't help with that.` });
  });
});

describe('prompt mode', () => {
  it('puts the schema in the system prompt and reads JSON from fenced, chatty text', async () => {
    server.script({
      kind: 'content',
      content: `Okay, here is my decision:\n\`\`\`json\n${JSON.stringify({ ...decision, actions: [{ action: 'click', index: '1' }] }, null, 2)},\n\`\`\`\nDone.`,
    });
    const result = await planner({ output: 'prompt' }).plan(input());
    expect(result.actions).toEqual([{ action: 'click', index: 1, double: false }]);
    const request = body(server.requests[0]);
    expect(request.tools).toBeUndefined();
    expect(request.response_format).toBeUndefined();
    const system = messageText(server.requests[0], 'system');
    expect(system).toContain('It must match this JSON Schema');
    expect(system).toContain('"required":["memory","next_goal","actions"]');
  });
});

describe('auto fallback', () => {
  it('learns per model: the fast model answering without a tool call moves only the fast model to prompt mode', async () => {
    server.script(
      { kind: 'content', content: JSON.stringify(decision) },
      decide(),
      { kind: 'json', value: decision },
      decide(),
    );
    const p = planner();
    await p.plan(input({ mode: 'fast' }));
    await p.plan(input({ mode: 'standard' }));
    await p.plan(input({ mode: 'fast', step: 2 }));
    await p.plan(input({ mode: 'standard', step: 2 }));
    expect(p.outputMode('fast')).toBe('prompt');
    expect(p.outputMode('standard')).toBe('tools');
    const sent = server.requests.map((r) => [body(r).model, body(r).tools === undefined ? 'words' : 'tools']);
    expect(sent).toEqual([
      ['fast-model', 'tools'],
      ['standard-model', 'tools'],
      ['fast-model', 'words'],
      ['standard-model', 'tools'],
    ]);
  });

  it('shares what it learnt through one model client, and a model client of another endpoint learns apart', async () => {
    const other = await startModelServer({ models: ['fast-model'] });
    try {
      const client = new ModelClient({
        baseURL: server.url,
        apiKey: API_KEY,
        timeoutMs: 10_000,
        maxRetries: 0,
        output: 'auto',
        maxTokens: 1024,
        logger,
      });
      server.script(
        { kind: 'error', status: 400, message: "this model does not support 'tools'" },
        { kind: 'json', value: decision },
      );
      await planner({ client }).plan(input());
      // A second planner on the same client starts where the first left off: no refused request again.
      server.script({ kind: 'json', value: decision });
      await planner({ client }).plan(input({ step: 2 }));
      expect(server.requests.map((r) => body(r).tools !== undefined)).toEqual([true, false, false]);
      other.script(decide());
      await planner({}, other).plan(input());
      expect(body(other.requests[0]).tools).toBeDefined();
    } finally {
      await other.close();
    }
  });

  it('falls back to strict JSON schema when the endpoint answers 400 to tools, and remembers it', async () => {
    server.script(
      { kind: 'error', status: 400, message: "this model does not support 'tools'" },
      { kind: 'json', value: decision },
      { kind: 'json', value: decision },
    );
    const p = planner();
    expect(p.outputMode()).toBe('tools');
    expect((await p.plan(input())).actions).toHaveLength(1);
    expect(p.outputMode()).toBe('json_schema');
    await p.plan(input({ step: 2 }));

    expect(server.requests).toHaveLength(3);
    expect(body(server.requests[0]).tools).toBeDefined();
    expect(body(server.requests[1]).tools).toBeUndefined();
    expect(body(server.requests[1]).response_format).toMatchObject({ type: 'json_schema' });
    expect(body(server.requests[2]).response_format).toMatchObject({ type: 'json_schema' });
  });

  it('falls back to the schema in the prompt when response_format is refused too', async () => {
    server.script(
      { kind: 'error', status: 400, message: 'tools not supported' },
      { kind: 'error', status: 400, message: 'response_format json_schema not supported' },
      { kind: 'content', content: JSON.stringify(decision) },
    );
    const p = planner();
    await p.plan(input());
    expect(p.outputMode()).toBe('prompt');
    const last = body(server.requests[2]);
    expect(last.tools).toBeUndefined();
    expect(last.response_format).toBeUndefined();
    expect(messageText(server.requests[2], 'system')).toContain('It must match this JSON Schema');
  });

  it('switches to prompt mode when the model answers without a tool call, using a usable answer', async () => {
    server.script({ kind: 'content', content: JSON.stringify(decision) }, { kind: 'json', value: decision });
    const p = planner();
    expect((await p.plan(input())).actions).toEqual([{ action: 'click', index: 1, double: false }]);
    expect(server.requests).toHaveLength(1);
    expect(p.outputMode()).toBe('prompt');
    await p.plan(input({ step: 2 }));
    expect(body(server.requests[1]).tools).toBeUndefined();
  });

  it('asks again in prompt mode when the reply without a tool call is not a decision', async () => {
    server.script({ kind: 'content', content: 'I would click on Mugs.' }, { kind: 'json', value: decision });
    const p = planner();
    expect((await p.plan(input())).actions).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    expect(body(server.requests[1]).tools).toBeUndefined();
    expect(messageText(server.requests[1], 'system')).toContain('It must match this JSON Schema');
  });

  it('does not fall back when the mode is fixed', async () => {
    server.script({ kind: 'error', status: 400, message: 'tools not supported' });
    const error = await plannerError(planner({ output: 'tools' }).plan(input()));
    expect(error.retriable).toBe(false);
    expect(error.message).toContain('tools not supported');
    expect(server.requests).toHaveLength(1);
  });
});

describe('repair', () => {
  it('sends one repair request with the bad output and the validation errors (prompt mode)', async () => {
    server.script(
      {
        kind: 'content',
        content: '{"memory": "m", "next_goal": "g", "actions": [{"action": "click"}]}',
        usage: { prompt_tokens: 100, completion_tokens: 10 },
      },
      { kind: 'json', value: decision, usage: { prompt_tokens: 150, completion_tokens: 12, cached_tokens: 100 } },
    );
    const result = await planner({ output: 'prompt' }).plan(input());
    expect(result.actions).toEqual([{ action: 'click', index: 1, double: false }]);
    expect(result.usage).toEqual({ promptTokens: 250, completionTokens: 22, cachedTokens: 100 });

    expect(server.requests).toHaveLength(2);
    const messages = body(server.requests[1]).messages!;
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[0]).toEqual(body(server.requests[0]).messages![0]);
    expect(messages[2]!.content).toBe('{"memory": "m", "next_goal": "g", "actions": [{"action": "click"}]}');
    expect(messages[3]!.content).toMatch(/^Your reply could not be used:\n- actions\[0\] \(click\)\.index: /);
    expect(messages[3]!.content).toContain('Reply with the corrected JSON decision only');
  });

  it('answers a broken tool call with a tool message holding the errors (tools mode)', async () => {
    server.script(
      {
        kind: 'tool_call',
        id: 'call_bad',
        name: 'decide',
        arguments: '{"memory": "m", "actions": [{"action": "clik", "index": 1}',
      },
      decide(),
    );
    const result = await planner().plan(input());
    expect(result.nextGoal).toBe('Open the mugs page');
    const messages = body(server.requests[1]).messages!;
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(messages[2]!.tool_calls?.[0]).toMatchObject({ id: 'call_bad', function: { name: 'decide' } });
    expect(messages[3]).toMatchObject({ tool_call_id: 'call_bad' });
    expect(messages[3]!.content).toMatch(/not valid JSON/);
    expect(body(server.requests[1]).tool_choice).toEqual({ type: 'function', function: { name: 'decide' } });
  });

  it('gives up with an UnusableDecision (a failed step, with the tokens spent) when the repair is broken too', async () => {
    server.script(
      { kind: 'content', content: 'Sorry, I cannot.', usage: { prompt_tokens: 700, completion_tokens: 5 } },
      { kind: 'json', value: { actions: [] }, usage: { prompt_tokens: 800, completion_tokens: 6 } },
    );
    const error = await plannerError(planner({ output: 'prompt' }).plan(input()));
    expect(error).toBeInstanceOf(UnusableDecision);
    expect(error.retriable).toBe(false);
    expect(error.usage).toEqual({ promptTokens: 1500, completionTokens: 11, cachedTokens: 0 });
    expect(error.message).toMatch(
      /model "fast-model" did not produce a valid decision, even after a repair request: actions is empty/,
    );
    expect(server.requests).toHaveLength(2);
  });

  it('says when the reply was cut off at the token limit', async () => {
    server.script(
      { kind: 'content', content: '{"memory": "a very long', finishReason: 'length' },
      { kind: 'json', value: decision },
    );
    await planner({ output: 'prompt' }).plan(input());
    expect(messageText(server.requests[1], 'user')).toContain('cut off at the token limit');
  });
});

describe('failures', () => {
  it('retries 429 with backoff (the client honours retry-after) and then succeeds', async () => {
    const rateLimited: Reply = { kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after-ms': '1' } };
    server.script(rateLimited, rateLimited, decide());
    const result = await planner({ maxRetries: 2 }).plan(input());
    expect(result.actions).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
  });

  it('maps 429 past the retries to a retriable PlannerError', async () => {
    server.script({ kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after-ms': '1' } });
    const error = await plannerError(planner().plan(input()));
    expect(error).toMatchObject({ retriable: true });
    expect(error.message).toMatch(/rate limiting \(429\) after 0 retries: slow down/);
  });

  it('maps 500 after the retries are exhausted to a retriable PlannerError', async () => {
    const failure: Reply = { kind: 'error', status: 500, message: 'model crashed', headers: { 'retry-after-ms': '1' } };
    server.script(failure, failure);
    const error = await plannerError(planner({ maxRetries: 1 }).plan(input()));
    expect(error.retriable).toBe(true);
    expect(error.message).toBe(`the model endpoint ${server.url} failed with 500 after 1 retry: model crashed`);
    expect(server.requests).toHaveLength(2);
  });

  it('maps a timeout to a retriable PlannerError', async () => {
    server.script({ kind: 'hang' });
    const error = await plannerError(planner({ timeoutMs: 150 }).plan(input()));
    expect(error.retriable).toBe(true);
    expect(error.message).toMatch(/did not answer within 150 ms \(model "fast-model", 0 retries\)/);
  });

  it('maps an unreachable endpoint to a retriable PlannerError naming the base URL', async () => {
    const gone = await startModelServer();
    await gone.close();
    const error = await plannerError(planner({}, gone).plan(input()));
    expect(error.retriable).toBe(true);
    expect(error.message).toContain(`could not reach the model endpoint ${gone.url}`);
    expect(error.message).toContain('OPENAI_BASE_URL');
  });

  it('says what to check on 401 and 404, without retrying', async () => {
    server.script({ kind: 'error', status: 401, message: 'Incorrect API key' });
    const auth = await plannerError(planner().plan(input()));
    expect(auth).toMatchObject({ retriable: false });
    expect(auth.message).toContain('check OPENAI_API_KEY');
    expect(auth.message).not.toContain(API_KEY);

    server.script({ kind: 'error', status: 404, message: 'The model does not exist' });
    const missing = await plannerError(planner().plan(input({ mode: 'standard' })));
    expect(missing).toMatchObject({ retriable: false });
    expect(missing.message).toContain('no model "standard-model"');
    expect(missing.message).toContain('TANDEM_MODEL_FAST / TANDEM_MODEL_STANDARD');
  });

  it('maps a 200 whose body is not JSON to a PlannerError about the base URL', async () => {
    server.script({ kind: 'garbage', text: '<html>not an API</html>' });
    const error = await plannerError(planner().plan(input()));
    expect(error.retriable).toBe(false);
    expect(error.message).toMatch(/not JSON; check the base URL/);
  });

  it('stops when the step is cancelled', async () => {
    const controller = new AbortController();
    server.script(() => {
      controller.abort();
      return { kind: 'hang' };
    });
    const error = await plannerError(planner().plan(input({ signal: controller.signal })));
    expect(error).toMatchObject({ retriable: false, message: 'the model call was cancelled' });
  });
});

describe('choosing the planner (TANDEM_PLANNER)', () => {
  const config = (env: Record<string, string>) => loadConfig(env);

  it('refuses TANDEM_PLANNER=llm with no model configured, naming the settings to set', () => {
    const attempt = () => createPlanner(config({ TANDEM_PLANNER: 'llm', OPENAI_BASE_URL: server.url }), logger);
    expect(attempt).toThrow(PlannerConfigError);
    expect(attempt).toThrow(/TANDEM_PLANNER=llm needs a model: set TANDEM_MODEL_FAST and\/or TANDEM_MODEL_STANDARD/);
  });

  it('uses the LLM planner for TANDEM_PLANNER=llm with one model, and the built-in one in auto without a model', () => {
    const llm = createPlanner(
      config({ TANDEM_PLANNER: 'llm', OPENAI_BASE_URL: server.url, TANDEM_MODEL_STANDARD: 'standard-model' }),
      logger,
    );
    expect(llm.name).toBe('llm');
    expect(createPlanner(config({ OPENAI_BASE_URL: server.url }), logger).name).toBe('builtin');
  });
});
