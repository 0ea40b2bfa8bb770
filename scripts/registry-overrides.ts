// Hand-kept choices for scripts/build-registry.ts: EIA-861 utility numbers the name matching gets wrong or cannot
// know, states a feed really covers, explained customer gaps, and the reasons a feed is gated or not yet wired.
// Every entry was checked by hand against EIA-861 2018 (Sales_Ult_Cust, Service_Territory) and the peer's config.

import { MORE_NEW_PEERS, MORE_NEW_PEER_OVERRIDES } from './registry-new-peers.ts';

export interface Override {
  /** EIA-861 2018 utility numbers the feed covers (several when one map serves several operating companies) */
  eia?: number[];
  /** postal codes the feed covers, when the peer's name gives none or more than the feed serves */
  states?: string[];
  /** why EIA-861 customers and the peer's servedTotal differ by more than 35 % (kept in status_reason) */
  gap?: string;
  /** why the row is disabled although its connector exists */
  disabled?: string;
  /** connector options added to the ones derived from the peer's config */
  options?: Record<string, unknown>;
  /** the feed itself, where a public capture shows the map reads another one than the peer's config names */
  feed?: { connector: string; url: string; options?: Record<string, unknown> };
  /** gated with this reason: a credentialed feed whose `options.credential_env` names the variable to set */
  gated?: string;
  /** the public source of the row's URL, where it is not the peer's config */
  provenance?: string;
  /** counties the utility's own capture shows it serves beyond EIA-861 2018's Service_Territory, with the evidence */
  territory_extra?: Record<string, string>;
}

