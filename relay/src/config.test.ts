import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8787,
      HOST: '127.0.0.1',
      TANDEM_SESSION_IDLE_SECONDS: 600,
      TANDEM_PLANNER: 'auto',
      TANDEM_ALLOW_PRIVATE_NETWORK: true,
      TANDEM_ADMIN_EMAIL: 'admin@localhost',
    });
    expect(config.TANDEM_DATA_DIR).toMatch(/\.tandem$/);
  });

  it('allows private networks by default only while listening on loopback', () => {
    expect(loadConfig({ HOST: '0.0.0.0' }).TANDEM_ALLOW_PRIVATE_NETWORK).toBe(false);
    expect(loadConfig({ HOST: '0.0.0.0', TANDEM_ALLOW_PRIVATE_NETWORK: 'true' }).TANDEM_ALLOW_PRIVATE_NETWORK).toBe(
      true,
    );
  });

  it('reports every bad value on its own line, naming the variable and the value', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        TANDEM_MAX_SESSIONS: '0',
        TANDEM_PLANNER: 'magic',
        TANDEM_BROWSER_WS_ENDPOINT: 'http://x',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.find((p) => p.startsWith('PORT="eighty"'))).toBeDefined();
    expect(problems.find((p) => p.startsWith('TANDEM_MAX_SESSIONS="0"'))).toBeDefined();
    expect(problems.find((p) => p.startsWith('TANDEM_PLANNER="magic"'))).toBeDefined();
    expect(problems.find((p) => p.includes('ws://'))).toBeDefined();
  });

  it('treats empty optional values as unset', () => {
    expect(loadConfig({ OPENAI_API_KEY: '', TANDEM_BOOTSTRAP_KEY: '' })).toMatchObject({
      OPENAI_API_KEY: undefined,
      TANDEM_BOOTSTRAP_KEY: undefined,
    });
  });
});
