// XML answers (AES, NOVEC, SienaTech): a small body cap, a linear scan that refuses absurd fields, then fast-xml-parser.
// fast-xml-parser parses on the main thread, in time and memory that grow with the text and its entities (a 19 MB
// AES body: 3.3 s and ~800 MB for one parse); bounded input keeps a parse to milliseconds, so no worker is needed.
// The parser is loaded on the first XML answer a process reads: its ~10 MB stay out of every process that polls no
// XML feed (issue #12's memory figures).
import { createRequire } from 'node:module';
import type { X2jOptions, XMLParser } from 'fast-xml-parser';
import { SourceError } from '../errors.ts';
import type { Obj } from './checks.ts';
import type { RequestSpec } from './source-http.ts';

const load = createRequire(import.meta.url);

/** The recorded XML answers are under 25 KB, a storm's a few hundred KB: 4 MiB is ten times that, not the JSON 20 MB. */
export const XML_MAX_BYTES = 4 * 1024 * 1024;
/** The registry option that raises a row's XML cap. */
export const XML_CAP_OPTION = 'max_xml_bytes';
/**
 * The longest stretch of text (or one tag with its attributes) between `<` and `>` the parse accepts. Ids, names,
 * causes and headlines run to tens or hundreds of characters; a longer run is an upstream fault or an attack (a
 * 3.8-million-character id made of `&amp;`), refused before the parser spends time on its entities.
 */
export const XML_MAX_RUN = 16 * 1024;

/** The request spec an XML connector sends: the row's `max_xml_bytes`, else XML_MAX_BYTES. */
export function xmlCap(options: Record<string, unknown>): Pick<RequestSpec, 'maxBytes' | 'capNote'> {
  const v = options[XML_CAP_OPTION];
  if (v !== undefined && !(typeof v === 'number' && Number.isInteger(v) && v > 0))
    throw new SourceError('config', `options.${XML_CAP_OPTION} must be a positive integer, got ${JSON.stringify(v)}`);
  return {
    maxBytes: (v as number | undefined) ?? XML_MAX_BYTES,
    capNote: `XML feeds; options.${XML_CAP_OPTION} raises it`,
  };
}

/** Index of the first run of more than `max` characters without `<` or `>`, or -1. Linear: one pass, no regex. */
export function longRunAt(text: string, max: number): number {
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 60 || c === 62) start = i + 1;
    else if (i - start >= max) return start;
  }
  return -1;
}

/**
 * A parser with `options`, created when it first parses. `parse` refuses an over-long run (`too_large`), checks
 * well-formedness (`bad_body` for an HTML error page or a cut-off answer), then parses. `maxRun` is XML_MAX_RUN
 * unless a format has a long field by design (KML's `<coordinates>`, a whole polygon ring in one text).
 */
export function xmlParser(options: X2jOptions, what: string, maxRun = XML_MAX_RUN): { parse(xml: string): Obj } {
  let parser: XMLParser | null = null;
  return {
    parse(xml) {
      const at = longRunAt(xml, maxRun);
      if (at >= 0)
        throw new SourceError(
          'too_large',
          `${what} has a field or tag longer than ${maxRun} characters (from character ${at}); no outage ` +
            'feed sends one, so the answer is refused unparsed',
        );
      parser ??= new (load('fast-xml-parser') as typeof import('fast-xml-parser')).XMLParser(options);
      try {
        // Blank lines before the declaration (a known server-side template slip) would make strict XML refuse it.
        return parser.parse(xml.trimStart(), true) as Obj;
      } catch (err) {
        throw new SourceError(
          'bad_body',
          `${what} is not well-formed XML (${(err as Error).message}); it starts with ${JSON.stringify(xml.slice(0, 40))}`,
        );
      }
    },
  };
}
