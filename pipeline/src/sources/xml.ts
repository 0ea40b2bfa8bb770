// XML answers (AES, NOVEC, SienaTech) are read with fast-xml-parser, loaded on the first XML answer a process reads:
// its ~10 MB stay out of every process that polls no XML feed (issue #12's memory figures).
import { createRequire } from 'node:module';
import type { X2jOptions, XMLParser } from 'fast-xml-parser';

const load = createRequire(import.meta.url);

/** A parser with `options`, created when it first parses; `validate` checks well-formedness first (a parse error). */
export function xmlParser(options: X2jOptions): { parse(xml: string, validate: boolean): unknown } {
  let parser: XMLParser | null = null;
  return {
    parse(xml, validate) {
      parser ??= new (load('fast-xml-parser') as typeof import('fast-xml-parser')).XMLParser(options);
      return parser.parse(xml, validate);
    },
  };
}
