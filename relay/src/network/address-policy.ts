import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** How the ranges ipaddr.js names read in a message ("127.0.0.1 is a loopback address"). */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT (shared) address',
  private: 'a private address',
  reserved: 'a reserved (documentation, benchmarking or future-use) address',
  as112: 'a reserved (AS112) address',
  amt: 'a reserved (AMT) address',
  uniqueLocal: 'a unique local (private) IPv6 address',
  deprecatedSiteLocal: 'a site-local IPv6 address',
  discard: 'a discard-only IPv6 address',
  benchmarking: 'a benchmarking address',
  as112v6: 'a reserved (AS112) address',
  deprecatedOrchid: 'a reserved (ORCHID) address',
  orchid2: 'a reserved (ORCHID) address',
  droneRemoteIdProtocolEntityTags: 'a reserved (DRIP) address',
  segmentRouting: 'a segment-routing address',
};

/**
 * The IPv4 addresses an IPv6 address carries, and what that form is called: IPv4-mapped and -translated
 * (`::ffff:a.b.c.d`, `::ffff:0:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), NAT64 (`64:ff9b::/96`), 6to4
 * (`2002:AABB:CCDD::/48`) and Teredo (server and obfuscated client). Reaching such an address can
 * reach the IPv4 one (dual-stack sockets, a NAT64 gateway, a 6to4 or Teredo relay), so the IPv4 one is
 * what gets judged.
 */
function embeddedIPv4(address: ipaddr.IPv6): { form: string; addresses: ipaddr.IPv4[] } | undefined {
  const p = address.parts;
  const v4 = (high: number, low: number) =>
    new ipaddr.IPv4([(high >> 8) & 255, high & 255, (low >> 8) & 255, low & 255]);
  const low = v4(p[6] ?? 0, p[7] ?? 0);
  switch (address.range()) {
    case 'ipv4Mapped':
      return { form: 'IPv4-mapped', addresses: [low] };
    case 'rfc6145':
      return { form: 'IPv4-translated', addresses: [low] };
    case 'rfc6052':
      return { form: 'NAT64', addresses: [low] };
    case '6to4':
      return { form: '6to4', addresses: [v4(p[1] ?? 0, p[2] ?? 0)] };
    case 'teredo':
      return { form: 'Teredo', addresses: [v4(p[2] ?? 0, p[3] ?? 0), v4(~(p[6] ?? 0), ~(p[7] ?? 0))] };
  }
  // ipaddr.js files the deprecated IPv4-compatible form (::a.b.c.d) under plain unicast.
  if (p.slice(0, 6).every((part) => part === 0) && ((p[6] ?? 0) !== 0 || (p[7] ?? 0) > 1)) {
    return { form: 'IPv4-compatible', addresses: [low] };
  }
  return undefined;
}

/** The local-use NAT64 prefix (RFC 8215) translates into the operator's own network by definition. */
const LOCAL_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');

/**
 * What makes this IP address off limits to a session ("a loopback address", "the NAT64 form of
 * 10.0.0.1, a private address"), or undefined when it is a public (global unicast) one. Only global unicast passes: loopback, private, link-local, CGNAT, benchmarking, documentation,
 * multicast, broadcast, unspecified, IPv6 ULA and link-local, and IPv6 forms that carry one of those
 * (IPv4-mapped/-compatible, NAT64, 6to4, Teredo) are all refused.
 */
export function nonPublicReason(ip: string): string | undefined {
  let address: Address;
  try {
    address = ipaddr.parse(ip);
  } catch {
    return 'not an IP address';
  }
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    if (v6.match(LOCAL_NAT64)) return 'a local-use NAT64 address (it translates into a private network)';
    const embedded = embeddedIPv4(v6);
    if (embedded) {
      for (const inner of embedded.addresses) {
        const reason = rangeReason(inner);
        if (reason) return `the ${embedded.form} form of ${inner.toString()}, ${reason}`;
      }
      return undefined;
    }
  }
  return rangeReason(address);
}

function rangeReason(address: Address): string | undefined {
  const range = address.range();
  if (range === 'unicast') return undefined;
  return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
}

/** A parsed address, or undefined for a host name: `[::1]` and `::1` both count. */
export function parseIp(host: string): Address | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  // ipaddr.js also reads "127.1" and "0x7f000001" as IPv4 (inet_aton's forms); only the canonical one is an IP here.
  if (!ipaddr.IPv6.isValid(bare) && !ipaddr.IPv4.isValidFourPartDecimal(bare)) return undefined;
  return ipaddr.parse(bare);
}

/**
 * Every name a host goes by for a rule about hosts: itself (brackets dropped, lower-cased) and, for an
 * IPv6 address that carries IPv4 ones (mapped, NAT64, 6to4, Teredo…), those, so `::ffff:127.0.0.1`
 * cannot walk past a rule written for `127.0.0.1`.
 */
export function hostForms(host: string): string[] {
  const bare = (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host).toLowerCase();
  const ip = parseIp(bare);
  const embedded = ip?.kind() === 'ipv6' ? embeddedIPv4(ip as ipaddr.IPv6) : undefined;
  return [bare, ...(embedded?.addresses.map((a) => a.toString()) ?? [])];
}
