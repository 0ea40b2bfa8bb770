// Kubra fetch: currentState → configuration → report (every top-level region); thematic areas as the fallback.
// currentState names everything else by immutable paths (the deployment's configuration, the data generation's files):
// when it answers 304 and the pipeline holds the snapshot it led to, nothing else is requested (UNCHANGED).
import { readHead, UNCHANGED, type FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';
import { parseUpstream } from '../parse.ts';
import { configurationSchema, currentStateSchema, reportRefSchema, type KubraRaw } from './schema.ts';
import { clusterLayerId, walkClusters } from './clusters.ts';

/** Report ids listed in a configuration, county reports first. */
export function reportIds(config: unknown): string[] {
  const found: Array<{ id: string; type?: string }> = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      const r = reportRefSchema.safeParse(v);
      if (r.success) found.push(r.data);
      else Object.values(v).forEach(visit);
    }
  };
  visit((config as { config?: { reports?: unknown } }).config?.reports);
  const rank = (t?: string) => (/county/i.test(t ?? '') ? 0 : /town|city|munic/i.test(t ?? '') ? 1 : 2);
  return found.sort((a, b) => rank(a.type) - rank(b.type)).map((r) => r.id);
}

export async function fetch(ctx: FetchContext): Promise<KubraRaw | typeof UNCHANGED> {
  const stateUrl = new URL(ctx.source.url);
  const head = await readHead(ctx, stateUrl.href);
  if (head === UNCHANGED) return UNCHANGED;
  const current = parseUpstream(currentStateSchema, head, 'Kubra currentState');
  const dataPath = current.data.interval_generation_data.replace(/^\/+/, '');
  const configUrl = new URL(
    stateUrl.href.replace(/\/currentState(\?.*)?$/, `/configuration/${current.stormcenterDeploymentId}$1`),
  );
  if (configUrl.href === stateUrl.href)
    throw new SourceError('config', `Kubra url must end in /currentState, got ${stateUrl.href}`);
  const configuration = parseUpstream(
    configurationSchema,
    await ctx.http.getJson(configUrl.href, ctx.priority),
    'Kubra configuration',
  );
  const wanted =
    typeof ctx.source.options.report_id === 'string' ? [ctx.source.options.report_id] : reportIds(configuration);
  const origin = stateUrl.origin;
  // Individual outages from the cluster layer, when the registry asks for them (options.incidents).
  let clusters: KubraRaw['clusters'];
  if (ctx.source.options.incidents === true) {
    const layer = clusterLayerId(configuration);
    const clusterPath = current.data.cluster_interval_generation_data;
    if (!layer || typeof clusterPath !== 'string')
      throw new SourceError(
        'schema',
        'Kubra deployment has no CLUSTER_LAYER or cluster data path, but options.incidents is set',
      );
    clusters = await walkClusters(ctx, origin, clusterPath, layer);
  }
  if (wanted.length > 0) {
    const report = await ctx.http.getJson(
      `${origin}/${dataPath}/public/reports/${wanted[0]}_report.json`,
      ctx.priority,
    );
    return { report, clusters };
  }
  const thematic = await ctx.http.getJson(`${origin}/${dataPath}/public/thematic-1/thematic_areas.json`, ctx.priority);
  return { thematic, clusters };
}
