import { lookup } from 'node:dns/promises';
import { nonPublicReason, parseIp } from './address-policy';
import type { AllowList } from './allow-list';

/** Every address a host name resolves to (the system's resolver by default; tests inject their own). */
export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((answer) => answer.address);

/** A lookup that has not answered by then counts as failed: a hung resolver must not hold a page forever. */
const RESOLVE_TIMEOUT_MS = 10_000;

/**
 * Where a session may connect for a host. `addresses` are the checked ones to connect to, or undefined
 * when the guard is off (connect by name). A refusal says why: `private` for an address the policy
 * forbids, `unresolved` for a name that did not resolve (a failed lookup is a refusal, never a pass).
 */
export type Verdict =
  | { ok: true; addresses: string[] | undefined }
  | { ok: false; kind: 'private' | 'unresolved'; reason: string };

export interface NetworkGuardOptions {
  /** false: TANDEM_ALLOW_PRIVATE_NETWORK=true, every host is allowed and names are not resolved here. */
  enabled: boolean;
  allow: AllowList;
  resolve?: Resolver | undefined;
}

/**
 * The one address policy for remote sessions: the up-front check of a URL and the egress proxy's check
 * of every connection a session's browser makes both ask it. Only public (global unicast) addresses
 * pass, unless TANDEM_ALLOW_HOSTS names the host or covers the address.
 */
export class NetworkGuard {
  readonly enabled: boolean;
  private readonly resolve: Resolver;

  constructor(private readonly options: NetworkGuardOptions) {
    this.enabled = options.enabled;
    this.resolve = options.resolve ?? systemResolver;
  }

  async inspect(hostname: string): Promise<Verdict> {
    if (!this.enabled) return { ok: true, addresses: undefined };
    // `localhost.` is `localhost`: a trailing dot only says the name is fully qualified.
    const host = hostname
      .replace(/^\[(.*)\]$/, '$1')
      .replace(/\.$/, '')
      .toLowerCase();
    const literal = parseIp(host);
    if (literal) {
      const address = literal.toString();
      if (this.options.allow.allowsAddress(address)) return { ok: true, addresses: [address] };
      const reason = nonPublicReason(address);
      return reason
        ? { ok: false, kind: 'private', reason: `${hostname} is ${reason}` }
        : { ok: true, addresses: [address] };
    }
    const allowedName = this.options.allow.allowsName(host);
    if (!allowedName && (host === 'localhost' || host.endsWith('.localhost'))) {
      return { ok: false, kind: 'private', reason: `${hostname} is this machine (a loopback name)` };
    }
    let addresses: string[];
    try {
      addresses = await withTimeout(this.resolve(host), RESOLVE_TIMEOUT_MS);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) {
      return { ok: false, kind: 'unresolved', reason: `the host name ${hostname} could not be resolved` };
    }
    if (allowedName) return { ok: true, addresses };
    // One bad answer refuses the name: a resolver that mixes public and private answers is not to be trusted.
    for (const address of addresses) {
      if (this.options.allow.allowsAddress(address)) continue;
      const reason = nonPublicReason(address);
      if (reason) return { ok: false, kind: 'private', reason: `${hostname} resolves to ${address}, ${reason}` };
    }
    return { ok: true, addresses };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
