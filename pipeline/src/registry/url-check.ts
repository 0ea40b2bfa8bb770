// The registry check of a row's url and status: the url has the shape its connector reads (URL_SHAPES), is no
// placeholder, example or loopback host in a shipped registry, and is https unless the row says why not.
import { httpsForm, transportProblem } from '../sources/transport.ts';
import type { ConnectorName } from '../sources/source-def.ts';
import type { CheckRow, Finding } from './findings.ts';
import { STATUSES } from './registry.ts';

const UUID = '[0-9a-f-]{36}';
/** What a row's url must look like, per connector. Typed so that a connector added to CONNECTORS needs a shape. */
export const URL_SHAPES: Record<ConnectorName, RegExp> & Record<string, RegExp> = {
  kubra: new RegExp(`^https://kubra\\.io/stormcenter/api/v1/stormcenters/${UUID}/views/${UUID}/currentState(\\?.*)?$`),
  nisc: /^https:\/\/[^/]+\/(.*\/)?summary\.json(\?.*)?$/,
  arcgis: /^https:\/\/[^/]+\/.+\/(MapServer|FeatureServer)\/\d+(\/query)?\/?(\?.*)?$/,
  odin: /^https:\/\/ornl\.opendatasoft\.com\/api\/explore\/v2\.1\/catalog\/datasets\/[a-z0-9_-]+\/(records|exports\/[a-z]+)\/?(\?.*)?$/,
  fpl: /^https:\/\/[^/]+\/.+\.json(\?.*)?$/,
  milsoft: /^https:\/\/[^/]+(\/.*)?\/data\/(boundaries|outages)(\.json)?$/,
  outageentry: /^https:\/\/www\.outageentry\.com\/Outage\/ajax\/ajaxShellOut\.php$/,
  datacapable: /^https:\/\/[^/]+\/datacapable\/v2\/p\/[^/]+(\/r\/[^/]+)?\/map\/events$/,
  ifactor: /^https:\/\/[^/]+\/resources\/data\/external\/interval_generation_data(\/metadata\.json)?\/?$/,
  omap: /^https:\/\/[^/]+\/OMAP\/api\/Omap\/Outage\/Tabular(\?opco=[A-Z]+)?$/,
  pacificorp:
    /^https:\/\/www\.(pacificpower|rockymountainpower)\.net\/etc\/pcorp\/datafiles\/outagemap\/map(\{ST\}|[A-Z]{2})\.json$/,
  smartc:
    /^https:\/\/([a-z0-9-]+\.smartcmobile\.com\/WidgetAPI\/Outage\/\w+(\?.*)?|[^/]+\/.*\/outage\/alloutages\/\d+\/\d+(\/\w+)?(\?.*)?)$/i,
  wec: /^https:\/\/[^/]+\/outagesummary\/view\/OutageEventJSON$/,
  puget: /^https:\/\/www\.pse\.com\/api\/sitecore\/OutageMap\/AnonymoussMapListView$/,
  nisource: /^https:\/\/[^/]+\/nisource-api\/ldc\/GetPowerOutages$/,
  pgegraphql: /^https:\/\/apix\.portlandgeneral\.com\/pge-graphql$/,
  midamerican: /^https:\/\/www\.midamericanenergy\.com\/OutageWatch\/api\/County\/CountyInfo\/?$/,
  smud: /^https:\/\/usage\.smud\.org\/omkml\/api\/communitylist\/?$/,
  idahopower: /^https:\/\/apiedge\.idahopower\.com\/api\/Outage\/GetCurrentOutageInformation$/,
  mlgw: /^https:\/\/outagemap\.mlgw\.org\/geojson\.php$/,
  tep: /^https:\/\/apps\.tep\.com\/OutageApp\/mapfeed\/?$/,
  nwe: /^https:\/\/(www\.)?northwesternenergy\.com\/get-outage-map-data\/?$/,
  aes: /^https:\/\/(myaccount\.aesindiana\.com\/OMSDATA\/OMSDATA_OSI|myprofile\.aes-ohio\.com\/DATA\/DPLOMSDATA)\.xml$/,
  teco: /^https:\/\/[^/]+\/api\/v1\/outage-tiles\/?$/,
  kub: /^https:\/\/www\.kub\.org\/api\/outage\/v1\/electric-outages\/?$/,
  clarkpud: /^https:\/\/www\.clarkpublicutilities\.com\/outage-map\/data\.js$/,
  novec: /^https:\/\/www\.novec\.com\/stormcenter\/data\/outagedtl\.xml$/,
  luma: /^https:\/\/api\.miluma\.lumapr\.com\/miluma-outage-api\/outage\/regionsWithoutService\/?$/,
  anaheim: /^https:\/\/gis\.anaheim\.net\/electricoutages\/ActiveIncidents\.cshtml$/,
  gridvu: /^https:\/\/[^/]+\/GridVuServer\/Public\/getAllOutages\/?$/i,
  sienatech: /^https:\/\/[^/]+\/Outages\/Home\/UpdatePushpin$/i,
  duke: /^https:\/\/[^/]+\/outage-maps\/v1\/counties\?jurisdiction=[A-Z]{3}$/,
  avangrid: /^https:\/\/apim\.avangrid\.com\/[a-z]+\/v1\/public\/outagedata\?filter=(county|town)$/,
  pointlist: /^https:\/\/[^/]+\/\S*$/,
  heco: /^https:\/\/[^/]+\/api\/v1\/outages\/?$/,
  elpaso: /^https:\/\/[^/]+\/OmsApi\/GetOutages\/?$/i,
  snopud: /^https:\/\/outagemap\.snopud\.com\/Home\/KMLOutageAreas\/?$/,
  gmp: /^https:\/\/api\.greenmountainpower\.com\/api\/v2\/outages\/incidents\/towns(\?all=true)?$/,
  liberty: /^https:\/\/[^/]+\/OutageAPI\/api\/1\/Outage\/OutageSummaryCity\?companyGroupCode=[A-Za-z0-9]+$/i,
  chugach: /^https:\/\/www\.chugachelectric\.com\/outage\/Grids\.js$/,
  milsoftmobile: /^https:\/\/[^/]+(\/[^?#]*)?\/MobileMap\/OMSMobileService\.asmx\/GetAllCounties$/i,
};

/** Reserved example hosts (RFC 2606) and names like `example-coop.com`, as in sources.example.csv. */
const EXAMPLE_HOST = /(^|\.)example(-[a-z0-9-]+)?\.(com|org|net)$|\.(example|test|invalid)$/i;
const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$|\.localhost$/i;
/**
 * INSTANCE_ID, VIEW_ID, YOUR_TENANT, {tenant}, <KEY>, CHANGEME: what a template leaves for a person to fill in. Real
 * upper-case segments exist (ArcGIS services such as EDAR_OMS or CURRENTOUTAGES_2024), so only these words count.
 */
const PLACEHOLDER =
  /^([A-Z0-9]+_)*(ID|KEY|GUID|UUID|SLUG|TOKEN|NAME)$|^(YOUR|MY)_[A-Z0-9_]+$|^(INSTANCE|TENANT|CLIENT|CHANGEME|PLACEHOLDER|TODO|X{3,})$|^\{[^}]*\}$|^<[^>]*>$/;

const decoded = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a stray % is the shape check's business
  }
};

