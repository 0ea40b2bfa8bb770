// SmartC fetch: the WidgetAPI is one GET; the ServiceAPI reads the events list, then (optionally) the county list
// and the account count beside it, all derived from the registry url.
import type { FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';

export type Flavour = 'widget' | 'service';

const SERVICE_PATH = /^(.*)\/outage\/alloutages\/(.+)$/i;

/** WidgetAPI when the url is PreloginGetOutageData, ServiceAPI when it is …/outage/alloutages/{type}/{service}… */
export function flavourOf(url: string): Flavour {
  const path = new URL(url).pathname;
  if (/\/WidgetAPI\/Outage\/PreloginGetOutageData$/i.test(path)) return 'widget';
  if (SERVICE_PATH.test(path)) return 'service';
  throw new SourceError(
    'config',
    `SmartC url must be …/WidgetAPI/Outage/PreloginGetOutageData?isPlannedOutage=0 or …/outage/alloutages/2/1/false; got ${url}`,
  );
}

/** …/outage/alloutages/2/1/false → …/outage/AllOutagesListView/2/1/false and …/Account/Count on the same API root. */
export function serviceUrls(url: string): { counties: string; accounts: string } {
  const u = new URL(url);
  const m = SERVICE_PATH.exec(u.pathname);
  if (!m) throw new SourceError('config', `SmartC ServiceAPI url must contain /outage/alloutages/; got ${url}`);
  // A query on the events url (an API key, say) goes along to the other two.
  const at = (path: string) => new URL(`${u.origin}${path}${u.search}`).href;
  return { counties: at(`${m[1]}/outage/AllOutagesListView/${m[2]}`), accounts: at(`${m[1]}/Account/Count`) };
}

function flag(options: Record<string, unknown>, name: string): boolean {
  const v = options[name] ?? true;
  if (typeof v !== 'boolean')
    throw new SourceError('config', `options.${name} must be true or false, got ${JSON.stringify(v)}`);
  return v;
}

export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url, options } = ctx.source;
  if (flavourOf(url) === 'widget') return ctx.http.getJson(url, ctx.priority);
  const wantCounties = flag(options, 'county_list');
  const wantAccounts = flag(options, 'account_count');
  const more = serviceUrls(url);
  // The county list and account count are extras: a tenant without them (404) still has its events.
  const [events, counties, accounts] = await Promise.all([
    ctx.http.getJson(url, ctx.priority),
    wantCounties ? ctx.http.getJsonOrNull(more.counties, ctx.priority) : null,
    wantAccounts ? ctx.http.getJsonOrNull(more.accounts, ctx.priority) : null,
  ]);
  return { events, counties, accounts };
}
