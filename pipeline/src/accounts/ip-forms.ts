// The IPv6 forms that carry an IPv4 address (spec: Accounts — webhook safety): IPv4-mapped, IPv4-translated,
// IPv4-compatible, NAT64 and 6to4 are decoded to the IPv4 they reach, so `[64:ff9b::169.254.169.254]` is checked as
// the metadata address it is; Teredo and the local-use NAT64 prefix hide their target behind a relay and are refused
// outright, as is the rest of the reserved ::/8 (where other translated forms would hide).

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 read as two groups). */
export function ipv6Groups(ip: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  const hex = dotted
    ? `${ip.slice(0, dotted.index)}${((+dotted[1] << 8) | +dotted[2]).toString(16)}:${((+dotted[3] << 8) | +dotted[4]).toString(16)}`
    : ip;
  const [head, tail] = hex.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const h = part(head);
  const t = part(tail);
  return tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill(0), ...t];
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** What an IPv6 address carries: the IPv4 it reaches, a reason to refuse it, or nothing (a plain IPv6 address). */
export function embeddedIpv4(ip: string): { ipv4: string } | { refuse: string } | null {
  const g = ipv6Groups(ip);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return { ipv4: v4(g[6], g[7]) }; // ::ffff:a.b.c.d, IPv4-mapped
  // ::ffff:0:a.b.c.d, IPv4-translated (RFC 2765, SIIT); issue 37: `[::ffff:0:127.0.0.1]` was saved as a webhook URL
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return { ipv4: v4(g[6], g[7]) };
  // ::a.b.c.d, IPv4-compatible (deprecated); `::` and `::1` are themselves, checked as IPv6
  if (zeros(0, 6) && (g[6] !== 0 || g[7] > 1)) return { ipv4: v4(g[6], g[7]) };
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return { ipv4: v4(g[6], g[7]) }; // 64:ff9b::/96, NAT64
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return { refuse: `${ip} is a local-use NAT64 address` };
  if (g[0] === 0x2002) return { ipv4: v4(g[1], g[2]) }; // 2002::/16, 6to4
  if (g[0] === 0x2001 && g[1] === 0) return { refuse: `${ip} is a Teredo tunnel address` };
  // the rest of ::/8 is reserved by the IETF (RFC 4291), never a host; `::` and `::1` are checked as themselves. Here,
  // not in safety.ts's BlockList: a BlockList checks an IPv4 address against IPv6 rules as ::ffff:a.b.c.d, in ::/8.
  if (g[0] >> 8 === 0 && !(zeros(0, 7) && g[7] <= 1)) return { refuse: `${ip} is in ::/8, reserved by the IETF` };
  return null;
}
