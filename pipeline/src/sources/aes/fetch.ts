// AES fetch: one GET of the utility's outage XML; the URL's path says which of AES's two forms it is.
import type { FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';
import type { AesFormat, AesRaw } from './schema.ts';
import { xmlCap } from '../xml.ts';

/** Each utility's file, by path: AES Indiana's OSI export and AES Ohio's (formerly DP&L) OMS export. */
const FORMS: ReadonlyArray<readonly [RegExp, AesFormat]> = [
  [/^\/OMSDATA\/OMSDATA_OSI\.xml$/i, 'indiana'],
  [/^\/DATA\/DPLOMSDATA\.xml$/i, 'ohio'],
];

/** The form of the file at `url` (what normalize reads it as), or the `config` failure for any other URL. */
export function formatOf(url: string): AesFormat {
  let path = '';
  try {
    path = new URL(url).pathname;
  } catch {
    // not a URL: the failure below names it
  }
  for (const [re, format] of FORMS) if (re.test(path)) return format;
  throw new SourceError(
    'config',
    'AES url must be AES Indiana’s /OMSDATA/OMSDATA_OSI.xml or AES Ohio’s /DATA/DPLOMSDATA.xml, e.g. ' +
      `https://myaccount.aesindiana.com/OMSDATA/OMSDATA_OSI.xml; got ${url}`,
  );
}

/** The answer's text as sent (a saved probe replays byte for byte), with the form normalize reads it as. */
export async function fetch(ctx: FetchContext): Promise<AesRaw> {
  const { url } = ctx.source;
  const format = formatOf(url);
  // AES Indiana answers 406 when Accept names a type (`application/xml`); a bare */* is what the peer's client sends.
  const answer = await ctx.http.get(url, ctx.priority, { headers: { accept: '*/*' }, ...xmlCap(ctx.source.options) });
  return { format, xml: answer.body };
}