export const OVERRIDES: Record<string, Override> = {
  // Operating companies behind one map.
  'aep-texas': { eia: [3278, 20404] }, // AEP Texas Central + North (delivery-only: customers from Reliability)
  ameren: { eia: [19436, 56697] }, // Union Electric (MO) + Ameren Illinois
  'appalachian-power': { eia: [733, 10331] }, // + Kingsport Power (TN), which does business as Appalachian Power
  'dominion-va-nc': {
    eia: [19876], // Virginia Electric & Power; Dominion SC is its own row
    territory_extra: {
      '51620': "Dominion's own report lists Franklin City under Southside Virginia, 4 customers served",
    },
  },
  // Gated: polled where OUTAGE_CREDENTIAL_DUKE is set, and then Duke's public layer (the duke-*-arcgis rows of
  // registry-new-peers.ts, options.yields_to_credential) steps aside, so one utility is polled by one row.
  'duke-carolinas': { eia: [5416, 3046] }, // the DEC jurisdiction answers for Duke Energy Progress as well
  'duke-ohio-ky': { eia: [3542, 19446] },
  entergy: { eia: [11241, 814, 55937, 12685, 13478] }, // Louisiana, Arkansas, Texas, Mississippi, New Orleans
  evergy: { eia: [10000, 22500, 10005, 12698] }, // Metro, Kansas Central, Kansas South, Missouri West
  eversource: { eia: [54913, 4176, 15472] }, // NSTAR (with former WMECO), CL&P, PSNH
  'firstenergy-mdwv': { eia: [15263, 12796], states: ['MD', 'WV'] }, // Potomac Edison + Mon Power
  'firstenergy-oh': { eia: [13998, 3755, 18997] }, // Ohio Edison, Cleveland Electric Illuminating, Toledo Edison
  'firstenergy-pa': { eia: [20387, 14711, 12390, 14716], states: ['PA'] }, // West Penn, Penelec, Met-Ed, Penn Power
  fpl: { eia: [6452, 7801] }, // FPL + Gulf Power (the northwest feed, merged into FPL after 2018)
  // Hawaiian Electric, Hawaii Electric Light, Maui Electric; credentialed (GATED.heco): polled where the variable is set
  heco: { eia: [19547, 8287, 11843], options: { credential_env: 'OUTAGE_CREDENTIAL_HECO' } },
  'lge-ku': { eia: [10171, 11249], states: ['KY', 'VA'] }, // KU (with Old Dominion Power in VA) + LG&E
  'national-grid-ma': { eia: [11804, 13206] }, // Massachusetts Electric + Nantucket Electric
  'northwestern-energy': { eia: [12825, 13809] },
  'nv-energy': { eia: [13407, 17166] }, // Nevada Power + Sierra Pacific Power

  // Names the matching cannot resolve (another utility's name contains the same words).
  'aes-ohio': { eia: [4922] },
  'bryan-texas-utilities': { eia: [2442] }, // City of Bryan - (TX)
  'cde-lightband-tn': { eia: [3704] }, // City of Clarksville - (TN)
  'central-ec-or': { eia: [3240] },
  'central-rural-ec-ok': { eia: [3226] },
  coserv: { eia: [5078] }, // Denton County Elec Coop
  'cps-energy': { eia: [16604] }, // City of San Antonio - (TX)
  'denton-municipal-electric': { eia: [5063] },
  'dominion-sc': { eia: [17539] },
  'eastern-illini-electric': { eia: [5585] }, // EIA 2018 still says Eastern Illinois Elec Coop
  'eau-claire-energy': { eia: [5632] }, // Eau Claire Electric Coop
  'energy-coop-oh': { eia: [10668] }, // Licking Rural Electric (The Energy Cooperative)
  eweb: { eia: [6022] }, // City of Eugene - (OR)
  'georgia-power': { eia: [7140], options: { summary: true } }, // summary: see the Kubra rows below
  'jackson-emc': { eia: [9601] },
  'kentucky-power': { eia: [22053] },
  'laurens-cpw': { eia: [21526] }, // City of Laurens - (SC)
  'memphis-mlgw': { eia: [12293] },
  'midwest-energy-mi': { eia: [12377], states: ['MI', 'IN', 'OH'] }, // Midwest Energy Cooperative in 2018
  'minnesota-power': { eia: [12647] }, // ALLETE
  'mississippi-power': { eia: [12686] },
  'muscatine-power-water': { eia: [13143] }, // Board of Water Electric & Communications
  nipsco: { eia: [13756] }, // Northern Indiana Pub Serv Co
  'northeast-ms-epa': { eia: [40302] },
  'oklahoma-electric-coop': { eia: [14062] },
  'orlando-ouc': { eia: [14610] },
  pacificorp: { eia: [14354] },
  pepco: { eia: [15270] },
  'pseg-nj': { eia: [15477] },
  'santee-cooper': { eia: [17543] },
  'seco-energy': { eia: [18304] },
  swepco: { eia: [17698] },
  'versant-power': { eia: [1179] }, // Emera Maine in 2018
  'we-energies': { eia: [20847] },
  'win-energy-remc-in': { eia: [25295] }, // Western Indiana Energy REMC
  // NSP-Minnesota also serves Fargo ND and Sioux Falls SD: the layer's `states` field names each Xcel state
  'xcel-mn': {
    eia: [13781],
    states: ['MN', 'ND', 'SD'],
    options: { where: "states IN ('MN','ND','SD')" },
    provenance:
      "outage-atlas utilities/xcel-mn.json@36d5e72 (this layer with states='MN'); codebooker/GlobeView proxy.py@08c4ae1 (fetch_xcel_state_outages(state_code, …) GETs XCEL_MN_OUTAGES_URL = https://emcs-gis.esriemcs.com/arcgis/rest/services/Xcel/XcelOutage/MapServer/3/query with where states='{state_code}' and outFields …customers,…,states,…,county,…; it is called for MN and CO). Shown: one Xcel layer, filtered by its states field. Inferred: NSP-Minnesota's North and South Dakota customers (EIA-861 2018 utility 13781 has ND and SD rows: Fargo, Grand Forks, Minot, Sioux Falls) are its features with states 'ND' and 'SD'; EIA-861 2018",
  },

  // States the peer's name leaves out although the co-op serves them.
  'carroll-electric-ar': { states: ['AR', 'MO'] },
  'tri-county-emc-tn': { states: ['TN', 'KY'] },

  // Customer gaps checked by hand (EIA-861 2018 kept as the count; the peer's servedTotal is a later or other figure).
  'apex-electric-nc': {
    gap: "EIA-861 2018 counts 21,229 for the Town of Apex, one of the fastest-growing towns in North Carolina; the peer's figure is years later (growth, not verified)",
  },
  'farmers-ec-tx': {
    eia: [6182],
    gap: "EIA-861 2018 counts 64,236 for Farmers Electric Coop (TX), whose Collin/Hunt county territory grows fast; the peer's figure is years later (growth, not verified)",
  },
  'east-ms-epa': {
    eia: [5578],
    gap: "EIA-861 2018 counts 12,783 (Reliability: 12,070) for East Mississippi Elec Pwr Assn, the only utility of that name; the peer's 37,759 is unexplained, EIA is kept",
  },
  'grand-haven-blp': {
    gap: "EIA-861 2018 counts 14,187 for the City of Grand Haven; the peer's 7,725 looks like a partial count (e.g. one customer class), EIA is kept",
  },
  'mckenzie-ec-nd': {
    gap: "EIA-861 2018 counts 12,753 in ND for McKenzie Electric Coop (oil-field growth); the peer's 4,807 is below it and unexplained, EIA is kept",
  },
  'empire-liberty': {
    gap: "Empire District Electric had 173,040 electric customers in 2018; the peer's 448,200 appears to count all Liberty central-region customers (gas and water too)",
  },
  'uns-electric': {
    gap: "UNS Electric had 97,926 customers in 2018; the peer's 21,000 does not match any UNS Electric figure, EIA is kept",
  },

  // Tweaks to connector options.
  // The county count answer (customers served per county) is proven by CenterPoint's recorded capture only; on a
  // tenant that lacks it the request would fail every poll, so no other row asks for it.
  'centerpoint-houston-tx': {
    eia: [8901],
    options: { county_counts: true },
    territory_extra: { '48185': "CenterPoint's own capture lists Grimes County with 1 customer served" },
  },

  // Kubra rows whose real scrapers read the summary file and the cluster tiles (PROVENANCE-2026-11-26): DTE's
  // deployment publishes no county report and no scraper ever fetched its thematic-1, so its counties come from the
  // outage points. Alabama and Georgia Power keep the county report and add the summary's headline; walking their
  // tiles (1,500–1,900 per storm poll, on the host ~50 Kubra rows share) is left off until the report is proven.
  dte: { options: { summary: true, counties: 'clusters', bbox: [-84.4, 41.7, -82.3, 44.2], max_tiles: 5000 } },
  'austin-energy': { options: { summary: true, incidents: true, bbox: [-98.2, 29.9, -97.3, 30.8] } },
  'alabama-power': { options: { summary: true } },

  // A NISC tenant without a county region set (issue 23): its outages are placed from config.json's map extent.
  'mohave-electric': {
    provenance:
      "vmanam1/az-power-outage-archive README.md@024632f (polls Mohave Electric's NISC hosted map https://mohaveelectric.outagemap.coop/, whose JSON is on outagemap-data.cloud.coop); EIA-861 2018",
  },

  // DTE's own outage-area layer (byte-exact captures of all five pages of the 4 July 2026 storm): every outage with
  // its polygon, but its NUM_CUST sum (342,448) is 19 % above DTE's own headline at that hour (situations.json
  // 287,265; the Kubra summary 275,805), as circuit and subtransmission areas nest. The Kubra row stays the feed.
  'dte-arcgis': {
    feed: {
      connector: 'arcgis',
      url: 'https://outagemap.serv.dteenergy.com/GISRest/services/OMP/OutageLocations/MapServer/2',
      options: {
        format: 'geojson',
        order_by: 'OBJECTID ASC',
        fields: {
          id: 'JOB_ID',
          customers_out: 'NUM_CUST',
          etr: 'EST_REP_DTTM',
          cause: 'CAUSE',
          started_at: 'OFF_DTTM',
        },
      },
    },
    disabled:
      "DTE's own outage-area layer: its NUM_CUST sum ran 19 % above DTE's headline in the 4 July 2026 storm (nested circuit and subtransmission areas), so the Kubra row (dte) stays the feed; enable it once nesting is resolved",
    provenance:
      'wadamcI/dte-outages dte/part-*.json (byte-exact query pages, commit 535ada1, 2026-07-04); map page https://outage.dteenergy.com/',
  },

  // Parked by the peer (its `disabled` flag); the reason in our words.
  // CMP's map moved to Avangrid's API (a 2026 capture; the peer's ArcGIS host no longer resolves). It needs a
  // subscription key: gated, polled where the deployment sets OUTAGE_CREDENTIAL_AVANGRID.
  'cmp-maine': {
    feed: {
      connector: 'avangrid',
      url: 'https://apim.avangrid.com/cmp/v1/public/outagedata?filter=county',
      options: { credential_env: 'OUTAGE_CREDENTIAL_AVANGRID' },
    },
    gated:
      'needs an Avangrid API subscription key: polled only where OUTAGE_CREDENTIAL_AVANGRID is set (sent as ocp-apim-subscription-key); we never take the key the map page ships',
    provenance:
      'anniebritton/southport-weather-hub scripts/fetch-outages.sh@6106ec7 (polls this URL, ?filter=county and ?filter=town, with an ocp-apim-subscription-key header, Jul-Aug 2026); EIA-861 2018',
  },

  // Utilities beyond the peer (issue 26 part 1, NEW_PEERS below): each feed's URL, tenant or instance id is taken
  // from the public project named here, on a platform a connector already reads.
  delmarva: {
    eia: [5027], // Delaware and Maryland's Eastern Shore
    provenance:
      "codebooker/AmericaMap proxy.py@ee096a5 (DELMARVA_INSTANCE_ID b3e5379d-… and DELMARVA_VIEW_ID d538c2a7-…, the Kubra StormCenter of https://outagemap.delmarva.com/, polled beside Pepco's instance bac68083-…, the one our pepco row reads); EIA-861 2018",
  },
  'orange-rockland': {
    eia: [14154, 16213], // Orange & Rockland (NY) + its New Jersey company Rockland Electric
    provenance:
      "codebooker/AmericaMap proxy.py@ee096a5 (ORU_POWER_DATA_ROOT https://outagemap.oru.com/resources/data/external/interval_generation_data, Con Edison's iFactor layout); report file names from Urban-Research-Group/outage-data-scraper app/scrapers/ny_scraper.py@daf7b82, whose O&R scraper (events/ny/layout_1.json) keeps the map's report_ny and report_nj requests (county trees of New York and New Jersey); EIA-861 2018",
  },
  nppd: {
    eia: [13337],
    provenance:
      "franzenjb/tn-power-tracker api_discovery_results/0064_Nebraska_Public_Power_District.json@3d4dba5 (the network capture of NPPD's outage page: GET https://nppd-svc.cxlive.ai/Outageservice/api/1/outage/alloutages/2/1/false answered the SmartCMobile ServiceAPI envelope, Jan 2026); EIA-861 2018",
  },
  'navopache-electric': {
    eia: [13318],
    provenance:
      'vmanam1/az-power-outage-archive README.md@024632f and providers/navopache.py@7ab700e (polls NISC slug navopache: https://navopache.outagemap.coop/, JSON on outagemap-data.cloud.coop); EIA-861 2018',
  },
  'dixie-power': {
    eia: [40165], // Dixie Escalante R E A (Dixie Power), Utah and the Arizona Strip
    provenance:
      'vmanam1/az-power-outage-archive README.md@024632f and providers/dixie.py@6ca2cf2 (polls NISC slug dixiepower: https://dixiepower.outagemap.coop/); EIA-861 2018',
  },
  'garkane-energy': {
    eia: [6957],
    provenance:
      'vmanam1/az-power-outage-archive README.md@024632f and providers/garkane.py@6ca2cf2 (polls NISC slug garkaneenergy: https://garkaneenergy.outagemap.coop/); EIA-861 2018',
  },
  ssvec: {
    eia: [18280],
    feed: {
      connector: 'arcgis',
      url: 'https://services.arcgis.com/oiVF7alPNKGlpRRF/arcgis/rest/services/Active_Outages_Public/FeatureServer/0',
      options: {
        fields: {
          id: 'INCIDENT_ID',
          customers_out: 'CUSTOMER_COUNT',
          etr: 'TIME_RESTORED_EST',
          started_at: 'TIME_OUTAGE',
          cause: 'CAUSE',
          city: 'REGION',
        },
      },
    },
    provenance:
      'vmanam1/az-power-outage-archive scripts/config.py@20c7775 (SSVEC_URL, queried where=1=1, outFields=*) and providers/ssvec.py@20c7775 (the fields read: INCIDENT_ID, CUSTOMER_COUNT, REGION, CAUSE, TIME_OUTAGE, TIME_RESTORED_EST); EIA-861 2018',
  },
  'gibson-emc': {
    eia: [7174],
    states: ['TN', 'KY'],
    provenance:
      'franzenjb/tn-power-tracker frontend/app/api/outages/tennessee/route.ts@3d4dba5 (polls https://outagemap-data.cloud.coop/gibsonconnect/Hosted_Outage_Map/summary.json); EIA-861 2018',
  },
  'meriwether-lewis-ec': {
    eia: [12330],
    provenance:
      'franzenjb/tn-power-tracker frontend/app/api/outages/tennessee/route.ts@3d4dba5 (polls https://outagemap-data.cloud.coop/mlecmn/Hosted_Outage_Map/summary.json); EIA-861 2018',
  },
  'sequachee-valley-ec': {
    eia: [16930],
    provenance:
      'franzenjb/tn-power-tracker frontend/app/api/outages/tennessee/route.ts@3d4dba5 (polls https://outagemap-data.cloud.coop/svalleyec/Hosted_Outage_Map/summary.json); EIA-861 2018',
  },
  'tri-state-emc': {
    eia: [19154], // Georgia, Tennessee and North Carolina
    provenance:
      'franzenjb/tn-power-tracker MASTER_UTILITY_DATABASE.md@3d4dba5 (outage map https://www.outageentry.com/CustomerFacingAppJQM/outage.php?clientid=tsemc); EIA-861 2018',
  },
  'forked-deer-ec': {
    eia: [40236],
    provenance:
      'franzenjb/tn-power-tracker MASTER_UTILITY_DATABASE.md@3d4dba5 (outage map https://www.outageentry.com/CustomerFacingAppJQM/outage.php?clientid=FDEC); EIA-861 2018',
  },

  // New connectors on real or peer captures (issue 26 part 1): OPPD on the SmartC ServiceAPI, SnoPUD's KML areas.
  oppd: {
    provenance:
      "chrisflegel-creator/gridwatch-collector scripts/additional-public-relay.mjs@65e968f (anonymous GETs of https://myoppd-svc.cxlive.ai/ServiceAPI/api/1/ outage/alloutages/2/1/false, outage/AllOutagesListView/2/1/false and Account/Count; its public/oppd.json is the fixture's capture); EIA-861 2018",
  },
  snopud: {
    provenance:
      'davemattson/snopud-outage .github/workflows/scrape-outages.yml@8757c99 (curl of https://outagemap.snopud.com/Home/KMLOutageAreas every 30 min; its KMLOutageAreas.xml history holds the real answers) and theomichel/outage-data-analysis supabase-outage-monitor/supabase/functions/_shared/fetchers.ts@6239bdd (the same URL); EIA-861 2018',
  },
  // Credentialed (GATED['el-paso']): polled where the variable is set; the answer is an AES-GCM envelope.
  'el-paso': { options: { credential_env: 'OUTAGE_CREDENTIAL_ELPASO' } },
  // More utilities beyond the peer, from other public projects (scripts/registry-new-peers.ts).
  ...MORE_NEW_PEER_OVERRIDES,
};

