// Who is guessing a sign-in code, for the limits (sign-in-limits.ts). A client is its network: an IPv4 address, or an
// IPv6 /64 — one subscriber's prefix, in which a host picks any address it likes (issue 37: 60 addresses of one /64
// counted as 60 clients). An address that cannot tell one client from another is *shared*: this machine (no address,
// or loopback), a private, shared (CGNAT) or link-local one — what a proxy in front of the server shows when it is not
// configured as trusted (RATE_LIMIT_TRUSTED_PROXIES), so every client arrives from it. Counting a shared address as one
// client would let 20 wrong codes an hour lock every client out together; its guesses are counted per account instead.
import { BlockList, isIP } from 'node:net';
import { ipv6Groups } from './ip-forms.ts';

export interface Guesser {
  /** what the guesser's own limits are counted under */
  key: string;
  /** false for a shared address: it owns no code and is limited per account, not per client */
  real: boolean;
}

const shared = new BlockList();
for (const [a, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  shared.addSubnet(a, bits, 'ipv4');
for (const [a, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  shared.addSubnet(a, bits, 'ipv6');

/** The network of a client address (`4:a.b.c.d`, `6:xxxx:xxxx:xxxx:xxxx::/64`), or null when it is not one. */
export function networkOf(address: string): string | null {
  const ip = address.replace(/%.*$/, '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  const family = isIP(ip);
  if (family === 0 || shared.check(ip, family === 4 ? 'ipv4' : 'ipv6')) return null;
  if (family === 4) return `4:${ip}`;
  const prefix = ipv6Groups(ip.toLowerCase())
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':');
  return `6:${prefix}::/64`;
}

/** The guesser behind `requester` (the client address the function layer saw, if any) asking about `email`. */
export function guesserOf(requester: string | undefined, email: string): Guesser {
  const net = requester ? networkOf(requester) : null;
  return net ? { key: net, real: true } : { key: `shared:${email}`, real: false };
}
