import { describe, expect, it } from 'vitest';
import { ADDRESS_FORMS, PUBLIC_IP } from '../../test/address-forms';
import { AllowList } from './allow-list';
import { NetworkGuard, type Resolver } from './network-guard';

const answers: Record<string, string[]> = {
  'public.test': [PUBLIC_IP, '2606:4700::1111'],
  'inside.test': ['10.1.2.3'],
  'mixed.test': [PUBLIC_IP, '127.0.0.1'],
  'mapped.test': ['::ffff:7f00:1'],
  'wiki.corp.test': ['10.9.9.9'],
  'app.corp.test': ['10.9.9.10'],
};
const resolve: Resolver = async (host) => {
  const found = answers[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found;
};
const guard = (allow = '') => new NetworkGuard({ enabled: true, allow: new AllowList(allow), resolve });
const hostOf = (host: string) => new URL(`http://${host}/`).hostname;

describe('NetworkGuard', () => {
  it.each(ADDRESS_FORMS)('refuses $name ($host)', async ({ host, reason }) => {
    const verdict = await guard().inspect(hostOf(host));
    expect(verdict).toMatchObject({ ok: false, kind: 'private', reason: expect.stringMatching(reason) });
  });

  it.each([
    [PUBLIC_IP],
    ['1.1.1.1'],
    ['[2606:4700::1111]'],
    ['[::ffff:8.8.8.8]'], // IPv4-mapped public
    ['[64:ff9b::5db8:d70e]'], // NAT64 of a public address: IPv6-only networks reach IPv4 sites this way
    ['[2002:5db8:d70e::1]'], // 6to4 of a public address
  ])('lets the public address %s through, to be connected to as checked', async (host) => {
    const verdict = await guard().inspect(hostOf(host));
    expect(verdict.ok).toBe(true);
  });

  it('resolves names and judges every answer: one private answer refuses the name', async () => {
    expect(await guard().inspect('public.test')).toEqual({ ok: true, addresses: [PUBLIC_IP, '2606:4700::1111'] });
    expect(await guard().inspect('inside.test')).toMatchObject({
      ok: false,
      reason: 'inside.test resolves to 10.1.2.3, a private address',
    });
    expect(await guard().inspect('mixed.test')).toMatchObject({ ok: false, reason: /resolves to 127\.0\.0\.1/ });
    expect(await guard().inspect('mapped.test')).toMatchObject({ ok: false, reason: /IPv4-mapped form of 127/ });
  });

  it('refuses a name that does not resolve (a failed lookup is never a pass)', async () => {
    expect(await guard().inspect('nowhere.test')).toEqual({
      ok: false,
      kind: 'unresolved',
      reason: 'the host name nowhere.test could not be resolved',
    });
    const empty = new NetworkGuard({ enabled: true, allow: new AllowList(''), resolve: async () => [] });
    expect(await empty.inspect('public.test')).toMatchObject({ ok: false, kind: 'unresolved' });
  });

  it('refuses loopback names without asking a resolver', async () => {
    const asked: string[] = [];
    const spy = new NetworkGuard({
      enabled: true,
      allow: new AllowList(''),
      resolve: async (host) => {
        asked.push(host);
        return [PUBLIC_IP];
      },
    });
    for (const host of ['localhost', 'LOCALHOST', 'app.localhost', 'localhost.', 'app.localhost.']) {
      expect(await spy.inspect(host)).toMatchObject({ ok: false, reason: /this machine/ });
    }
    expect(asked).toEqual([]);
  });

  it('lets TANDEM_ALLOW_HOSTS open named hosts, wildcard domains, addresses and ranges, and nothing else', async () => {
    const allowing = guard('wiki.corp.test, *.corp.test, 192.168.1.0/24, fd00::5, 127.0.0.1');
    expect(await allowing.inspect('wiki.corp.test')).toEqual({ ok: true, addresses: ['10.9.9.9'] });
    expect(await allowing.inspect('app.corp.test')).toEqual({ ok: true, addresses: ['10.9.9.10'] });
    expect(await allowing.inspect('192.168.1.77')).toEqual({ ok: true, addresses: ['192.168.1.77'] });
    expect(await allowing.inspect('[::ffff:c0a8:14d]')).toMatchObject({ ok: true }); // 192.168.1.77, mapped
    expect(await allowing.inspect('[fd00::5]')).toMatchObject({ ok: true });
    expect(await allowing.inspect('127.0.0.1')).toMatchObject({ ok: true });
    // Neighbours stay refused.
    expect(await allowing.inspect('192.168.2.1')).toMatchObject({ ok: false });
    expect(await allowing.inspect('[fd00::6]')).toMatchObject({ ok: false });
    expect(await allowing.inspect('127.0.0.2')).toMatchObject({ ok: false });
    expect(await allowing.inspect('inside.test')).toMatchObject({ ok: false });
    expect(await allowing.inspect('localhost')).toMatchObject({ ok: false });
  });

  it('names the entry TANDEM_ALLOW_HOSTS cannot read', () => {
    expect(() => new AllowList('10.0.0.0/8, http://x')).toThrow(/"http:\/\/x" is not a host name/);
    expect(() => new AllowList('10.0.0.0/33')).toThrow(/"10\.0\.0\.0\/33"/);
  });

  it('allows everything, resolving nothing, when the guard is off', async () => {
    const off = new NetworkGuard({ enabled: false, allow: new AllowList(''), resolve });
    expect(await off.inspect('127.0.0.1')).toEqual({ ok: true, addresses: undefined });
    expect(await off.inspect('nowhere.test')).toEqual({ ok: true, addresses: undefined });
  });
});