/**
 * Utilities the peer registry does not list, in its entry shape (adapter, config, the names EIA-861 is matched on),
 * each with the public source of its feed URL in OVERRIDES' provenance.
 */
export const NEW_PEERS = [
  {
    id: 'mohave-electric',
    name: 'Mohave Electric Cooperative (AZ)',
    adapter: 'kiuc',
    match: ['Mohave Electric Coop'],
    config: { base: 'https://outagemap-data.cloud.coop/mohaveelectric/Hosted_Outage_Map' },
    _path: 'vmanam1/az-power-outage-archive README.md',
    _commit: '024632ff21c4539e88355ec830e11fa2341b0317',
  },
  {
    id: 'delmarva',
    name: 'Delmarva Power (DE/MD)',
    adapter: 'kubra',
    match: ['Delmarva Power'],
    config: {
      instance: 'b3e5379d-7d75-4ea0-a978-b42bab577210',
      view: 'd538c2a7-4991-4b49-8b87-02012114893a',
      referer: 'https://outagemap.delmarva.com/',
    },
    _path: 'codebooker/AmericaMap proxy.py',
    _commit: 'ee096a517a90c1a1c9667b8f427a81fecdba647e',
  },
  {
    id: 'orange-rockland',
    name: 'Orange & Rockland (NY/NJ)',
    adapter: 'ifactor',
    match: ['Orange & Rockland Utils', 'Rockland Electric'],
    config: {
      base: 'https://outagemap.oru.com/resources/data/external/interval_generation_data',
      reports: ['report_ny.json', 'report_nj.json'],
      referer: 'https://outagemap.oru.com/',
    },
    _path: 'codebooker/AmericaMap proxy.py',
    _commit: 'ee096a517a90c1a1c9667b8f427a81fecdba647e',
  },
  {
    id: 'nppd',
    name: 'Nebraska Public Power District (NE/SD)',
    adapter: 'smartc',
    match: ['Nebraska Public Power District'],
    config: {
      url: 'https://nppd-svc.cxlive.ai/Outageservice/api/1/outage/alloutages/2/1/false',
      referer: 'https://onlineaccount.nppd.com/',
    },
    _path: 'franzenjb/tn-power-tracker api_discovery_results/0064_Nebraska_Public_Power_District.json',
    _commit: '3d4dba507d486c030e04fa54e60f8950d25ffdbf',
  },
  ...[
    [
      'navopache-electric',
      'Navopache Electric Cooperative (AZ/NM)',
      'navopache',
      '7ab700e2fe46e56dd1caaedff55cff479106d6cd',
    ],
    ['dixie-power', 'Dixie Power (UT/AZ)', 'dixiepower', '6ca2cf2c4e880faecf080ed970cbd0a544bfad2a'],
    [
      'garkane-energy',
      'Garkane Energy Cooperative (UT/AZ)',
      'garkaneenergy',
      '6ca2cf2c4e880faecf080ed970cbd0a544bfad2a',
    ],
  ].map(([id, name, slug, commit]) => ({
    id,
    name,
    adapter: 'kiuc',
    match: [name],
    config: { base: `https://outagemap-data.cloud.coop/${slug}/Hosted_Outage_Map` },
    _path: `vmanam1/az-power-outage-archive providers/${slug}.py`,
    _commit: commit,
  })),
  {
    id: 'ssvec',
    name: 'Sulphur Springs Valley Electric Cooperative (AZ)',
    adapter: 'arcgis',
    match: ['Sulphur Springs Valley'],
    config: { referer: 'https://www.ssvec.org/outage/' },
    _path: 'vmanam1/az-power-outage-archive scripts/config.py',
    _commit: '20c7775d65d1c984ea861f330c62fccd1268b820',
  },
  ...[
    ['gibson-emc', 'Gibson Electric Membership Corporation (TN/KY)', 'gibsonconnect'],
    ['meriwether-lewis-ec', 'Meriwether Lewis Electric Cooperative (TN)', 'mlecmn'],
    ['sequachee-valley-ec', 'Sequachee Valley Electric Cooperative (TN)', 'svalleyec'],
  ].map(([id, name, slug]) => ({
    id,
    name,
    adapter: 'kiuc',
    match: [name],
    config: { base: `https://outagemap-data.cloud.coop/${slug}/Hosted_Outage_Map` },
    _path: 'franzenjb/tn-power-tracker frontend/app/api/outages/tennessee/route.ts',
    _commit: '3d4dba507d486c030e04fa54e60f8950d25ffdbf',
  })),
  ...[
    ['tri-state-emc', 'Tri-State Electric Membership Corporation (GA/TN/NC)', 'tsemc'],
    ['forked-deer-ec', 'Forked Deer Electric Cooperative (TN)', 'FDEC'],
  ].map(([id, name, client]) => ({
    id,
    name,
    adapter: 'outageentry',
    match: [name],
    config: { client, serviceIndex: 1 },
    _path: 'franzenjb/tn-power-tracker MASTER_UTILITY_DATABASE.md',
    _commit: '3d4dba507d486c030e04fa54e60f8950d25ffdbf',
  })),
  {
    id: 'oppd',
    name: 'Omaha Public Power District (NE)',
    adapter: 'smartc',
    match: ['Omaha Public Power District'],
    config: { url: 'https://myoppd-svc.cxlive.ai/ServiceAPI/api/1/outage/alloutages/2/1/false' },
    _path: 'chrisflegel-creator/gridwatch-collector scripts/additional-public-relay.mjs',
    _commit: '65e968f35c3c9560255cc7387eb34ef8b9780db0',
  },
  {
    id: 'snopud',
    name: 'Snohomish County PUD (WA)',
    adapter: 'snopud',
    match: ['Snohomish County', 'PUD No 1 of Snohomish County'],
    config: { url: 'https://outagemap.snopud.com/Home/KMLOutageAreas', base: 'https://outagemap.snopud.com' },
    _path: 'davemattson/snopud-outage .github/workflows/scrape-outages.yml',
    _commit: '8757c99077f0ebeddb4f0107203f443cc9dbf915',
  },
  ...MORE_NEW_PEERS,
];

