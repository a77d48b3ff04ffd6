import { get } from 'node:http';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { closedPort, startTestRelay } from './support';

function lines(): { destination: Writable; text: () => string } {
  const out: string[] = [];
  return {
    destination: new Writable({
      write(chunk, _encoding, done) {
        out.push(String(chunk));
        done();
      },
    }),
    text: () => out.join(''),
  };
}

describe('egress proxy settings', () => {
  it('listens where TANDEM_EGRESS_HOST/PORT say and gives browsers TANDEM_EGRESS_URL', async () => {
    const port = await closedPort();
    const relay = await startTestRelay({
      TANDEM_EGRESS_HOST: '127.0.0.1',
      TANDEM_EGRESS_PORT: port,
      TANDEM_EGRESS_URL: 'http://relay.internal:8788',
    });
    try {
      expect(relay.services.egress.url).toBe('http://relay.internal:8788');
      const registration = relay.services.egress.register({ logger: pino({ level: 'silent' }) });
      expect(registration.proxy.server).toBe('http://relay.internal:8788');
      registration.release();
      // It really listens there: unauthenticated, it asks for the session's credentials.
      const status = await new Promise<number | undefined>((resolve, reject) =>
        get(`http://127.0.0.1:${port}/`, (res) => resolve(res.statusCode)).once('error', reject),
      );
      expect(status).toBe(407);
    } finally {
      await relay.close();
    }
  });

  it('warns at start when a browser server elsewhere could not reach a loopback egress proxy', async () => {
    const remote = lines();
    const relay = await startTestRelay(
      { TANDEM_BROWSER_WS_ENDPOINT: 'ws://browsers.internal:3000/playwright?token=abc', LOG_LEVEL: 'warn' },
      { logDestination: remote.destination },
    );
    await relay.close();
    expect(remote.text()).toMatch(/egress proxy listens on loopback: set TANDEM_EGRESS_HOST \(and TANDEM_EGRESS_URL\)/);

    const local = lines();
    const nearby = await startTestRelay(
      { TANDEM_BROWSER_WS_ENDPOINT: 'ws://127.0.0.1:3000/playwright', LOG_LEVEL: 'warn' },
      { logDestination: local.destination },
    );
    await nearby.close();
    expect(local.text()).not.toMatch(/TANDEM_EGRESS_HOST/);
  });
});
