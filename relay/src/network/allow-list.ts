import ipaddr from 'ipaddr.js';

/**
 * TANDEM_ALLOW_HOSTS: private hosts a self-hoster lets sessions reach while the guard is on. Entries
 * are host names (`wiki.corp.example`), wildcard names (`*.corp.example`: its subdomains), IP addresses
 * (`192.168.1.20`, `fd00::5`) and CIDR ranges (`10.20.0.0/16`, `fd00::/8`).
 */
export class AllowList {
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];

  /** Throws with the entry that cannot be read. */
  constructor(list: string | undefined) {
    for (const raw of (list ?? '').split(',')) {
      const entry = raw.trim().toLowerCase();
      if (!entry) continue;
      const range = parseRange(entry);
      if (range) this.ranges.push(range);
      else if (/^\*\.[a-z0-9.-]+$/.test(entry)) this.suffixes.push(entry.slice(1));
      else if (/^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/.test(entry)) this.names.add(entry.replace(/\.$/, ''));
      else {
        throw new Error(
          `TANDEM_ALLOW_HOSTS: "${entry}" is not a host name, *.domain, IP address or CIDR range such as 10.0.0.0/8`,
        );
      }
    }
  }

  get empty(): boolean {
    return this.names.size === 0 && this.suffixes.length === 0 && this.ranges.length === 0;
  }

  /** Whether the name itself is allowed, whatever it resolves to. */
  allowsName(host: string): boolean {
    const name = host.toLowerCase().replace(/\.$/, '');
    return this.names.has(name) || this.suffixes.some((suffix) => name.endsWith(suffix));
  }

  /** Whether this IP address is inside an allowed address or range. */
  allowsAddress(ip: string): boolean {
    if (this.ranges.length === 0) return false;
    let address = ipaddr.parse(ip);
    // An allowed 10.0.0.5 is also allowed as ::ffff:10.0.0.5.
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
      address = (address as ipaddr.IPv6).toIPv4Address();
    }
    return this.ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
  }
}

function parseRange(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | undefined {
  const bare = entry.replace(/^\[(.*)\]$/, '$1');
  if (bare.includes('/')) {
    try {
      return ipaddr.parseCIDR(bare);
    } catch {
      return undefined;
    }
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(bare) || ipaddr.IPv6.isValid(bare)) {
    const address = ipaddr.parse(bare);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  }
  return undefined;
}
