import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, launchDir, loadConfig, loadDotEnv } from './config';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

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

  it('names a TANDEM_ALLOW_HOSTS entry it cannot read, and an egress URL that is not http://', () => {
    const problems = problemsOf({ TANDEM_ALLOW_HOSTS: '10.0.0.0/8, ftp://wiki', TANDEM_EGRESS_URL: 'socks5://x:1' });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      /^TANDEM_ALLOW_HOSTS=".*": "ftp:\/\/wiki" is not a host name, \*\.domain, IP address or CIDR/,
    );
    expect(problems[1]).toMatch(/^TANDEM_EGRESS_URL=.*must be an http:\/\/ URL/);
    expect(
      loadConfig({ TANDEM_ALLOW_HOSTS: 'wiki.corp.example, *.intra.example, 192.168.1.0/24, fd00::/8' }),
    ).toBeDefined();
  });

  it('treats empty optional values as unset', () => {
    expect(loadConfig({ OPENAI_API_KEY: '', TANDEM_BOOTSTRAP_KEY: '' })).toMatchObject({
      OPENAI_API_KEY: undefined,
      TANDEM_BOOTSTRAP_KEY: undefined,
    });
  });

  it('treats an empty number as unset, so PORT= keeps the default port instead of a random one', () => {
    expect(loadConfig({ PORT: '', TANDEM_MAX_SESSIONS: ' ' })).toMatchObject({ PORT: 8787, TANDEM_MAX_SESSIONS: 50 });
  });

  it('refuses idle and wait times past what a timer can hold', () => {
    const problems = problemsOf({ TANDEM_SESSION_IDLE_SECONDS: '3000000', TANDEM_SESSION_BUSY_WAIT_SECONDS: '1e9' });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^TANDEM_SESSION_IDLE_SECONDS="3000000": .*at most 2147483/);
    expect(loadConfig({ TANDEM_SESSION_IDLE_SECONDS: '2147483' }).TANDEM_SESSION_IDLE_SECONDS).toBe(2_147_483);
  });

  it('reads .env without overriding variables already set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tandem-env-'));
    const file = join(dir, '.env');
    writeFileSync(file, 'TANDEM_TEST_DOTENV_A=from-file\nTANDEM_TEST_DOTENV_B=from-file\n');
    process.env.TANDEM_TEST_DOTENV_B = 'from-env';
    try {
      loadDotEnv(dir);
      expect(process.env.TANDEM_TEST_DOTENV_A).toBe('from-file');
      expect(process.env.TANDEM_TEST_DOTENV_B).toBe('from-env');
      loadDotEnv(join(dir, 'no-such-folder'));
    } finally {
      delete process.env.TANDEM_TEST_DOTENV_A;
      delete process.env.TANDEM_TEST_DOTENV_B;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('resolves the data directory against the folder Tandem was started from', () => {
    expect(loadConfig({}, {}, '/srv/work').TANDEM_DATA_DIR).toBe('/srv/work/.tandem');
    expect(loadConfig({ TANDEM_DATA_DIR: 'data' }, {}, '/srv/work').TANDEM_DATA_DIR).toBe('/srv/work/data');
    expect(loadConfig({ TANDEM_DATA_DIR: '/var/lib/tandem' }, {}, '/srv/work').TANDEM_DATA_DIR).toBe('/var/lib/tandem');
  });

  it("takes npm start's INIT_CWD as that folder, and nobody else's", () => {
    const npmStart = { npm_lifecycle_event: 'start', INIT_CWD: '/home/me/project' };
    expect(launchDir(npmStart, '/opt/tandem')).toBe('/home/me/project');
    // A process under `npm test` inherits INIT_CWD from that npm: it is not where this relay was started.
    expect(launchDir({ npm_lifecycle_event: 'test', INIT_CWD: '/home/me/project' }, '/opt/tandem')).toBe('/opt/tandem');
    expect(launchDir({}, '/opt/tandem')).toBe('/opt/tandem');
  });
});
