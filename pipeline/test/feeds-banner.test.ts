// The map page's banner when most feeds failed (issue 27: `npm start -- --live` without network): its text, counted
// here from the sources list the test writes.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain browser module (no types)
import { feedsProblem } from '../../site/src/map/browser/feeds-banner.js';

const feed = (reason: string | null, message = '', freshness = reason ? 'stale' : 'fresh') => ({
  freshness,
  last_error: reason ? { reason, message } : null,
});

describe('the failing-feeds banner', () => {
  it('says how many feeds failed and why, and asks whether the machine is offline when names do not resolve', () => {
    const sources = [
      ...Array.from({ length: 5 }, (_, i) => feed('network', `getaddrinfo ENOTFOUND host${i}.example`)),
      feed('timeout', 'no answer in 30 s'),
      feed(null),
    ];
    expect(feedsProblem(sources)).toBe(
      '6 of 7 feeds failed their last poll: 5 could not connect, 1 timed out. Most could not find their host: is this machine offline? The figures count only the feeds that answered; the sources page lists each failure.',
    );
  });

  it("asks whether the machine is offline when most polls failed as `dns` (the pipeline's reason since issue 38)", () => {
    const sources = [
      ...Array.from({ length: 4 }, (_, i) =>
        feed(
          'dns',
          `http://h${i}.example/x: the host h${i}.example does not resolve (EAI_AGAIN): its name is wrong, or this machine is offline`,
        ),
      ),
      feed(null),
    ];
    expect(feedsProblem(sources)).toBe(
      '4 of 5 feeds failed their last poll: 4 could not find their host. Most could not find their host: is this machine offline? The figures count only the feeds that answered; the sources page lists each failure.',
    );
  });

  it('stays hidden while at most half the feeds fail, or fewer than three', () => {
    expect(feedsProblem([feed('timeout'), feed('timeout'), feed(null), feed(null)])).toBeNull();
    expect(feedsProblem([feed('timeout'), feed('timeout')])).toBeNull();
    expect(
      feedsProblem([feed('timeout', '', 'fresh'), feed('timeout', '', 'fresh'), feed('timeout', '', 'fresh')]),
    ).toBeNull();
    expect(feedsProblem([feed('http_status', '503'), feed('http_status', '503'), feed('schema'), feed(null)])).toBe(
      '3 of 4 feeds failed their last poll: 2 refused (HTTP error), 1 answered in an unexpected shape. The figures count only the feeds that answered; the sources page lists each failure.',
    );
  });
});
