// clean-text.ts: what each kind of hostile character becomes, caps that never split a pair, ids that stay unique.
import { describe, expect, it } from 'vitest';
import { cleanId, cleanText, noCleaning, TEXT_CAPS } from './clean-text.ts';

const LINE = { cap: 200, multiline: false };
const LINES = { cap: 500, multiline: true };
const clean = (s: string, rule = LINE) => {
  const t = noCleaning();
  return { text: cleanText(s, rule, t), t };
};

describe('cleanText', () => {
  it('removes C0, DEL and C1 controls, and makes tab and line breaks a space in a one-line field', () => {
    const { text, t } = clean('Ha\u0000rr\u0007is\u001b]0;pwned\u0007burg\u007f\u009b\tTwp\r\nX');
    expect(text).toBe('Harris]0;pwnedburg Twp  X');
    expect(t.controls).toBe(9);
  });
  it('keeps tab and line feed where the field allows them; CR and CRLF become one line feed', () => {
    const { text, t } = clean('a\tb\r\nc\rd\ne\u0000', LINES);
    expect(text).toBe('a\tb\nc\nd\ne');
    expect(t.controls).toBe(3);
  });
  it('removes bidirectional overrides and isolates and non-characters; replaces lone surrogates', () => {
    const { text, t } = clean('Derry\u202etxt.exe\u2066x\u2069 \ufdd0\ufffe\uffff\u{1fffe}\ud800 \udc00 ok 😀');
    expect(text).toBe('Derrytxt.exex \ufffd \ufffd ok 😀');
    expect(t).toMatchObject({ bidi: 3, noncharacters: 4, surrogates: 2 });
  });
  it('returns clean text as it is', () => {
    const s = 'Saint-Jean-sur-Richelieu (Ünïcode ☃, 😀)';
    expect(clean(s)).toEqual({ text: s, t: noCleaning() });
  });
  it('cuts a 100 KB name to its cap with an ellipsis, never between the halves of a pair', () => {
    const { text, t } = clean('A'.repeat(100_000));
    expect(text).toBe(`${'A'.repeat(199)}…`);
    expect(t).toMatchObject({ capped: 1, longest: 100_000 });
    const pairs = clean(`${'A'.repeat(198)}${'😀'.repeat(5)}`).text;
    expect(pairs.length).toBeLessThanOrEqual(200);
    expect(pairs).not.toMatch(/\p{Cs}/u); // no half of a pair left alone
  });
});

describe('cleanId', () => {
  it('keeps a clean short id; rekeys a changed or long one with a hash of the id as received', () => {
    const t = noCleaning();
    expect(cleanId('INC-1234', t)).toBe('INC-1234');
    const a = cleanId('a\u0000', t);
    expect(a).toMatch(/^a~[0-9a-f]{12}$/);
    expect(a).not.toBe(cleanId('a\u0007', t));
    const long = cleanId('x'.repeat(3_800_000), t);
    expect(long.length).toBe(TEXT_CAPS.id);
    expect(long).toBe(cleanId('x'.repeat(3_800_000), noCleaning()));
    expect(long).not.toBe(cleanId(`${'x'.repeat(3_799_999)}y`, noCleaning()));
    expect(t).toMatchObject({ controls: 2, capped: 1, longest: 3_800_000 });
  });
});
