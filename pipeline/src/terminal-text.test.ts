// terminal-text.ts: hostile upstream text (escape sequences, C1 controls, bidirectional overrides) reaches a terminal
// as visible escapes, one line per line; JSON keeps its value and loses its raw controls.
import { describe, expect, it } from 'vitest';
import { terminalJson, terminalLines, terminalText } from './terminal-text.ts';

const HOSTILE =
  'evil \u001b[2J\u001b]8;;http://x\u0007link\u001b]8;;\u0007 \u009b31m\r\nnext\u202eline | `code` <script>alert(1)</script>';
// biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('terminalText', () => {
  it('lets no control character through: line breaks become spaces, the rest visible escapes', () => {
    const out = terminalText(HOSTILE);
    expect(out).not.toMatch(RAW);
    expect(out).not.toContain('\n');
    expect(out).toContain('\\u001b[2J');
    expect(out).toContain('\\u009b31m');
    expect(out).toContain('\\u202eline');
    expect(out).toContain(' next');
  });
});

describe('terminalLines', () => {
  it('escapes each line and keeps the line breaks', () => {
    expect(terminalLines('a\u001b]0;title\u0007\nb\u202ec')).toBe('a\\u001b]0;title\\u0007\nb\\u202ec');
  });
});

describe('terminalJson', () => {
  it('is the same JSON value with DEL, C1 and bidirectional controls written as \\u escapes', () => {
    const value = { name: HOSTILE, n: 3, del: 'x\u007fy\u2066z' };
    const text = terminalJson(value);
    expect(text).not.toMatch(RAW);
    expect(JSON.parse(text)).toEqual(value);
  });
});