/** A second feed of a utility the peer lists: the new row's id and the peer entry it is built from (EIA, states). */
export const EXTRA_ROWS: Record<string, string> = {
  'dte-arcgis': 'dte',
};

/**
 * Files of ../shared/data that its README judges hand-made or edited in the vendor shape (placeholder names, rounded
 * values): a row they prove has `none` for evidence. Every other fixture is a real capture.
 */
export const SAMPLES = new Set([
  'payloads/aes-indiana/sample.xml',
  'payloads/aes-ohio/sample.xml',
  'payloads/anaheim/sample.json',
  'payloads/chugach/sections.json',
  'payloads/clark-pud/sample.json',
  'payloads/cleco/sample.json',
  'payloads/datacapable/sample.json',
  'payloads/el-paso/sample.json',
  'payloads/gmp/sample.json',
  'payloads/gridvu/sample.json',
  'payloads/heco/sample.json',
  'payloads/idaho-power/sample.json',
  'payloads/ifactor/sample.json',
  'payloads/kub/sample.json',
  'payloads/kubra/firstenergy-sample.json',
  'payloads/kubra/multiregion-sample.json',
  'payloads/liberty/sample.json',
  'payloads/luma/sample.json',
  'payloads/midamerican/sample.json',
  'payloads/milsoft/boundaries.json',
  'payloads/milsoft/outages.json',
  'payloads/mlgw/sample.json',
  'payloads/novec/sample.xml',
  'payloads/nwe/sample.json',
  'payloads/odin/sample.json',
  'payloads/omap/sample.json',
  'payloads/outageentry/sample.json',
  'payloads/pacificorp/sample.json',
  'payloads/pge-graphql/sample.json',
  'payloads/puget/sample.json',
  'payloads/sienatech/sample.xml',
  'payloads/smartc/sample.json',
  'payloads/smud/sample.json',
  // a project's test scenarios in SnoPUD's KML shape (placeholder rows, a second Document): edited, not captures
  'payloads/snopud/2025-01-15T143000-KMLOutageAreas.xml',
  'payloads/snopud/2025-01-15T144003-KMLOutageAreas.xml',
  'payloads/teco/sample.json',
  'payloads/tep/sample.json',
  'payloads/tep/uns-sample.json',
  'payloads/wec/sample.json',
]);

