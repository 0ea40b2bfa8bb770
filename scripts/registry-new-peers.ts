// Utilities beyond the peer registry, from other public projects (issue 26 part 1): for each, the feed URL, tenant or
// client id is one a public scraper requests (or the documented request of a platform we read, on the host that
// scraper names), on a platform a connector already reads. Each row's provenance names the file and commit; EIA-861
// 2018 numbers were checked by hand (Sales_Ult_Cust name and state, Service_Territory counties).
// scripts/registry-overrides.ts spreads both exports into NEW_PEERS and OVERRIDES.
import type { Override } from './registry-overrides.ts';

interface Source {
  repo: string;
  path: string;
  commit: string;
}

/** One utility: the peer entry's name (with its states), EIA numbers, adapter config and what its source shows. */
interface NewRow {
  id: string;
  name: string;
  eia: number[];
  adapter: string;
  config: Record<string, unknown>;
  source: Source;
  shows: string;
  options?: Record<string, unknown>;
}

const URS: Omit<Source, 'path'> = {
  repo: 'Urban-Research-Group/outage-data-scraper',
  commit: 'daf7b829cb5051ffec3f9044ecbaadf7a7abdca9',
};
const ROSEBURG: Source = {
  repo: 'the-roseburg-community/utility-outages',
  path: 'app.py',
  commit: 'd4c08a2f75f324c4c0820ab0b2270c03b8da3bb5',
};

/** A table's lines as cells: one utility a line, cells separated by ` | `. */
const cellsOf = (table: string): string[][] =>
  table
    .trim()
    .split('\n')
    .map((line) => line.split(' | ').map((cell) => cell.trim()));
const eiaOf = (cell: string): number[] => cell.split(';').map(Number);

// ---- Urban-Research-Group/outage-data-scraper: events/<state>/layout_<n>.json name each utility's map URL, and
// app/scrapers/<state>_scraper.py says which scraper class reads that layout.

/**
 * Milsoft Web Outage Viewers (ga_scraper.py Scraper1 GETs {url}data/boundaries.json and {url}data/outages.json), per
 * layout file: `id | name (states) | EIA numbers | the layout's label | its URL`. Diverse Power and Okefenoke are listed
 * under two states' layouts with the same viewer; Riviera Utilities is the Foley Board of Utilities, Keys Energy
 * Services the Utility Board of the City of Key West, Illinois Electric Cooperative files as Illinois Rural Electric
 * Coop, Union Power Cooperative as Union Electric Membership Corp - (NC).
 */
