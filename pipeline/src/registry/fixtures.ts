// The registry check of a row's fixtures: each recorded capture turned back into the answer the connector's fetch
// returns (rawOf: a scraper's reshaping undone), parsed by the connector, and its counties checked against the
// utility's service territory.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { connectorFor } from '../sources/connectors.ts';
import { normalizeReadable } from '../sources/unreadable.ts';
import { formatOf as aesFormatOf } from '../sources/aes/fetch.ts';
import { recordedRaw as avangridRecorded } from '../sources/avangrid/recorded.ts';
import { recordedRaw as dukeRecorded } from '../sources/duke/recorded.ts';
import { recordedRaw as hecoRecorded } from '../sources/heco/recorded.ts';
import { recordedRaw as kubraRecorded } from '../sources/kubra/recorded.ts';
import { recordedRaw as milsoftMobileRecorded } from '../sources/milsoftmobile/recorded.ts';
import { territoryFindings, type EiaReference } from './eia-reference.ts';
import { fixtureSource, fixturesOf, territorySeverity } from './evidence.ts';
import type { ConnectorName, SourceDef } from '../sources/source-def.ts';
import type { CheckRow, Finding, Severity } from './findings.ts';

export interface FixtureResult {
  ok: boolean;
  message: string;
  /** true when the parser could not judge the fixture (a warning, not an error) */
  skipped?: boolean;
  /** county FIPS codes the connector produced, for the service-territory check */
  counties?: string[];
}
/** Parses a row's fixture (absolute `file`); the default reads one JSON document, a probe replay can replace it. */
export type FixtureParser = (row: CheckRow & { source: SourceDef }, file: string) => FixtureResult;

export interface CheckOptions {
  /** the EIA-861 reference; null when its files are not available (those checks become one warning) */
  eia: EiaReference | null;
  /** directory fixture paths are relative to (`../shared/data`); null when not available */
  fixtureRoot: string | null;
  parseFixture?: FixtureParser;
  /** a registry that ships (default): no loopback hosts, the shipped columns and an explicit status required */
  shipped?: boolean;
  /** the fixtures judged hand-made or edited (data/fixture-samples.csv), which `evidence` is checked against */
  samples?: ReadonlySet<string> | null;
}

const BUNDLES: Partial<Record<ConnectorName, (doc: Record<string, unknown>) => unknown>> = {
  datacapable: (d) => d.reports ?? d,
  smartc: (d) => d.reports ?? d,
  clarkpud: (d) => d.result ?? d,
  ifactor: (d) =>
    d.nyc ? { directory: 'recorded', summary: d.summary, reports: [d.nyc, d.westchester].filter(Boolean) } : d,
  pacificorp: (d) => (d.states ? d : 'outages' in d ? { states: [{ state: 'UT', map: d, list: d }] } : d),
};

/** Fixtures that are not JSON (AES's XML): the file's text as that connector's fetch returns it for the feed `url`. */
const TEXT_FIXTURES: Partial<Record<ConnectorName, (text: string, url: string) => unknown>> = {
  aes: (xml, url) => ({ format: aesFormatOf(url), xml }),
  novec: (xml) => xml,
  sienatech: (xml) => xml,
  snopud: (xml) => xml,
  milsoftmobile: (xml) => milsoftMobileRecorded(xml),
};

/** A fixture file's text as the row's connector's fetch returns it, for the feed at `url`. */
export function fixtureRaw(connector: ConnectorName, url: string, text: string): unknown {
  const asText = TEXT_FIXTURES[connector];
  return asText ? asText(text, url) : rawOf(connector, JSON.parse(text));
}

/** Recorded files a scraper reshaped (a bare list included): each connector folder's own adapter undoes it. */
const RECORDED: Partial<Record<ConnectorName, (doc: unknown) => unknown>> = {
  duke: dukeRecorded,
  avangrid: avangridRecorded,
  kubra: kubraRecorded,
  heco: hecoRecorded,
};

export const rawOf = (connector: ConnectorName, doc: unknown) =>
  RECORDED[connector]
    ? RECORDED[connector](doc)
    : doc && typeof doc === 'object' && !Array.isArray(doc) && BUNDLES[connector]
      ? BUNDLES[connector]!(doc as Record<string, unknown>)
      : doc;

/**
 * Files a connector's fetch requests beside the one a fixture names, recorded beside it under the matching name:
 * NISC's `…config.json` beside `…summary.json` (the map extent that places outages without a county region set).
 */