/** Adapters whose feeds need credentials or keys: the rows stay `gated`. We never take keys from page JavaScript. */
export const GATED: Record<string, string> = {
  duke: "needs a Duke outage-maps API credential: polled only where OUTAGE_CREDENTIAL_DUKE is set (the Authorization value, or consumerKey:consumerSecret); we never take keys from the map's JavaScript",
  'el-paso':
    "needs an El Paso Electric API key and the AES key that opens its encrypted answer: polled only where OUTAGE_CREDENTIAL_ELPASO is set (`<api key>;<AES key as 64 hex digits>`); we never take keys from the map's JavaScript",
  heco: "needs a Hawaiian Electric outage API token: polled only where OUTAGE_CREDENTIAL_HECO is set (the bearer token, or the whole Authorization value); we never take a token from the map's own access-token endpoint",
};

/** Endpoints of single-utility adapters the peer config has no url for, from the peer README's request chains. */
export const UNWIRED_URLS: Record<string, string> = {
  chugach: 'https://www.chugachelectric.com/outage/Grids.js',
  'clark-pud': 'https://www.clarkpublicutilities.com/outage-map/data.js',
  cleco: 'https://cleco-prod.azure-api.net/outage/api/1/outage/alloutages/2/1', // SmartCMobile ServiceAPI
  'el-paso': 'https://starlit.epelectric.com/OmsApi/GetOutages',
  gmp: 'https://api.greenmountainpower.com/api/v2/outages/incidents/towns?all=true',
  gvea: 'https://outage.gvea.com/data/outageSummary',
  heco: 'https://outagemap-api-heco.azurewebsites.net/api/v1/outages',
  kub: 'https://www.kub.org/api/outage/v1/electric-outages',
  liberty: 'https://libertycf2-svc.smartcmobile.com/OutageAPI/api/1/Outage/OutageSummaryCity?companyGroupCode=LUMO',
  luma: 'https://api.miluma.lumapr.com/miluma-outage-api/outage/regionsWithoutService',
  midamerican: 'https://www.midamericanenergy.com/OutageWatch/api/County/CountyInfo/',
  mlgw: 'https://outagemap.mlgw.org/geojson.php',
  novec: 'https://www.novec.com/stormcenter/data/outagedtl.xml',
  nwe: 'https://northwesternenergy.com/get-outage-map-data',
  'pge-graphql': 'https://apix.portlandgeneral.com/pge-graphql',
  puget: 'https://www.pse.com/api/sitecore/OutageMap/AnonymoussMapListView',
  teco: 'https://outage-data-prod-hrcadje2h9aje9c9.a03.azurefd.net/api/v1/outage-tiles',
};

