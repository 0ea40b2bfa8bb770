// iFactor fetch: metadata.json → directory; then data.json and each report (or the thematic areas) of that directory.
// The reports can lag metadata.json, so when one is not there yet (403/404) the whole set is read from the directory
// 15 minutes earlier, up to 4 times: summary and reports always come from one directory, so they reconcile.
// A complete directory never changes: when metadata.json answers 304 and the pipeline holds the snapshot it led to,
// nothing else is requested (UNCHANGED). A snapshot read from an older directory forgets metadata.json's cached body,
// so the next poll reads the newest directory again, whose files were still coming.
import { readHead, UNCHANGED, type FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';
import { parseUpstream } from '../parse.ts';
import { metadataSchema, type IfactorRaw } from './schema.ts';

export const STEP_BACK_MIN = 15;
export const MAX_STEPS_BACK = 4;
const DIRECTORY = /^(\d{4})_(\d{2})_(\d{2})_(\d{2})_(\d{2})_(\d{2})$/;

/** `2026_10_08_19_05_00` moved by `minutes`; null when the name is not in that form (then there is no stepping back). */
export function shiftDirectory(dir: string, minutes: number): string | null {
  const m = DIRECTORY.exec(dir);
  if (!m) return null;
  const t = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5] + minutes, +m[6]));
  const p = (n: number) => String(n).padStart(2, '0');
  return `${t.getUTCFullYear()}_${p(t.getUTCMonth() + 1)}_${p(t.getUTCDate())}_${p(t.getUTCHours())}_${p(t.getUTCMinutes())}_${p(t.getUTCSeconds())}`;
}

/** The files to read in a directory, from the registry options. */
function wantedFiles(options: Record<string, unknown>): { reports: string[]; thematic: string | null } {
  const reports = Array.isArray(options.reports)
    ? options.reports.filter((r): r is string => typeof r === 'string' && r.trim() !== '')
    : [];
  const t = options.thematic;
  const thematic = t === true ? 'thematic/thematic_areas.json' : typeof t === 'string' && t.trim() ? t.trim() : null;
  if (reports.length === 0 && !thematic) {
    throw new SourceError(
      'config',
      'iFactor needs options.reports (e.g. ["report_nyc.json"]) or options.thematic (true, or a path such as "thematic/thematic_areas.json")',
    );
  }
  return { reports, thematic };
}

export async function fetch(ctx: FetchContext): Promise<IfactorRaw | typeof UNCHANGED> {
  const metaUrl = new URL(ctx.source.url);
  if (!/\/metadata\.json$/.test(metaUrl.pathname))
    throw new SourceError('config', `iFactor url must end in /metadata.json, got ${metaUrl.href}`);
  const ifd = `${metaUrl.origin}${metaUrl.pathname.replace(/\/metadata\.json$/, '')}`;
  const { reports, thematic } = wantedFiles(ctx.source.options);
  const head = await readHead(ctx, metaUrl.href);
  if (head === UNCHANGED) return UNCHANGED;
  const meta = parseUpstream(metadataSchema, head, 'iFactor metadata.json');
  const newest = (meta.directory ?? meta.Directory ?? '').trim();
  const tried: string[] = [];
  for (let step = 0; step <= MAX_STEPS_BACK; step++) {
    const dir = step === 0 ? newest : shiftDirectory(newest, -STEP_BACK_MIN * step);
    if (!dir) break;
    tried.push(dir);
    const get = (file: string) => ctx.http.getJsonOrNull(`${ifd}/${dir}/${file}`, ctx.priority);
    const [summary, ...bodies] = await Promise.all([
      get('data.json'),
      ...reports.map(get),
      ...(thematic ? [get(thematic)] : []),
    ]);
    if (summary === null || bodies.some((b) => b === null)) continue;
    if (step > 0) ctx.http.forget(metaUrl.href);
    return thematic
      ? { directory: dir, summary, reports: bodies.slice(0, -1), thematic: bodies.at(-1) }
      : { directory: dir, summary, reports: bodies };
  }
  throw new SourceError(
    'http_status',
    `iFactor ${ifd}: data.json or a report was missing (403/404) in every directory tried (${tried.join(', ')}); the site may be mid-publish, the next poll retries`,
    404,
  );
}
