/**
 * Every address form the network guard must refuse, as a URL host, with what the refusal must say.
 * `real`: this machine connects to a server on 127.0.0.1 through it (no help needed); `routed`: a
 * network would have to route it (a cloud's metadata service, a LAN, a NAT64 gateway), so tests route
 * it to their loopback server with an injected connect to show the request would otherwise get there.
 */
export interface AddressForm {
  name: string;
  host: string;
  reason: RegExp;
  reach: 'real' | 'routed';
}

export const ADDRESS_FORMS: AddressForm[] = [
  { name: 'IPv4 loopback', host: '127.0.0.1', reason: /127\.0\.0\.1 is a loopback address/, reach: 'real' },
  { name: 'decimal IPv4', host: '2130706433', reason: /127\.0\.0\.1 is a loopback address/, reach: 'real' },
  { name: 'hex IPv4', host: '0x7f000001', reason: /127\.0\.0\.1 is a loopback address/, reach: 'real' },
  { name: 'octal IPv4', host: '0177.0.0.1', reason: /127\.0\.0\.1 is a loopback address/, reach: 'real' },
  { name: 'short IPv4', host: '127.1', reason: /127\.0\.0\.1 is a loopback address/, reach: 'real' },
  { name: 'unspecified IPv4', host: '0.0.0.0', reason: /0\.0\.0\.0 is an unspecified address/, reach: 'real' },
  { name: 'bare zero', host: '0', reason: /0\.0\.0\.0 is an unspecified address/, reach: 'real' },
  {
    name: 'userinfo before a loopback host',
    host: 'public.test@127.0.0.1',
    reason: /127\.0\.0\.1 is a loopback/,
    reach: 'real',
  },
  { name: 'localhost', host: 'localhost', reason: /localhost is this machine/, reach: 'real' },
  {
    name: 'IPv4-mapped IPv6 (dotted)',
    host: '[::ffff:127.0.0.1]',
    reason: /IPv4-mapped form of 127\.0\.0\.1, a loopback address/,
    reach: 'real',
  },
  {
    name: 'IPv4-mapped IPv6 (hex)',
    host: '[::ffff:7f00:1]',
    reason: /IPv4-mapped form of 127\.0\.0\.1, a loopback address/,
    reach: 'real',
  },
  { name: 'IPv6 loopback', host: '[::1]', reason: /\[::1\] is a loopback address/, reach: 'routed' },
  { name: 'IPv6 unspecified', host: '[::]', reason: /\[::\] is an unspecified address/, reach: 'routed' },
  {
    name: 'IPv4-translated IPv6',
    host: '[::ffff:0:7f00:1]',
    reason: /IPv4-translated form of 127\.0\.0\.1, a loopback/,
    reach: 'routed',
  },
  {
    name: 'IPv4-compatible IPv6',
    host: '[::7f00:1]',
    reason: /IPv4-compatible form of 127\.0\.0\.1, a loopback/,
    reach: 'routed',
  },
  {
    name: 'cloud metadata (link-local)',
    host: '169.254.169.254',
    reason: /169\.254\.169\.254 is a link-local address/,
    reach: 'routed',
  },
  {
    name: 'IPv4-mapped metadata',
    host: '[::ffff:169.254.169.254]',
    reason: /IPv4-mapped form of 169\.254\.169\.254, a link-local/,
    reach: 'routed',
  },
  { name: 'private 10/8', host: '10.0.0.1', reason: /10\.0\.0\.1 is a private address/, reach: 'routed' },
  { name: 'private 172.16/12', host: '172.16.5.4', reason: /172\.16\.5\.4 is a private address/, reach: 'routed' },
  { name: 'private 192.168/16', host: '192.168.1.1', reason: /192\.168\.1\.1 is a private address/, reach: 'routed' },
  { name: 'CGNAT', host: '100.64.0.1', reason: /100\.64\.0\.1 is a carrier-grade NAT/, reach: 'routed' },
  { name: 'benchmarking', host: '198.18.0.1', reason: /198\.18\.0\.1 is a reserved/, reach: 'routed' },
  { name: 'IPv4 multicast', host: '224.0.0.1', reason: /224\.0\.0\.1 is a multicast address/, reach: 'routed' },
  {
    name: 'broadcast',
    host: '255.255.255.255',
    reason: /255\.255\.255\.255 is the broadcast address/,
    reach: 'routed',
  },
  { name: 'NAT64 loopback', host: '[64:ff9b::7f00:1]', reason: /NAT64 form of 127\.0\.0\.1/, reach: 'routed' },
  {
    name: 'NAT64 metadata',
    host: '[64:ff9b::a9fe:a9fe]',
    reason: /NAT64 form of 169\.254\.169\.254, a link-local/,
    reach: 'routed',
  },
  { name: 'local-use NAT64', host: '[64:ff9b:1::a00:1]', reason: /local-use NAT64 address/, reach: 'routed' },
  { name: '6to4 loopback', host: '[2002:7f00:1::1]', reason: /6to4 form of 127\.0\.0\.1/, reach: 'routed' },
  {
    name: '6to4 private',
    host: '[2002:c0a8:101::1]',
    reason: /6to4 form of 192\.168\.1\.1, a private/,
    reach: 'routed',
  },
  {
    name: 'Teredo (client 127.0.0.1)',
    host: '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
    reason: /Teredo form of 127\.0\.0\.1, a loopback/,
    reach: 'routed',
  },
  { name: 'IPv6 unique local', host: '[fd00::1]', reason: /unique local \(private\) IPv6/, reach: 'routed' },
  { name: 'IPv6 link-local', host: '[fe80::1]', reason: /\[fe80::1\] is a link-local address/, reach: 'routed' },
  { name: 'IPv6 multicast', host: '[ff02::1]', reason: /\[ff02::1\] is a multicast address/, reach: 'routed' },
];

/** A stand-in for a public address: it passes the policy, and tests route it to a loopback server. */
export const PUBLIC_IP = '93.184.215.14';

/** The host as a connection sees it: canonical (the URL parser's), without IPv6 brackets. */
export const bareHost = (host: string) => new URL(`http://${host}/`).hostname.replace(/^\[(.*)\]$/, '$1');
