// PacifiCorp fetch: for each state in options.states, map{ST}.json and (unless options.lists is false) list{ST}.json.
import type { FetchContext } from '../connector.ts';
import type { SourceDef } from '../source-def.ts';
import { parseJson } from '../parse.ts';
import { SourceError } from '../../errors.ts';
import type { PacifiCorpRaw } from './schema.ts';

const PLACEHOLDER = '{ST}';

/** options.states (postal codes, the file suffixes), else the registry row's states. */
export function statesOf(source: SourceDef): string[] {
  const states = source.options.states ?? source.states;
  if (
    !Array.isArray(states) ||
    states.length === 0 ||
    !states.every((s) => typeof s === 'string' && /^[A-Z]{2}$/.test(s))
  ) {
    throw new SourceError(
      'config',
      `options.states must list the state file suffixes as upper-case postal codes, e.g. ["OR","WA","CA"]; got ${JSON.stringify(states)}`,
    );
  }
  return states as string[];
}

/** The map file URL of one state: the registry url with `{ST}` replaced. */
export function mapUrl(url: string, state: string): string {
  if (!url.includes(PLACEHOLDER)) {
    throw new SourceError(
      'config',
      `PacifiCorp url must carry the literal ${PLACEHOLDER} placeholder, e.g. https://www.pacificpower.net/etc/pcorp/datafiles/outagemap/map{ST}.json; got ${url}`,
    );
  }
  return url.replaceAll(PLACEHOLDER, state);
}

/** …/map{ST}.json → …/list{ST}.json, the county list beside the map file. */
export function listUrl(url: string, state: string): string {
  const list = url.replace(/\/map\{ST\}\.json(?=$|\?)/, '/list{ST}.json');
  if (list === url) {
    throw new SourceError(
      'config',
      `PacifiCorp url must end in /map{ST}.json to derive the list file; got ${url} (set options.lists to false to read the map files only)`,
    );
  }
  return mapUrl(list, state);
}

/** The HTTP Date of an answer (ms), or null: the upstream's clock, so a replayed raw normalises the same. */
function answerDate(value: string | undefined): number | null {
  const t = value ? Date.parse(value) : NaN;
  return Number.isNaN(t) ? null : t;
}

export async function fetch(ctx: FetchContext): Promise<PacifiCorpRaw> {
  const states = statesOf(ctx.source);
  const lists = ctx.source.options.lists ?? true;
  if (typeof lists !== 'boolean')
    throw new SourceError('config', `options.lists must be true or false, got ${JSON.stringify(lists)}`);
  // Build every URL before the first request, so a bad row fails without touching the host.
  const urls = states.map((st) => ({
    st,
    map: mapUrl(ctx.source.url, st),
    list: lists ? listUrl(ctx.source.url, st) : null,
  }));
  const answers = await Promise.all(
    urls.map(async ({ st, map, list }) => {
      // A missing map file fails the poll (a state dropping out would read as a restoration); a list file may be absent.
      const [answer, listJson] = await Promise.all([
        ctx.http.get(map, ctx.priority),
        list ? ctx.http.getJsonOrNull(list, ctx.priority) : Promise.resolve(null),
      ]);
      return {
        entry: { state: st, map: parseJson(map, answer.body), list: listJson },
        date: answerDate(answer.headers.date),
      };
    }),
  );
  const dates = answers.map((a) => a.date).filter((d): d is number => d !== null);
  return {
    captured_at: dates.length ? new Date(Math.max(...dates)).toISOString() : null,
    states: answers.map((a) => a.entry),
  };
}