/**
 * Recorded payloads under ../shared/data that prove a row's connector: the utility's own real (or trimmed-real)
 * capture where one exists, else a real capture of the same platform from another utility. Where the platform has
 * no real capture at all (OutageEntry, OMAP, the SmartC WidgetAPI), the peer's edited sample.
 */
export const FIXTURES = {
  own: {
    'dominion-va-nc': 'payloads/kubra/dominion-report.json',
    dte: [
      'payloads/kubra/dte-summary-2026-07-04T0004Z.json',
      'payloads/kubra/dte-cluster-records-2023-08-24T1501Z.json',
      'payloads/kubra/dte-cluster-records-2026-08-22T2111Z.json',
      'payloads/kubra/dte-summary-2026-08-22T2221Z-bluesky.json',
    ],
    'austin-energy': 'payloads/kubra/austin-energy-cluster-records-2025-05-29T0209Z.geojson',
    'alabama-power': 'payloads/kubra/alabama-power-incidents-2022-03-31T0524Z.json',
    'georgia-power': 'payloads/kubra/georgia-power-incidents-2025-01-11T0848Z.json',
    'mohave-electric': 'payloads/nisc/mohave-summary.json', // with mohave-config.json beside it
    'dte-arcgis': [0, 1000, 2000, 3000, 4000]
      .map((o) => `payloads/arcgis/dte/dte-arcgis-layer2-2026-07-04T0016Z-offset${o}.geojson`)
      .concat('payloads/arcgis/dte/dte-arcgis-layer2-2026-08-08T1916Z-offset0.geojson'),
    kiuc: 'payloads/kiuc/summary.json',
    entergy: 'payloads/arcgis/entergy.json',
    sce: 'payloads/arcgis/sce.json',
    pge: [
      'payloads/pge/calm.json',
      'payloads/pge/outagewatch-2026-07-09/outages_l4.geojson',
      'payloads/pge/outagewatch-2026-07-09/outages_l8.geojson', // the same moment's outage areas (polygons)
      'payloads/pge/theomichel-2025-08-29/2025-08-29T224647-pge-events.json',
      'payloads/pge/theomichel-2025-08-29/2025-08-29T225732-pge-events.json',
    ],
    gvea: 'payloads/gvea/outages.json',
    nipsco: 'payloads/nisource/sample.json', // the peer's NIPSCO answer, trimmed (real values)
    'flint-emc': 'payloads/milsoft/flint-emc-boundaries-2026-10-10T1053Z.json',
    'centerpoint-houston-tx': 'payloads/datacapable/centerpoint-tx-bundle-2026-10-08T1403Z.json',
    coned: 'payloads/ifactor/coned-bundle-2026-10-08T1905Z.json',
    ppl: 'payloads/omap/sample.json',
    'shenandoah-valley-ec': 'payloads/outageentry/sample.json',
    pacificorp: [
      'payloads/pacificorp/rmp-maplistUT-2024-03-03T0045Z.json', // Rocky Mountain Power is PacifiCorp
      'payloads/pacificorp/rmp-maplistUT-2026-08-22T2121Z.json',
    ],
    'madison-ge': 'payloads/smartc/sample.json',
    'we-energies': [
      'payloads/wec/we-energies-latest-2026-07-27T2113Z.json',
      'payloads/wec/we-energies-latest-2026-08-08T1950Z.json',
    ],
    fpl: 'payloads/fpl/counties.json',
    'duke-carolinas': [
      'payloads/duke/duke-energy-carolinas-counties-dorian-2019-09-06T1130Z.json',
      'payloads/duke/duke-energy-carolinas-counties-dorian-2019-09-06T2100Z.json',
      'payloads/duke/carolinas.json',
    ],
    'duke-florida': 'payloads/duke/duke-energy-florida-counties-2020-02-07T0550Z.json',
    'cmp-maine': [
      'payloads/avangrid/cmp-towns-2026-07-16T2116Z.json',
      'payloads/avangrid/cmp-towns-2026-08-22T1651Z.json',
    ],
    'united-power': 'payloads/sienatech/sample.xml', // the folder's 2017 JEMC file is another SienaTech answer
    'seattle-city-light': [
      'payloads/datacapable/scl-events-2026-03-12T0553Z.json',
      'payloads/datacapable/scl-events-2025-02-25T1139Z-davemattson.json',
      'payloads/datacapable/scl-events-2026-08-22T1748Z.json',
      'payloads/datacapable/seattle-city-light-events-2026-03-08T0945Z.json',
    ],
    'aes-ohio': ['payloads/aes-ohio/aes-ohio-DPLOMSDATA-2026-09-23T1035Z.xml', 'payloads/aes-ohio/sample.xml'],
    puget: ['payloads/puget/pse-outages-2026-03-13T2218Z.json', 'payloads/puget/pse-outages-2024-11-19T2334Z.json'],
    oppd: 'payloads/smartc/oppd-serviceapi-bundle-2026-10-07T1501Z.json',
    // the second answer only: the first holds one area, a -1 placeholder (unknown, never 0), so no poll of it can
    // publish anything (it fails naming EstCustomersOut, as it should)
    snopud: ['payloads/snopud/2025-01-15T144003-KMLOutageAreas.xml'],
    // York Electric's own mobile service, both answers (iamimaginary/outage-atlas scratch files, June 2026)
    'york-ec': ['payloads/milsoft-asmx/GetAllCounties.xml', 'payloads/milsoft-asmx/GetAllOutages-york.xml'],
  } as Record<string, string | string[]>,
  kubraThematic: 'payloads/kubra/thematic-sample.json',
  milsoftBoundaries: 'payloads/milsoft/flint-emc-boundaries-2026-10-10T1053Z.json',
  milsoftOutages: 'payloads/milsoft/flint-emc-outages-2026-10-10T1053Z.json',
  platform: {
    kubra: 'payloads/kubra/dominion-report.json',
    kiuc: 'payloads/kiuc/summary.json',
    arcgis: 'payloads/arcgis/entergy.json',
    datacapable: 'payloads/datacapable/centerpoint-tx-bundle-2026-10-08T1403Z.json',
    ifactor: 'payloads/ifactor/coned-bundle-2026-10-08T1905Z.json',
    outageentry: 'payloads/outageentry/sample.json',
    omap: 'payloads/omap/sample.json',
    wec: 'payloads/wec/we-energies-latest-2026-07-27T2113Z.json',
    cleco: 'payloads/smartc/oppd-serviceapi-bundle-2026-10-07T1501Z.json',
    duke: 'payloads/duke/duke-energy-florida-counties-2020-02-07T0550Z.json',
    puget: 'payloads/puget/pse-outages-2026-03-13T2218Z.json',
    tep: 'payloads/tep/sample.json',
    milsoftmobile: 'payloads/milsoft-asmx/GetAllCounties.xml', // York Electric's, a real capture
  } as Record<string, string>,
};