const MILSOFT: Array<[path: string, layout: string, table: string]> = [
  [
    'events/al/layout_1.json',
    'al_scraper.py layout 1',
    `
baldwin-emc | Baldwin EMC (AL) | 1149 | Baldwin EMC Coop | https://oms.baldwinemc.com:82/
coosa-valley-ec | Coosa Valley Electric Cooperative (AL) | 4327 | Coosa Valley Electric Coop | http://outage.coosavalleyec.com/
covington-ec | Covington Electric Cooperative (AL) | 4430 | Covington Electric Coop | https://outage.cov-elect.com/
cullman-ec | Cullman Electric Cooperative (AL) | 4618 | Cullman Electric Coop | https://outages.cullmanec.com/
diverse-power | Diverse Power (GA/AL) | 19219 | Diverse Power | http://outages.diversepower.com/
florence-electricity | Florence Electricity Department (AL) | 6422 | Florence Electricity | http://68.208.116.30:7576/
marshall-dekalb-ec | Marshall-DeKalb Electric Cooperative (AL) | 11714 | Marshall-DeKalb Electric Coop | https://outage.mdec.coop/
pioneer-ec-al | Pioneer Electric Cooperative (AL) | 30517 | Pioneer Electric Coop | http://208.111.119.93/
riviera-utilities | Riviera Utilities (AL) | 6491 | Riviera Utilities | https://outage.rivierautilities.com/
sylacauga-utilities | Sylacauga Utilities Board (AL) | 18395 | Sylacauga City Electric | http://outage.sylacauga.net/
tallapoosa-river-ec | Tallapoosa River Electric Cooperative (AL) | 18203 | Tallapoosa River Electric Coop | https://trecoutages.com/
tombigbee-ec-al | Tombigbee Electric Cooperative (AL) | 19027 | Tombigbee Electric Coop | https://outage.tombigbee.org:7575/`,
  ],
  [
    'events/fl/layout_1.json',
    'fl_scraper.py layout 1',
    `
okefenoke-remc | Okefenoke REMC (GA/FL) | 31833 | Okefenoke Rural Electric Membership | https://oms.oremc.co:8443/
keys-energy | Keys Energy Services (FL) | 10226 | Keys Energy Services | https://powerstatus.keysenergy.com/
florida-keys-ec | Florida Keys Electric Cooperative (FL) | 6443 | Florida Keys Electric Cooperative | http://12.237.166.68:91/
escambia-river-ec | Escambia River Electric Cooperative (FL) | 5964 | Escambia River Electric Cooperative | http://12.21.156.105:5050/
chelco | Choctawhatchee Electric Cooperative (FL) | 3502 | Choctawhatchee Electric Cooperative | https://outageview.chelco.com:8080/`,
  ],
  [
    'events/ga/layout_1.json',
    'ga_scraper.py layout 1',
    `
washington-emc | Washington EMC (GA) | 20146 | Washington EMC | http://74.121.99.238:8081/
rayle-emc | Rayle EMC (GA) | 15700 | Rayle EMC | https://outage.rayleemc.com/
canoochee-emc | Canoochee EMC (GA) | 2903 | Canoochee EMC | https://outage.canoocheeemc.com:8889/
jefferson-energy-coop | Jefferson Energy Cooperative (GA) | 9689 | Jefferson Energy Cooperative | https://outage.jec.coop:83/
satilla-remc | Satilla REMC (GA) | 16674 | Satilla REMC | https://ov.satillaemc.com/
central-georgia-emc | Central Georgia EMC (GA) | 3248 | Central Georgia EMC | https://outage.cgemc.com:8181/
dalton-utilities | Dalton Utilities (GA) | 4744 | Dalton Utility | https://outageviewer.dutil.com/
blue-ridge-mountain-emc | Blue Ridge Mountain EMC (GA/NC) | 1891 | Blueridge Mountain EMC | http://outage.brmemc.com:8008/
grady-emc | Grady EMC (GA) | 7450 | Grady EMC | https://outage.gradyemc.com:7576/`,
  ],
  [
    'events/il/layout_4.json',
    'il_scraper.py layout 4',
    `
southeastern-illinois-ec | Southeastern Illinois Electric Cooperative (IL) | 17585 | southeastern illinois electric coop | https://outage.seiec.com/
illinois-ec | Illinois Electric Cooperative (IL) | 9209 | illinois electric coop | https://outage.e-co-op.com/`,
  ],
  [
    'events/la/layout_1.json',
    'la_scraper.py layout 1',
    `
beauregard-ec | Beauregard Electric Cooperative (LA) | 1458 | Beauregard Electric Cooperative | http://www.becioutage.org/`,
  ],
  [
    'events/ms/layout_1.json',
    'ms_scraper.py layout 1',
    `
four-county-epa | 4-County Electric Power Association (MS) | 6641 | 4-County EPA | https://outages.4county.org:8181/
magnolia-epa | Magnolia Electric Power Association (MS) | 11519 | Magnolia Electric Power | http://outage.mepcoop.com/`,
  ],
  [
    'events/nc/layout_1.json',
    'nc_scraper.py layout 1',
    `
albemarle-emc | Albemarle EMC (NC) | 240 | Albemarle EMC | https://outages.aemc.coop/
carteret-craven-ec | Carteret-Craven Electric Cooperative (NC) | 3107 | Carteret-Craven Electric Cooperative | http://outage.carteretcraven.coop/
edgecombe-martin-emc | Edgecombe-Martin County EMC (NC) | 5656 | Edgecombe-Martin County EMC | http://74.122.17.102/
halifax-emc | Halifax EMC (NC) | 7978 | Halifax EMC | https://outages.halifaxemc.com/
randolph-emc | Randolph EMC (NC) | 15671 | Randolph EMC | https://outages.randolphemc.com/
rutherford-emc | Rutherford EMC (NC) | 16496 | Rutherford EMC | http://cvoutage.remc.com:8083/
south-river-emc | South River EMC (NC) | 17572 | South River EMC | https://outage.sremc.com/
union-power-coop | Union Power Cooperative (NC) | 19435 | Union Power Cooperative | https://outage.union-power.com/`,
  ],
  [
    'events/sc/layout_1.json',
    'sc_scraper.py layout 1',
    `
aiken-ec | Aiken Electric Cooperative (SC) | 162 | Aiken Electric Cooperative | http://map.aikenco-op.org:8080/
blue-ridge-ec-sc | Blue Ridge Electric Cooperative (SC) | 1890 | Blue Ridge Electric Cooperative | https://www.brecoutagemap.com:7575/
fairfield-ec | Fairfield Electric Cooperative (SC) | 5929 | Fairfield Electric Coop | http://97.107.102.70/`,
  ],
  [
    'events/tn/layout_3.json',
    'tn_scraper.py layout 3',
    `
duck-river-emc | Duck River EMC (TN) | 5399 | Duck River Electric Membership Corporation | https://outagemap.dremc.com:8182/
powell-valley-ec | Powell Valley Electric Cooperative (TN/VA) | 15293 | Powell Valley Electric Cooperative | https://outages.pve.coop/
upper-cumberland-emc | Upper Cumberland EMC (TN) | 19574 | Upper Cumberland Electric Membership Corporation | https://outagemap.ucemc.com/
cleveland-utilities-tn | Cleveland Utilities (TN) | 3758 | Cleveland Utilities | http://outage.clevelandutilities.com:7576/
clinton-utilities-board | Clinton Utilities Board (TN) | 3812 | Clinton Utilities Board | http://outage.clintonub.com/
columbia-power-water | Columbia Power & Water Systems (TN) | 3855 | Columbia Power & Water Systems | https://oms.cpws.com/
fort-loudoun-ec | Fort Loudoun Electric Cooperative (TN) | 6608 | Fort Loudoun Electric Cooperative | http://outage.flec.org/`,
  ],
  [
    'events/tx/layout_8.json',
    'tx_scraper.py layout 8',
    `
new-braunfels-utilities | New Braunfels Utilities (TX) | 13418 | New Braunfels Utilities | https://oms.nbutexas.com/
bowie-cass-ec | Bowie-Cass Electric Cooperative (TX) | 2049 | Bowie-Cass Electric Coop, Inc. | http://outages.bcec.com:89/
mid-south-ec | Mid-South Electric Cooperative (TX) | 12452 | Mid-South Electric Coop Association | https://outage.midsouthelectric.com/
north-plains-ec | North Plains Electric Cooperative (TX) | 13757 | North Plains Electric Coop, Inc. | http://outagemap.npec.org:89/
taylor-ec-tx | Taylor Electric Cooperative (TX) | 27369 | Taylor Electric Coop, Inc. | http://216.146.11.196:7576/`,
  ],
];

