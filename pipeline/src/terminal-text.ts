// Text for a terminal (issue 24 part 10): upstream names and messages reach the CLI's tables and log lines, and an
// ESC sequence or a C1 control there can retitle the window, clear the screen or forge a line; a bidirectional
// override reorders it. The one escaping of the CLI: such characters are shown as visible `\uXXXX`.

/** Control characters (C0, DEL, C1) and the bidirectional marks, overrides and isolates that can reorder a line. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** What JSON.stringify leaves raw of those (it escapes only C0). */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const visible = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** One line for a terminal: whitespace controls become a space, every other one its visible `\uXXXX` form. */
export function terminalText(s: string): string {
  return s.replace(/[\t\n\r]+/g, ' ').replace(UNSAFE, visible);
}

/** Several lines (a log message, a stack): each line escaped, the line breaks kept. */
export const terminalLines = (s: string): string => s.split('\n').map(terminalText).join('\n');

/** JSON for a terminal or a pipe: the same value (`\uXXXX` is JSON's own escape), with no raw control left. */
export const terminalJson = (value: unknown): string => JSON.stringify(value, null, 2).replace(UNSAFE_IN_JSON, visible);
