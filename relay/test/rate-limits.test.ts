import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignInGuard } from '../src/limits/sign-in-guard';
import { memoryLogger, startTestRelay, type TestRelay } from './support';

const PASSWORD = 'correct horse battery staple';
const WRONG = 'Tr0ub4dor&3-not-it';

let relay: TestRelay;
let lines: Record<string, unknown>[];
beforeAll(async () => {
  const log = memoryLogger();
  lines = log.lines;
  relay = await startTestRelay({ TANDEM_RATE_LIMIT_PER_MINUTE: 3 }, { logger: log.logger });
});
afterAll(() => relay?.close());

describe('per-API-key rate limit', () => {
  it('answers 429 with Retry-After past TANDEM_RATE_LIMIT_PER_MINUTE, for that key only', async () => {
    const other = await relay.newAccount('rate@example.com');
    for (let i = 0; i < 3; i++) expect((await relay.api('GET', '/v1/web/sessions')).status).toBe(200);
    const limited = await relay.api('GET', '/v1/web/sessions');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.body).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.stringMatching(/more than 3 requests in a minute \(TANDEM_RATE_LIMIT_PER_MINUTE\)/),
    });
    // Before the body is read: a limited caller's 1 MB body costs nothing.
    const heavy = await relay.api('POST', '/v1/web/browse', { rawBody: `{"cmd": "${'x'.repeat(500_000)}` });
    expect(heavy.status).toBe(429);
    expect((await relay.api('GET', '/v1/web/sessions', { key: other })).status).toBe(200);
  });

  it('is off at 0', async () => {
    const open = await startTestRelay({ TANDEM_RATE_LIMIT_PER_MINUTE: 0 });
    try {
      for (let i = 0; i < 20; i++) expect((await open.api('GET', '/v1/web/sessions')).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe('device-token sign-in', () => {
  const signIn = (email: string, password: string) =>
    relay.api('POST', '/v1/extension/token', { key: null, body: { email, password } });

  it('backs off after five wrong passwords for an account, refusing even the right one until the wait is over', async () => {
    const time = { ms: Date.now() };
    relay.services.signIns = SignInGuard.inMemory(() => time.ms);
    await relay.services.store.accounts.create('guess@example.com', PASSWORD);
    for (let i = 0; i < 6; i++) expect((await signIn('guess@example.com', WRONG)).status).toBe(401);
    const blocked = await signIn('GUESS@example.com', PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('1');
    expect(blocked.body.message).toMatch(/Too many failed sign-ins .* Try again in 1 s\./);

    // Each further failure doubles the wait.
    time.ms += 1_000;
    expect((await signIn('guess@example.com', WRONG)).status).toBe(401);
    expect((await signIn('guess@example.com', PASSWORD)).headers.get('retry-after')).toBe('2');
    time.ms += 2_000;
    const token = await signIn('guess@example.com', PASSWORD);
    expect(token.status).toBe(201);
    // The success cleared the account's count.
    for (let i = 0; i < 5; i++) expect((await signIn('guess@example.com', WRONG)).status).toBe(401);
  });

  it('limits one client address guessing many accounts, and wrong API keys count too', async () => {
    relay.services.signIns = SignInGuard.inMemory();
    for (let i = 0; i < 20; i++) expect((await signIn(`nobody${i}@example.com`, WRONG)).status).toBe(401);
    const wrongKey = await relay.api('POST', '/v1/extension/token', { key: 'tdm_not_a_key_0123456789abcdef' });
    expect(wrongKey.status).toBe(401);
    expect((await signIn('someone-else@example.com', WRONG)).status).toBe(429);
    expect((await relay.api('POST', '/v1/extension/token', {})).status).toBe(429);
  });

  it('logs each failed attempt with the email and address, never the password', async () => {
    relay.services.signIns = SignInGuard.inMemory();
    lines.length = 0;
    await signIn('logged@example.com', WRONG);
    const failed = lines.filter((line) => line.msg === 'sign-in failed');
    expect(failed).toEqual([
      expect.objectContaining({ email: 'logged@example.com', address: expect.any(String), failures: 1 }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(WRONG);
  });
});