const milsoftRows: NewRow[] = MILSOFT.flatMap(([path, layout, table]) =>
  cellsOf(table).map(([id, name, eia, label, url]) => ({
    id,
    name,
    eia: eiaOf(eia),
    adapter: 'milsoft',
    config: { base: url.replace(/\/+$/, ''), file: 'outages.json', referer: url },
    source: { ...URS, path },
    shows: `"${label}": "${url}"; app/scrapers/${layout} is ga_scraper.py Scraper1, which GETs {url}data/boundaries.json and {url}data/outages.json`,
  })),
);

/**
 * Milsoft/DataVoice mobile ASMX services (ga_scraper.py Scraper3 GETs {url}MobileMap/OMSMobileService.asmx/
 * GetAllCounties and …/GetAllOutages), as above. tcemc.com is Tri-County EMC of Dudley, NC (Wayne, Duplin, Johnston …
 * in Service_Territory 2018), not the Tennessee co-op of that name.
 */
const ASMX = 'MobileMap/OMSMobileService.asmx/GetAllCounties';
const MOBILE: Array<[path: string, layout: string, table: string]> = [
  [
    'events/al/layout_4.json',
    'al_scraper.py layout 4',
    `
pea-river-ec | Pea River Electric Cooperative (AL) | 14602 | PEA River Electric Coop | http://oms.peariver.com/OMSWebMap/`,
  ],
  [
    'events/ga/layout_3.json',
    'ga_scraper.py layout 3',
    `
irwin-emc | Irwin EMC (GA) | 9431 | Irwin EMC | http://map.irwinemc.com/omswebmap/
middle-georgia-emc | Middle Georgia EMC (GA) | 12472 | Middle Georgia EMC | https://outagemap.mgemc.com/OMSWebMap/
coastal-emc-ga | Coastal Electric Cooperative (GA) | 3843 | Coastal Electric Cooperation | https://oms.coastalemc.com/OMSWebMap/
upson-emc | Upson EMC (GA) | 19581 | Upson EMC | https://www.upsonemc.com/OMSWebMap/`,
  ],
  [
    'events/il/layout_5.json',
    'il_scraper.py layout 5',
    `
norris-ec | Norris Electric Cooperative (IL) | 13292 | norris electric coop | https://outage.norriselectric.com/OMSWebMap/
adams-ec-il | Adams Electric Cooperative (IL) | 97 | adams electric coop | https://outagemap.adamselectric.coop/OMSWebMap/`,
  ],
  [
    'events/ms/layout_3.json',
    'ms_scraper.py layout 3',
    `
tippah-epa | Tippah Electric Power Association (MS) | 18943 | Tippah EPA | https://webmap.tippahepa.com/OMSWebMap/
coahoma-epa | Coahoma Electric Power Association (MS) | 3839 | Coahoma EPA | https://oms.coahomaepa.com:8080/OMSWebMap/`,
  ],
  [
    'events/nc/layout_3.json',
    'nc_scraper.py layout 3',
    `
cape-hatteras-ec | Cape Hatteras Electric Cooperative (NC) | 2982 | Cape Hatteras Electric Cooperative | https://outages.chec.coop/OMSWebMap/
tri-county-emc-nc | Tri-County EMC (NC) | 18957 | Tri-County EMC | https://outage.tcemc.com/omswebmap/`,
  ],
  [
    'events/sc/layout_5.json',
    'sc_scraper.py layout 5',
    `
little-river-ec | Little River Electric Cooperative (SC) | 11019 | Little River Electric Cooperative | http://207.144.23.199/OMSWebMap/
tri-county-ec-sc | Tri-County Electric Cooperative (SC) | 14175 | Tri-County Electric Cooperative | http://outages.tce.coop/OMSWebMap/
york-ec | York Electric Cooperative (SC) | 21002 | York Electric Cooperative | http://outage.yorkelectric.net/omswebmap/`,
  ],
  [
    'events/tx/layout_16.json',
    'tx_scraper.py layout 16',
    `
comanche-county-eca | Comanche County Electric Cooperative (TX) | 4295 | Comanche Electric Coop | http://outageviewer.ceca.coop/OMSWebMap/`,
  ],
];

