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

  it('reports a body that is not JSON as json_invalid, at the position and in the words FastAPI uses', async () => {
    const [issue] = await detail('/v1/web/browse', undefined, '{"cmd": "x",');
    expect(issue).toEqual({
      type: 'json_invalid',
      msg: 'JSON decode error',
      loc: ['body', 12],
      input: {},
      ctx: { error: 'Expecting property name enclosed in double quotes' },
    });
    // V8 names no position for these; Python does.
    expect((await detail('/v1/web/browse', undefined, '{"cmd": }'))[0]).toMatchObject({
      loc: ['body', 8],
      ctx: { error: 'Expecting value' },
    });
    expect((await detail('/v1/web/retrieve', undefined, 'cmd=hello'))[0]).toMatchObject({ loc: ['body', 0] });
    const secret = `{"cmd": "${'s3cret'.repeat(10)}", "max_steps": 3 4}`;
    const [late] = await detail('/v1/web/browse', undefined, secret);
    expect(late).toMatchObject({ loc: ['body', secret.indexOf(' 4') + 1], ctx: { error: "Expecting ',' delimiter" } });
    expect(JSON.stringify(late)).not.toContain('s3cret');
  });

  it('caps cmd at 20,000 characters with a string_too_long that does not echo the whole cmd', async () => {
    const cmd = 'x'.repeat(20_001);
    for (const path of ['/v1/web/browse', '/v1/web/retrieve']) {
      const issues = await detail(path, { cmd });
      expect(issues).toEqual([
        {
          loc: ['body', 'cmd'],
          msg: 'String should have at most 20000 characters',
          type: 'string_too_long',
          input: `${'x'.repeat(99)}…`,
          ctx: { max_length: 20_000 },
        },
      ]);
    }
    expect(await detail('/v1/web/browse', { cmd: 'x', session_id: '' })).toEqual([
      {
        loc: ['body', 'session_id'],
        msg: 'String should have at least 1 character',
        type: 'string_too_short',
        input: '',
        ctx: { min_length: 1 },
      },
    ]);
    const res = await relay.api('POST', '/v1/web/session/ses_n0_unknown', { body: { cmd, stream: false } });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body).length).toBeLessThan(400);
    // Exactly at the limit passes validation (and then fails for the unknown session).
    const atLimit = await relay.api('POST', '/v1/web/session/ses_n0_unknown', {
      body: { cmd: 'x'.repeat(20_000), stream: false },
    });
    expect(atLimit.status).toBe(404);
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

  it('caps max_steps at TANDEM_MAX_STEPS, and the OpenAPI document says so', async () => {
    expect(await detail('/v1/web/browse', { cmd: 'x', max_steps: 101 })).toEqual([
      {
        loc: ['body', 'max_steps'],
        msg: 'Input should be less than or equal to 100',
        type: 'less_than_equal',
        input: 101,
        ctx: { le: 100 },
      },
    ]);
    const small = await startTestRelay({ TANDEM_MAX_STEPS: 5 });
    try {
      const res = await small.api('POST', '/v1/web/browse', { body: { cmd: 'x', max_steps: 6 } });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ detail: [{ type: 'less_than_equal', ctx: { le: 5 } }] });
      const doc = (await small.api('GET', '/v1/openapi.json')).body as {
        components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
      };
      const { max_steps, cmd } = doc.components.schemas.BrowseRequest!.properties;
      // Below the contract's default of 20, the default follows the cap.
      expect(max_steps).toMatchObject({ maximum: 5, default: 5 });
      expect(cmd).toMatchObject({ maxLength: 20_000 });
    } finally {
      await small.close();
    }
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
