// Outbound request safety for webhook and chat URLs (server-side request forgery): https only, and never an address
// that is private, loopback, link-local (which holds the cloud metadata services), shared, multicast or reserved.
// Checked when a URL is saved and again at delivery time on the addresses DNS actually returned (the connection's
// own lookup), for every redirect hop. `allowLoopback` is an operator setting for local testing only: it allows
// http and loopback addresses (127.0.0.0/8, ::1), nothing else. IPv6 forms that carry an IPv4 address are checked as
// that address (ip-forms.ts); host names are compared without their trailing dot (`localhost.` is `localhost`).
import dns from 'node:dns';
import net from 'node:net';
import { Agent } from 'undici';
import { embeddedIpv4 } from './ip-forms.ts';

const blocked = new net.BlockList();
for (const [a, p] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(a, p, 'ipv4');
for (const [a, p] of [
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['2001::', 23],
  ['3fff::', 20],
  ['100::', 64],
] as const)
  blocked.addSubnet(a, p, 'ipv6');
const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export interface SafetyOptions {
  allowLoopback: boolean;
}

/** Why an IP address may not be contacted, or null when it may. IPv6 carrying an IPv4 address is checked as that. */
export function addressProblem(ip: string, opts: SafetyOptions): string | null {
  const family = net.isIP(ip);
  if (!family) return `\`${ip}\` is not an IP address`;
  const carried = family === 6 ? embeddedIpv4(ip) : null;
  if (carried && 'refuse' in carried) return carried.refuse;
  if (carried) {
    const why = addressProblem(carried.ipv4, opts);
    return why ? `${why} (as ${ip})` : null;
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (loopback.check(ip, type)) return opts.allowLoopback ? null : `${ip} is a loopback address`;
  if (blocked.check(ip, type)) return `${ip} is a private, link-local, shared or reserved address`;
  return null;
}

/** Why a webhook/chat URL may not be used, or null. Does not resolve DNS (see `safeAgent`). */
export function urlProblem(raw: string, opts: SafetyOptions): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a valid absolute URL';
  }
  if (url.username || url.password) return 'must not contain credentials';
  if (url.protocol !== 'https:' && !(opts.allowLoopback && url.protocol === 'http:')) return 'must use https';
  // `localhost.` and `metadata.google.internal.` are the same names as without the dot (the root label)
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
  if (!host) return 'has no host name';
  if (net.isIP(host)) return addressProblem(host, opts);
  if (host === 'localhost' || host.endsWith('.localhost'))
    return opts.allowLoopback ? null : `${host} is a loopback name`;
  if (host.endsWith('.internal') || host.endsWith('.local') || !host.includes('.'))
    return `${host} is not a public host name`;
  return null;
}

export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
}

/**
 * An undici Agent whose connections resolve names through a lookup that refuses blocked addresses: the check runs on
 * the addresses the connection will really use (no time-of-check/time-of-use gap with a second DNS answer).
 */
export function safeAgent(opts: SafetyOptions & { connectTimeoutMs: number; resolver?: typeof dns.lookup }): Agent {
  const resolve = opts.resolver ?? dns.lookup;
  const lookup = (
    hostname: string,
    options: dns.LookupOptions,
    cb: (err: Error | null, address: string | dns.LookupAddress[], family?: number) => void,
  ) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return cb(err, []);
      const list = addresses as dns.LookupAddress[];
      const bad = list.map((a) => addressProblem(a.address, opts)).find(Boolean);
      if (bad) return cb(new BlockedAddressError(`${hostname} resolves to a blocked address: ${bad}`), []);
      if (options.all) return cb(null, list);
      cb(null, list[0].address, list[0].family);
    });
  };
  return new Agent({ connect: { lookup: lookup as never, timeout: opts.connectTimeoutMs }, connections: 64 });
}