/** A mobile ASMX row on `page` (the OMSWebMap folder, with its slash): the county list of that service. */
const mobile = (page: string) => ({ url: `${page}${ASMX}`, referer: page });
const ALSO_COUNTIES = "; the row asks the same service for GetAllCounties, the platform's county list";

const mobileRows: NewRow[] = [
  ...MOBILE.flatMap(([path, layout, table]) =>
    cellsOf(table).map(([id, name, eia, label, url]) => ({
      id,
      name,
      eia: eiaOf(eia),
      adapter: 'milsoftmobile',
      config: mobile(url),
      source: { ...URS, path },
      shows: `"${label}": "${url}"; app/scrapers/${layout} is ga_scraper.py Scraper3, which GETs {url}${ASMX} and {url}MobileMap/OMSMobileService.asmx/GetAllOutages`,
    })),
  ),
  {
    id: 'coos-curry-ec',
    name: 'Coos-Curry Electric Cooperative (OR)',
    eia: [4317],
    adapter: 'milsoftmobile',
    config: mobile('https://outagemap.cooscurryelectric.com/OMSWebMap/'),
    source: ROSEBURG,
    shows: `CCE_URL = "https://outagemap.cooscurryelectric.com/OMSWebMap/MobileMap/OMSMobileService.asmx/GetAllOutages", polled every 10 s${ALSO_COUNTIES}`,
  },
  {
    id: 'ed3-pinal',
    name: 'Electrical District No. 3 of Pinal County (AZ)',
    eia: [30518],
    adapter: 'milsoftmobile',
    config: mobile('https://ww3.ed3online.org/OMSWebMap/'),
    source: {
      repo: 'vmanam1/az-power-outage-archive',
      path: 'providers/ed3.py',
      commit: '7075cdc1cfa3aa9d600b6d2580b85a8b8a9bb9bf',
    },
    shows: `API_URL = "https://ww3.ed3online.org/OMSWebMap/MobileMap/OMSMobileService.asmx/GetAllOutages" (the "ED3 OMS Mobile Outage Service")${ALSO_COUNTIES}`,
  },
];

