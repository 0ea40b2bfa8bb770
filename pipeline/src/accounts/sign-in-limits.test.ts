// The sign-in limits as documented (issue 37): the takeover arithmetic holds with the constants the code enforces and
// docs/alert-rules-and-webhooks.md and endpoint descriptions state those numbers; a client is its network (an IPv4
// address or IPv6 /64), and an address that cannot tell clients apart is shared.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FUNCTION_ENDPOINTS } from '../contract/catalogue.ts';
import { fromRoot } from '../package-root.ts';
import { CONFIRM_MAILS_PER_HOUR } from './email-confirm.ts';
import { CODE_DIGITS } from './secrets.ts';
import {
  CODES_PER_DAY,
  FOREIGN_TRIES_PER_DAY,
  GUESSES_PER_HOUR,
  MAILS_PER_TTL,
  MAX_COMPARISONS_PER_DAY,
  MAX_TAKEOVER_CHANCE_PER_DAY,
  VERIFY_MAX_TRIES,
  VERIFY_TTL_MIN,
} from './sign-in-limits.ts';
import { guesserOf, networkOf } from './sign-in-network.ts';

describe('the chance that a stranger takes an account within a day', () => {
  it('is at most 1 in a million at the allowed rates', () => {
    expect(MAX_COMPARISONS_PER_DAY).toBe(3 * CODES_PER_DAY * VERIFY_MAX_TRIES + 2 * FOREIGN_TRIES_PER_DAY);
    expect(MAX_TAKEOVER_CHANCE_PER_DAY).toBeLessThanOrEqual(1e-6);
  });

  it('is shown in docs/alert-rules-and-webhooks.md with the numbers the code enforces', () => {
    const page = fs.readFileSync(fromRoot('docs/alert-rules-and-webhooks.md'), 'utf8');
    const from = page.indexOf('## Signing in: the limits');
    expect(from).toBeGreaterThan(-1);
    const next = page.indexOf('\n## ', from + 1);
    const section = page.slice(from, next === -1 ? undefined : next);
    for (const text of [
      `1 sign-in email a minute, ${MAILS_PER_TTL} per ${VERIFY_TTL_MIN} minutes`,
      `| ${CODES_PER_DAY} codes a day |`,
      `| ${GUESSES_PER_HOUR} codes an hour |`,
      `| ${VERIFY_MAX_TRIES} tries at one code |`,
      `| ${FOREIGN_TRIES_PER_DAY} tries a day from networks other than the one that asked`,
      `at most ${MAX_COMPARISONS_PER_DAY} times`,
      `${3 * CODES_PER_DAY} codes × ${VERIFY_MAX_TRIES} tries`,
      `${MAX_COMPARISONS_PER_DAY} / 10⁸`,
    ])
      expect(section).toContain(text);
    expect(CODE_DIGITS).toBe(8); // "10⁸ (eight random digits)"
    expect(page).toContain(`at most **${CONFIRM_MAILS_PER_HOUR} confirmation emails an hour**`);
    const create = FUNCTION_ENDPOINTS.find((f) => f.id === 'accounts.create')!.description;
    expect(create).toContain(`${MAILS_PER_TTL} per ${VERIFY_TTL_MIN} minutes`);
    expect(create).toContain(`past ${CODES_PER_DAY} codes a day`);
  });
});

describe('who is guessing', () => {
  it('is an IPv4 address, or an IPv6 /64 whichever address in it is used', () => {
    expect(networkOf('198.51.100.7')).toBe('4:198.51.100.7');
    expect(networkOf('::ffff:198.51.100.7')).toBe('4:198.51.100.7');
    const a = networkOf('2001:db8:37:64::1');
    expect(a).toBe('6:2001:db8:37:64::/64');
    for (const other of ['2001:db8:37:64::ffff', '2001:0db8:0037:0064:1:2:3:4', '2001:DB8:37:64:abcd::9%eth0'])
      expect(networkOf(other)).toBe(a);
    expect(networkOf('2001:db8:37:65::1')).not.toBe(a);
  });

  it('is shared when the address cannot tell clients apart (this machine, a proxy on a private network)', () => {
    for (const ip of ['127.0.0.1', '::1', '10.0.0.5', '172.16.3.4', '192.168.1.1', '100.64.0.1', 'fd00::1', 'fe80::1'])
      expect(networkOf(ip), ip).toBeNull();
    expect(guesserOf(undefined, 'a@example.org')).toEqual({ key: 'shared:a@example.org', real: false });
    expect(guesserOf('10.0.0.5', 'a@example.org')).toEqual({ key: 'shared:a@example.org', real: false });
    expect(guesserOf('203.0.113.9', 'a@example.org')).toEqual({ key: '4:203.0.113.9', real: true });
  });
});
