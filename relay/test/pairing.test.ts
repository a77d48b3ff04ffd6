import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRelayCli } from './relay-process';
import { startTestRelay, type TestRelay } from './support';

let relay: TestRelay;
let accountId: string;

beforeAll(async () => {
  relay = await startTestRelay();
  accountId = (await relay.services.store.apiKeys.resolve(relay.key))?.accountId as string;
});
afterAll(async () => {
  await relay?.close();
});

const signIn = (pairing_code: string) =>
  relay.api<{ token?: string; device_id?: string; message?: string }>('POST', '/v1/extension/token', {
    key: null,
    body: { pairing_code, name: 'Paired browser' },
  });

describe('pairing codes for the extension', () => {
  it('sign a browser in once, typed in any case and without the dash; a used or expired code is a 401', async () => {
    const { code } = await relay.services.store.pairingCodes.create(accountId);
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    const paired = await signIn(code.replace('-', ' ').toLowerCase());
    expect(paired.status, JSON.stringify(paired.body)).toBe(201);
    const device = await relay.services.store.devices.resolve(paired.body.token as string);
    expect(device).toMatchObject({ accountId, name: 'Paired browser' });

    const again = await signIn(code);
    expect(again.status).toBe(401);
    expect(again.body.message).toMatch(/wrong, already used or expired .* npm run pair/);

    const old = await relay.services.store.pairingCodes.create(accountId, Date.now() - 11 * 60_000);
    expect((await signIn(old.code)).status).toBe(401);
    expect((await signIn('ABCD-EFGH')).status).toBe(401);
    const tooLong = await signIn('x'.repeat(41));
    expect(tooLong.status).toBe(422);
  });

  it('npm run pair prints a code that works', async () => {
    const { out } = await runRelayCli('pair', [], relay);
    const code = /Pairing code for .+: (\S+)/.exec(out)?.[1];
    expect(code, out).toBeDefined();
    expect((await signIn(code as string)).status).toBe(201);
  });
});