/**
 * DataVoice OutageEntry maps (the layout's scraper reads the map's ajaxShellOut.php answers for the client in its map
 * URL `https://www.outageentry.com/Outages/outage.php?Client=…`): `id | name (states) | EIA numbers | label | client |
 * layout file | scraper`. East Tennessee utilities keep Eastern time (OutageEntry prints times without a zone).
 */
const OUTAGEENTRY = `
oconee-emc | Oconee EMC (GA) | 13962 | Oconee EMC | OEMC | events/ga/layout_11.json | ga_scraper.py layout 11 (Scraper11)
mitchell-emc | Mitchell EMC (GA) | 12706 | Mitchell EMC | MITCHELL | events/ga/layout_11.json | ga_scraper.py layout 11 (Scraper11)
menard-ec | Menard Electric Cooperative (IL) | 12395 | menard electric coop | MENARD | events/il/layout_6.json | il_scraper.py layout 6 (ga_scraper.py Scraper11)
haywood-emc | Haywood EMC (NC/GA/SC) | 8333 | Haywood EMC | HAYWOOD | events/nc/layout_4.json | nc_scraper.py layout 4 (ga_scraper.py Scraper7)
plateau-ec | Plateau Electric Cooperative (TN) | 15141 | Plateau Electric Cooperative | plateau | events/tn/layout_1.json | tn_scraper.py layout 1 (ga_scraper.py Scraper11)
alcoa-electric | City of Alcoa Electric Department (TN) | 577 | City of Alcoa Electric Department | ALCOA | events/tn/layout_1.json | tn_scraper.py layout 1 (ga_scraper.py Scraper11)
lafollette-utilities | LaFollette Utilities (TN) | 10579 | LaFollette Utilities | LAFOLLETTE | events/tn/layout_1.json | tn_scraper.py layout 1 (ga_scraper.py Scraper11)
cherokee-county-eca | Cherokee County Electric Cooperative (TX) | 3470 | Cherokee County Electric Coop Association | CHEROKEE | events/tx/layout_12.json | tx_scraper.py layout 12 (ga_scraper.py Scraper11)
florida-public-utilities | Florida Public Utilities (FL) | 6457 | Florida Public Utilities Corporation | fpuc | events/fl/layout_4.json | fl_scraper.py layout 4 (ga_scraper.py Scraper11)`;
const EASTERN_TN = new Set(['plateau-ec', 'alcoa-electric', 'lafollette-utilities']);

