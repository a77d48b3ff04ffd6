import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from './support';

let relay: TestRelay;
beforeAll(async () => {
  relay = await startTestRelay();
});
afterAll(() => relay?.close());

const detail = async (path: string, body: unknown, rawBody?: string) => {
  const res = await relay.api('POST', path, rawBody === undefined ? { body } : { rawBody });
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  return (res.body as { detail: Record<string, unknown>[] }).detail;
};

describe('422 validation errors in the FastAPI shape', () => {
  it('reports a missing required field', async () => {
    expect(await detail('/v1/web/browse', {})).toEqual([
      { loc: ['body', 'cmd'], msg: 'Field required', type: 'missing' },
    ]);
    expect(await detail('/v1/web/session', { local: false })).toEqual([
      { loc: ['body', 'url'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('requires stream on step and cmd on retrieve', async () => {
    expect(await detail('/v1/web/session/ses_n0_x', { cmd: 'go' })).toEqual([
      { loc: ['body', 'stream'], msg: 'Field required', type: 'missing' },
    ]);
    expect(await detail('/v1/web/retrieve', { url: 'https://example.com' })).toEqual([
      { loc: ['body', 'cmd'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('reports a wrong type with the offending input', async () => {
    expect(await detail('/v1/web/browse', { cmd: 42 })).toEqual([
      { loc: ['body', 'cmd'], msg: 'Input should be a valid string', type: 'string_type', input: 42 },
    ]);
    expect(await detail('/v1/web/browse', { cmd: 'x', include_screenshot: 'yes' })).toEqual([
      {
        loc: ['body', 'include_screenshot'],
        msg: 'Input should be a valid boolean, unable to interpret input',
        type: 'bool_parsing',
        input: 'yes',
      },
    ]);
    expect(await detail('/v1/web/browse', { cmd: 'x', local: [true] })).toEqual([
      { loc: ['body', 'local'], msg: 'Input should be a valid boolean', type: 'bool_type', input: [true] },
    ]);
    expect(await detail('/v1/web/browse', { cmd: 'x', max_steps: 'five' })).toEqual([
      {
        loc: ['body', 'max_steps'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        type: 'int_parsing',
        input: 'five',
      },
    ]);
    expect(await detail('/v1/web/retrieve', { cmd: 'x', fields: 'name' })).toEqual([
      { loc: ['body', 'fields'], msg: 'Input should be a valid list', type: 'list_type', input: 'name' },
    ]);
    expect(await detail('/v1/web/retrieve', { cmd: 'x', fields: ['name', 3] })).toEqual([
      { loc: ['body', 'fields', 1], msg: 'Input should be a valid string', type: 'string_type', input: 3 },
    ]);
    expect(await detail('/v1/web/session', { url: 'https://example.com', browser_params: { width: 'wide' } })).toEqual([
      {
        loc: ['body', 'browser_params', 'width'],
        msg: 'Input should be a valid number, unable to parse string as a number',
        type: 'float_parsing',
        input: 'wide',
      },
    ]);
    expect(await detail('/v1/web/session', { url: 'https://example.com', browser_params: { width: null } })).toEqual([
      {
        loc: ['body', 'browser_params', 'width'],
        msg: 'Input should be a valid number',
        type: 'float_type',
        input: null,
      },
    ]);
  });

  it('bounds the viewport size', async () => {
    expect(await detail('/v1/web/session', { url: 'https://example.com', browser_params: { width: 20000 } })).toEqual([
      {
        loc: ['body', 'browser_params', 'width'],
        msg: 'Input should be less than or equal to 8192',
        type: 'less_than_equal',
        input: 20000,
        ctx: { le: 8192 },
      },
    ]);
  });

  it('reports a bad enum value with the allowed values', async () => {
    expect(await detail('/v1/web/browse', { cmd: 'x', mode: 'turbo' })).toEqual([
      {
        loc: ['body', 'mode'],
        msg: "Input should be 'fast' or 'standard'",
        type: 'enum',
        input: 'turbo',
        ctx: { expected: "'fast' or 'standard'" },
      },
    ]);
    expect(await detail('/v1/web/retrieve', { cmd: 'x', format: 'xml' })).toEqual([
      {
        loc: ['body', 'format'],
        msg: "Input should be 'json' or 'markdown'",
        type: 'enum',
        input: 'xml',
        ctx: { expected: "'json' or 'markdown'" },
      },
    ]);
  });

  it('reports a body that is not JSON as json_invalid', async () => {
    const [issue] = await detail('/v1/web/browse', undefined, '{"cmd": "x",');
    expect(issue).toEqual({
      type: 'json_invalid',
      msg: 'JSON decode error',
      loc: ['body', expect.any(Number)],
      input: {},
      ctx: { error: expect.any(String) },
    });
  });

  it('reports an empty or non-object body', async () => {
    expect(await detail('/v1/web/browse', undefined, '')).toEqual([
      { loc: ['body'], msg: 'Field required', type: 'missing' },
    ]);
    expect(await detail('/v1/web/browse', ['cmd'])).toEqual([
      {
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        type: 'model_attributes_type',
        input: ['cmd'],
      },
    ]);
  });

  it('rejects max_steps below 1 and fractional max_steps', async () => {
    expect(await detail('/v1/web/browse', { cmd: 'x', max_steps: 0 })).toEqual([
      {
        loc: ['body', 'max_steps'],
        msg: 'Input should be greater than or equal to 1',
        type: 'greater_than_equal',
        input: 0,
        ctx: { ge: 1 },
      },
    ]);
    const [fraction] = await detail('/v1/web/browse', { cmd: 'x', max_steps: 2.5 });
    expect(fraction).toMatchObject({ loc: ['body', 'max_steps'], type: 'int_from_float', input: 2.5 });
  });

  it('rejects a negative max_items', async () => {
    expect(await detail('/v1/web/retrieve', { cmd: 'x', max_items: -1 })).toEqual([
      {
        loc: ['body', 'max_items'],
        msg: 'Input should be greater than or equal to 0',
        type: 'greater_than_equal',
        input: -1,
        ctx: { ge: 0 },
      },
    ]);
  });

  it('lists every problem at once', async () => {
    const issues = await detail('/v1/web/browse', { mode: 'x', max_steps: 0, local: 'no' });
    expect(issues.map((i) => (i.loc as string[])[1]).sort()).toEqual(['cmd', 'local', 'max_steps', 'mode']);
  });

  it('ignores unknown body fields', async () => {
    // Validation passes with the extra field; the request then fails on what it asked for (an unknown agent).
    const res = await relay.api('POST', '/v1/web/browse', {
      body: { cmd: 'x', colour: 'blue', agent_id: 'agt_missing' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Unknown agent_id "agt_missing"/);
  });
});
