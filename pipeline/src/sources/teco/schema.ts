// Tampa Electric outage-tiles answer: an Elasticsearch search result (`hits`, `aggregations`), one hit per incident;
// checked in place for only what normalize reads.
import { arrayAt, fail, objectAt, optNumber, optNumOrText, optObj, optText } from '../checks.ts';

type Text = string | null | undefined;
type NumText = number | string | null | undefined;

/** One incident as the map's tile query returns it; the other _source fields pass through unread. */
export interface TecoIncident {
  customerCount?: NumText;
  incidentId?: NumText;
  /** wall clock without a zone in the sample, e.g. `2026-06-24T20:30:00` */
  estimatedTimeOfRestoration?: Text;
  /** [lon, lat], GeoJSON order */
  polygonCenter?: Array<number | string> | null;
  /** only in the peer's hand-made sample: read as the cause when present */
  reason?: Text;
}

export interface TecoAnswer {
  aggregations?: { customerCountSum?: { value?: number | null } | null } | null;
  hits: { total?: { value?: number | null } | null; hits: Array<{ _source: TecoIncident }> };
}

const WHAT = 'Tampa Electric outage-tiles answer';
const AT = 'hits.hits';

function checkSource(v: unknown, i: number): void {
  const at = `${AT}.${i}._source`;
  const s = objectAt(WHAT, objectAt(WHAT, v, AT, i)._source, at);
  if (!optNumOrText(s.customerCount)) fail(WHAT, `${at}.customerCount`, 'number or string', s.customerCount);
  if (!optNumOrText(s.incidentId)) fail(WHAT, `${at}.incidentId`, 'number or string', s.incidentId);
  const etr = s.estimatedTimeOfRestoration;
  if (!optText(etr)) fail(WHAT, `${at}.estimatedTimeOfRestoration`, 'string', etr);
  if (!optText(s.reason)) fail(WHAT, `${at}.reason`, 'string', s.reason);
  const p = s.polygonCenter;
  if (p === null || p === undefined) return;
  if (!Array.isArray(p) || p.length < 2 || !(optNumOrText(p[0]) && optNumOrText(p[1])))
    fail(WHAT, `${at}.polygonCenter`, '[lon, lat]', p);
}

/** The answer, checked in place (no copy), as the siblings' hand checks do. */
export function readRaw(raw: unknown): TecoAnswer {
  const root = objectAt(WHAT, raw, '');
  if (!optObj(root.aggregations)) fail(WHAT, 'aggregations', 'object', root.aggregations);
  const sum = (root.aggregations as Record<string, unknown> | null | undefined)?.customerCountSum;
  if (!optObj(sum)) fail(WHAT, 'aggregations.customerCountSum', 'object', sum);
  const value = (sum as Record<string, unknown> | null | undefined)?.value;
  if (!optNumber(value)) fail(WHAT, 'aggregations.customerCountSum.value', 'number', value);
  const hits = objectAt(WHAT, root.hits, 'hits');
  if (!optObj(hits.total)) fail(WHAT, 'hits.total', 'object', hits.total);
  const total = (hits.total as Record<string, unknown> | null | undefined)?.value;
  if (!optNumber(total)) fail(WHAT, 'hits.total.value', 'number', total);
  const list = arrayAt(WHAT, hits.hits, AT);
  for (let i = 0; i < list.length; i++) checkSource(list[i], i);
  return raw as unknown as TecoAnswer;
}