const outageEntryRows: NewRow[] = cellsOf(OUTAGEENTRY).map(([id, name, eia, label, client, path, layout]) => ({
  id,
  name,
  eia: eiaOf(eia),
  adapter: 'outageentry',
  config: { client, serviceIndex: 1 },
  source: { ...URS, path },
  shows: `"${label}": "https://www.outageentry.com/Outages/outage.php?Client=${client}…"; app/scrapers/${layout} reads the map's ajaxShellOut.php answers for that client`,
  ...(EASTERN_TN.has(id) ? { options: { time_zone: 'America/New_York' } } : {}),
}));

// ---- NISC hosted maps, a GridVu server and Xcel's outage layer, each polled by the URL its source names ----------

const nisc = (slug: string) => ({ base: `https://outagemap-data.cloud.coop/${slug}/Hosted_Outage_Map` });
const POLLED = 'polled every 10 s and its outages placed on the map';

const otherRows: NewRow[] = [
  {
    id: 'brightridge',
    name: 'BrightRidge (Johnson City, TN)',
    eia: [9777], // Johnson City - (TN): BrightRidge was Johnson City Power Board until 2018
    adapter: 'kiuc',
    config: nisc('brightridge'),
    source: { ...URS, path: 'events/tn/layout_8.json' },
    shows:
      '"BrightRidge": "https://outagemap-data.cloud.coop/brightridge/Hosted_Outage_Map/summary.json"; app/scrapers/tn_scraper.py layout 8 is fl_scraper.py Scraper13, which GETs that URL and reads its regionDataSets',
  },
  {
    id: 'central-lincoln-pud',
    name: 'Central Lincoln PUD (OR)',
    eia: [3264],
    adapter: 'kiuc',
    config: nisc('clpud'),
    source: ROSEBURG,
    shows: `CLPUD_SUMMARY_URL = "https://outagemap-data.cloud.coop/clpud/Hosted_Outage_Map/summary.json", ${POLLED}`,
  },
  {
    id: 'douglas-electric-or',
    name: 'Douglas Electric Cooperative (OR)',
    eia: [5327],
    adapter: 'kiuc',
    config: nisc('douglaselectric'),
    source: ROSEBURG,
    shows: `DEC_SUMMARY_URL = "https://outagemap-data.cloud.coop/douglaselectric/Hosted_Outage_Map/summary.json", ${POLLED}`,
  },
  {
    id: 'lubbock-power-light',
    name: 'Lubbock Power & Light (TX)',
    eia: [11292], // City of Lubbock - (TX)
    adapter: 'gridvu',
    config: { url: 'https://electricoutage.ci.lubbock.tx.us/GridVuServer/Public/getAllOutages' },
    source: { ...URS, path: 'events/tx/layout_10.json' },
    shows:
      '"Lubbock Power & Light": "https://electricoutage.ci.lubbock.tx.us/GridVuServer/Public/getAllOutages"; app/scrapers/tx_scraper.py layout 10 is Scraper10, which GETs that URL and reads its outageLst',
  },
  {
    // Xcel's one outage layer carries every Xcel state in its `states` field (the peer's xcel-co, xcel-mn and xcel-sps
    // rows read it with states='CO', 'MN' and IN ('TX','NM')); Northern States Power–Wisconsin is the WI/MI company.
    id: 'xcel-wi',
    name: 'Xcel Energy (Wisconsin/Michigan)',
    eia: [13780], // Northern States Power Co (Wisconsin)
    adapter: 'arcgis',
    config: {
      base: 'https://emcs-gis.esriemcs.com/arcgis/rest/services/Xcel/XcelOutage/MapServer',
      layer: 3,
      fields: { out: 'customers', etr: 'etr', id: 'objectid', name: 'city' },
      groupBy: 'county',
      where: "states IN ('WI','MI')",
      referer: 'https://www.outagemap-xcelenergy.com/outagemap/',
    },
    source: { repo: 'codebooker/GlobeView', path: 'proxy.py', commit: '08c4ae128aa47914345751cd75ae2f50a5ead1ae' },
    shows:
      "fetch_xcel_state_outages(state_code, …) GETs XCEL_MN_OUTAGES_URL = https://emcs-gis.esriemcs.com/arcgis/rest/services/Xcel/XcelOutage/MapServer/3/query with where states='{state_code}' and outFields …customers,off_,etr,…,states,crewstatus,county,cause,city; it is called for MN and CO, and the row asks the same layer for NSP-Wisconsin's states WI and MI",
  },
];