/** The row's options as parsed, or read from its record when parseRegistry rejected the row ({} when not an object). */
export function optionsOf(row: CheckRow): Record<string, unknown> {
  if (row.source) return row.source.options;
  try {
    const o: unknown = JSON.parse(row.record.options || '{}');
    return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : {};
  } catch {
    return {}; // parseRegistry reports options that are not JSON
  }
}

export function checkUrl(row: CheckRow, shipped: boolean): Finding[] {
  let u: URL;
  try {
    u = new URL(row.record.url);
  } catch {
    return []; // parseRegistry already reported it
  }
  const out: Finding[] = [];
  const bad = (message: string) => out.push({ severity: 'error', column: 'url', message });
  if (EXAMPLE_HOST.test(u.hostname)) bad(`host \`${u.hostname}\` is a placeholder; use the utility's real feed host`);
  if (shipped && LOOPBACK_HOST.test(u.hostname))
    bad(`host \`${u.hostname}\` is this machine; a shipped registry names the utility's real feed host`);
  const parts = [...u.pathname.split('/').map(decoded), ...u.searchParams.values()];
  const held = parts.filter((p) => PLACEHOLDER.test(p));
  if (held.length)
    bad(
      `\`${held.join('`, `')}\` is a placeholder; replace it with the utility's real value (see its map page's network requests)`,
    );
  // spec: issue 26 — plain http only where the row's options.plain_http says why (./transport.ts)
  const transport = transportProblem(u, optionsOf(row), LOOPBACK_HOST.test(u.hostname));
  if (transport) bad(transport);
  // The shapes name https; a plain-http row (allowed or not, reported above) is matched in its https form.
  const shape = Object.hasOwn(URL_SHAPES, row.record.connector) ? URL_SHAPES[row.record.connector] : undefined;
  if (shape && !shape.test(httpsForm(u.href)) && !shape.test(httpsForm(row.record.url))) {
    out.push({
      severity: row.active ? 'error' : 'warning',
      column: 'url',
      message: `does not look like a ${row.record.connector} feed URL (expected ${shape.source})`,
    });
  }
  return out;
}

export function checkStatus(row: CheckRow, shipped: boolean): Finding[] {
  const { status } = row;
  if (status === '')
    return shipped
      ? [{ severity: 'error', column: 'status', message: `status is empty; use one of ${STATUSES.join(', ')}` }]
      : [];
  if (!(STATUSES as readonly string[]).includes(status))
    return [
      { severity: 'error', column: 'status', message: `status \`${status}\` is not one of ${STATUSES.join(', ')}` },
    ];
  if (status !== 'active' && !row.record.status_reason?.trim()) {
    return [
      {
        severity: 'error',
        column: 'status_reason',
        message: `a ${status} row needs a status_reason saying why it is not polled and what would make it active`,
      },
    ];
  }
  return [];
}

/**
 * Recorded scraper bundles (see ../shared/data/README.md) combine several upstream responses in one file; this is how
 * each becomes the raw value its connector's fetch returns. A saved probe directory needs none of this.
 */