const SIBLINGS: Partial<Record<ConnectorName, (file: string, raw: unknown) => unknown>> = {
  nisc: (file, summary) => {
    const config = file.replace(/summary\.json$/, 'config.json');
    return config !== file && existsSync(config)
      ? { summary, config: JSON.parse(readFileSync(config, 'utf8')) }
      : summary;
  },
};

/** A recorded file (and the files recorded beside it) as the connector's fetch returns it, for the feed at `url`. */
export function recordedRaw(connector: ConnectorName, url: string, file: string): unknown {
  const raw = fixtureRaw(connector, url, readFileSync(file, 'utf8'));
  return SIBLINGS[connector] ? SIBLINGS[connector](file, raw) : raw;
}

/** The default fixture parser: one JSON document through the row's connector (parsed files are shared by rows). */
export function jsonFixtureParser(): FixtureParser {
  const docs = new Map<string, unknown>();
  return (row, file) => {
    if (statSync(file).isDirectory())
      return {
        ok: false,
        skipped: true,
        message: `${row.record.fixture} is a saved probe directory; replaying it is not wired into this check yet`,
      };
    const key = `${row.source.connector}|${TEXT_FIXTURES[row.source.connector] ? row.source.url : ''}|${file}`;
    let raw = docs.get(key);
    if (raw === undefined) {
      try {
        raw = recordedRaw(row.source.connector, row.source.url, file);
      } catch (err) {
        return { ok: false, message: `${row.record.fixture} is not JSON: ${(err as Error).message}` };
      }
      docs.set(key, raw);
    }
    return parsedFixture(row, raw);
  };
}

/** A fixture's raw through the row's connector: its counties, or why the connector cannot read it. */
function parsedFixture(row: CheckRow & { source: SourceDef }, raw: unknown): FixtureResult {
  try {
    const snap = normalizeReadable(connectorFor(row.source.connector), raw, fixtureSource(row.source));
    return { ok: true, message: `${snap.counties.length} counties`, counties: snap.counties.map((c) => c.fips) };
  } catch (err) {
    return {
      ok: false,
      message: `the ${row.source.connector} connector cannot read ${row.record.fixture}: ${(err as Error).message.split('\n')[0]}`,
    };
  }
}

export function checkFixture(
  row: CheckRow,
  opts: Required<Pick<CheckOptions, 'fixtureRoot' | 'parseFixture' | 'shipped'>> & { eia: EiaReference | null },
): Finding[] {
  const fixtures = fixturesOf(row.record);
  if (fixtures.length === 0)
    return row.active && opts.shipped
      ? [
          {
            severity: row.active ? 'error' : 'warning',
            column: 'fixture',
            message:
              'fixture is empty; save the feed with `outage sources probe ID --save DIR` and name it here (a path under ../shared/data)',
          },
        ]
      : [];
  return fixtures.flatMap((fixture) => checkOneFixture(row, fixture, opts));
}

/** One fixture path of the row: under the root, present, parsed by the row's connector, inside the territory. */
function checkOneFixture(
  row: CheckRow,
  fixture: string,
  opts: Required<Pick<CheckOptions, 'fixtureRoot' | 'parseFixture'>> & { eia: EiaReference | null },
): Finding[] {
  const severity: Severity = row.active ? 'error' : 'warning';
  if (!opts.fixtureRoot) return [];
  const file = path.resolve(opts.fixtureRoot, fixture);
  if (path.relative(opts.fixtureRoot, file).startsWith('..'))
    return [
      {
        severity: 'error',
        column: 'fixture',
        message: `\`${fixture}\` leaves the fixture directory; give a path under it`,
      },
    ];
  if (!existsSync(file))
    return [{ severity, column: 'fixture', message: `\`${fixture}\` does not exist under ${opts.fixtureRoot}` }];
  if (!row.source) return [];
  const got = opts.parseFixture({ ...row, source: row.source, record: { ...row.record, fixture } }, file);
  if (!got.ok) return [{ severity: got.skipped ? 'warning' : severity, column: 'fixture', message: got.message }];
  const severe = territorySeverity(row);
  return territoryFindings(row, got.counties ?? [], opts.eia).map((f) => ({
    ...f,
    severity: severe,
    message: severe === 'error' ? `${f.message}; the row's own capture must fit its territory` : f.message,
  }));
}