// ---- Duke Energy's public outage layer (issue 26 part 3) -----------------------------------------------------------
// Duke publishes its outage points on its own ArcGIS Online organisation (oX5r75R7mapdoI2F, which also hosts Duke's
// hosting-capacity maps), no credential asked: the layer the NC Department of Public Safety's power-outage page and
// codebooker's maps read. One layer for every jurisdiction; each row asks for its own by JURISDICTION and places the
// points in counties (incidents mode: a point, not a county name, says where).

const GLOBEVIEW: Source = {
  repo: 'codebooker/GlobeView',
  path: 'proxy.py',
  commit: '08c4ae128aa47914345751cd75ae2f50a5ead1ae',
};
const dukeLayer = (where: string) => ({
  base: 'https://services3.arcgis.com/oX5r75R7mapdoI2F/ArcGIS/rest/services/Duke_Energy_Distribution_Outages_Public/FeatureServer',
  layer: 0,
  fields: {
    out: 'AFFECTED_CUSTOMERS',
    etr: 'ETR',
    id: 'OBJECTID',
    cause: 'CAUSE',
    crew_status: 'CREW_STATUS',
    started_at: 'START_TIME',
  },
  where,
  referer: 'https://outagemaps.duke-energy.com/',
});
const DUKE_SHOWN =
  'DUKE_NC_PUBLIC_OUTAGES_URL = https://services3.arcgis.com/oX5r75R7mapdoI2F/ArcGIS/rest/services/Duke_Energy_Distribution_Outages_Public/FeatureServer/0/query; fetch_duke_public_outages GETs it with outFields OBJECTID,START_TIME,ETR,CAUSE,CREW_STATUS,AFFECTED_CUSTOMERS,JURISDICTION,last_edited_date and counts AFFECTED_CUSTOMERS per point';
const DUKE_ALSO =
  '; codebooker/AmericaMap README.md@ee096a5 names the same FeatureServer as Duke Energy public outage data for Florida and North Carolina';
/**
 * Stable offset paging when a storm puts more points in the layer than one page holds; and the public layer yields to
 * Duke's credentialed outage-maps API (the gated duke-* rows) where a deployment sets its credential, so no utility
 * is polled by two rows.
 */
const PAGED = { order_by: 'OBJECTID ASC', yields_to_credential: 'OUTAGE_CREDENTIAL_DUKE' };

const dukeRows: NewRow[] = [
  {
    id: 'duke-florida-arcgis',
    name: 'Duke Energy Florida (FL)',
    eia: [6455],
    adapter: 'arcgis',
    config: dukeLayer("JURISDICTION='DEF'"),
    source: GLOBEVIEW,
    shows: `${DUKE_SHOWN}; fetch_duke_power_outages (Duke Energy Florida) asks where JURISDICTION='DEF'${DUKE_ALSO}`,
    options: PAGED,
  },
  {
    // OH and KY are one view of Duke's map (ohky); GlobeView asks DEM for Ohio and for Indiana. The Duke outage-maps API
    // calls Indiana DEI (the duke-indiana row), so the row takes either code.
    id: 'duke-midwest-arcgis',
    name: 'Duke Energy Ohio, Kentucky and Indiana (OH/KY/IN)',
    eia: [3542, 19446, 15470], // Duke Energy Ohio, Duke Energy Kentucky, Duke Energy Indiana
    adapter: 'arcgis',
    config: dukeLayer("JURISDICTION IN ('DEM','DEI')"),
    source: GLOBEVIEW,
    shows: `${DUKE_SHOWN}; fetch_duke_ohio_outages and fetch_duke_indiana_outages ask where JURISDICTION='DEM' (DUKE_OH_PUBLIC_SOURCE_URL is the map's ohky view: Ohio and Kentucky together). Inferred: Kentucky's points carry DEM as Ohio's do; DEI, the Duke outage-maps API's Indiana code, is taken too should the layer use it`,
    options: PAGED,
  },
  {
    id: 'duke-carolinas-arcgis',
    name: 'Duke Energy Carolinas and Progress (NC/SC)',
    eia: [5416, 3046], // Duke Energy Carolinas + Duke Energy Progress (NC and SC)
    adapter: 'arcgis',
    config: dukeLayer("JURISDICTION NOT IN ('DEF','DEM','DEI')"),
    source: GLOBEVIEW,
    shows: `${DUKE_SHOWN}; fetch_duke_north_carolina_outages asks the same layer for every jurisdiction (1=1) inside North Carolina (DUKE_NC_PUBLIC_SOURCE_URL https://www.ncdps.gov/power-outages). Inferred: the points that are neither Florida's (DEF) nor the Midwest's (DEM, DEI) are the Carolinas', Duke Energy Carolinas and Duke Energy Progress in NC and SC`,
    options: PAGED,
  },
];

const ROWS: NewRow[] = [...milsoftRows, ...mobileRows, ...outageEntryRows, ...otherRows, ...dukeRows];

/**
 * A viewer or service the public scraper reaches only over plain http carries `options.plain_http` saying so
 * (pipeline/src/sources/transport.ts): the registry check wants it, and the sources list shows the row as plain http.
 */
const feedUrl = (r: NewRow): string => String(r.config.url ?? r.config.base ?? '');
const plainHttp = (r: NewRow): string =>
  `the utility serves this ${r.adapter === 'milsoftmobile' ? 'service' : 'viewer'} only over http, per ${r.source.repo} ${r.source.path}@${r.source.commit.slice(0, 7)} (whose only address for it is ${new URL(feedUrl(r)).origin}/)`;

const EXTRA: Record<string, string> = {
  'keys-energy':
    '; codebooker/AmericaMap proxy.py@ee096a5 polls the same viewer (KEYS_POWER_OUTAGES_URL = …/data/outages.json)',
  'york-ec':
    "; a real GetAllCounties answer of this service is the peer's scratch_GetAllCounties.xml (payloads/milsoft-asmx)",
};
const provenanceOf = (r: NewRow): string =>
  `${r.source.repo} ${r.source.path}@${r.source.commit.slice(0, 7)} (${r.shows})${EXTRA[r.id] ?? ''}; EIA-861 2018`;

/** Entries in the peer registry's shape, as NEW_PEERS holds them. */
export const MORE_NEW_PEERS = ROWS.map((r) => ({
  id: r.id,
  name: r.name,
  adapter: r.adapter,
  match: [r.name],
  config: r.config,
  _path: `${r.source.repo} ${r.source.path}`,
  _commit: r.source.commit,
}));

/** Their EIA-861 2018 numbers, provenance and options (with why a plain-http feed is read over http). */
export const MORE_NEW_PEER_OVERRIDES: Record<string, Override> = Object.fromEntries(
  ROWS.map((r) => {
    const options = { ...r.options, ...(feedUrl(r).startsWith('http://') ? { plain_http: plainHttp(r) } : {}) };
    return [r.id, { eia: r.eia, provenance: provenanceOf(r), ...(Object.keys(options).length ? { options } : {}) }];
  }),
);
