// The archive endpoints: the index, each finished UTC day, its Data Package, the map at a past quarter hour and a
// county's series (beyond the spec's endpoint tables).
import { FIRST_YEAR, YEARS_AHEAD } from '../dates.ts';
import type { Endpoint } from './types.ts';

/** The years a date in a query may name (contract/dates.ts), as the parameters' descriptions say it. */
const DATE_WINDOW = `from ${FIRST_YEAR} to the current year + ${YEARS_AHEAD}`;

export const ARCHIVE_ENDPOINTS: readonly Endpoint[] = [
  {
    id: 'archive',
    path: '/api/v1/archive',
    formats: ['json'],
    cache: 'live',
    schema: 'Archive',
    summary: 'The archive: every observation at 15-minute resolution, one file per finished UTC day',
    description:
      "Every cycle's observations are kept at a fixed 15-minute resolution, never pruned: each quarter hour is named by its start, as EAGLE-I's `run_start_time` names a collection, and holds the latest cycle made within it (a cycle at 10:07 is the 10:00 quarter), so no quarter is later than the document's `generated_at`. Each finished UTC day is published once, as Parquet (zstd) and CSV in EAGLE-I's layout (`fips, county, state, customers_out, run_start_time`) plus `customers_tracked`, `customers_served_feed`, `sources`, `stale` and `simulated`. This document lists the days with their rows, quarters reached, bytes and sha256, and the day in progress.",
  },
  {
    id: 'archive.day',
    path: '/api/v1/archive/days/{date}',
    formats: ['parquet', 'csv'],
    cache: 'immutable',
    schema: 'ArchiveDay',
    summary: 'One archived UTC day (Parquet or CSV)',
    description:
      "The day's county rows in EAGLE-I's layout: `fips`, `county`, `state` (name), `customers_out`, `run_start_time` (the quarter hour's start, UTC: `YYYY-MM-DD HH:MM:SS` text in the CSV as EAGLE-I writes it, a UTC TIMESTAMP column in Parquet), then `customers_tracked` (the county's customers served by the sources fresh at the quarter: a feed's own served count, else its registry customers spread over its EIA-861 territory; empty where no fresh source served the county), `customers_served_feed` (as the feeds publish it), `sources` (how many reported the county), `stale` (one of them was stale: its last value is carried, not refreshed) and `simulated`. A county absent at a quarter had no one out; a quarter absent from the day was not reached by the poller (see /api/v1/archive). Written once when the day ends; never rewritten, except once when a state database from before quarter hours were named by their start is re-stamped on open.",
  },
  {
    id: 'archive.incidents',
    path: '/api/v1/archive/incidents/{date}',
    formats: ['parquet', 'csv'],
    cache: 'immutable',
    schema: 'ArchiveIncidents',
    summary: "One archived UTC day's finished incidents (Parquet or CSV)",
    description:
      "One row per incident that had left its feed when the day was archived and was last seen on or before it (nearly always on the day itself; one a stale feed still listed goes into the first day written after it left): `source_id`, `incident_id` (the feed's), `first_seen_at` and `last_seen_at` (UTC, the polls that first and last listed it), `peak` (its largest customers out), `etr_count` and `etrs` (every ETR given, oldest first, with the poll that first showed it: JSON text in the CSV, a list in Parquet). These rows leave the live database once published: this file is the incident's record, and /api/v1/reports/data?table=etr reads it. Written once when the day ends; never rewritten.",
  },
  {
    id: 'archive.datapackage',
    path: '/api/v1/archive/datapackage.json',
    formats: ['json'],
    cache: 'live',
    schema: 'ArchiveDataPackage',
    summary: 'The archive as a Frictionless Data Package',
    description:
      "A Frictionless tabular Data Package (not in the `data` envelope) listing every finished day's CSV as a resource: its path relative to this document (`days/{date}.csv`), bytes, `sha256:` hash and Table Schema (the archive's columns, `run_start_time` as a datetime in `%Y-%m-%d %H:%M:%S`, UTC), so `frictionless validate` or any Data Package reader loads the archive as published. Licence CC BY 4.0: cite as the data notice says.",
  },
  {
    id: 'archive.map',
    path: '/api/v1/archive/map',
    formats: ['json'],
    cache: 'history',
    schema: 'ArchiveMap',
    servedBy: 'function',
    summary: 'The map at a past quarter hour, from the archive',
    description:
      'The /api/v1/live/map shape (`[customers_out, pct_out, level, band, magnitude]` per county out and per state) as it was in the quarter hour containing `at` (named by its start: `at=10:20` answers the 10:15 quarter, the latest cycle made in it), with the coverage then (sources polled and fresh, customers tracked). A quarter the poller did not reach is a 404 naming the nearest archived ones.',
    functionParams: [
      {
        name: 'at',
        description: `An ISO-8601 time with its zone (e.g. \`2026-09-01T10:15:00Z\`), a real calendar date ${DATE_WINDOW}; the quarter hour containing it is answered.`,
        schema: { type: 'string', format: 'date-time' },
      },
    ],
  },
  {
    id: 'archive.county',
    path: '/api/v1/archive/counties/{fips}',
    formats: ['json', 'csv'],
    cache: 'history',
    key: 'fips',
    schema: 'ArchiveSeries',
    servedBy: 'function',
    summary: "One county's 15-minute series over a range, from the archive",
    description:
      'Customers out at every archived quarter hour from `from` (inclusive) to `to` (exclusive), at most 366 days (a year): 0 at a quarter the poller reached with no one out in the county, no entry at a quarter it did not reach (a gap, not a zero); `stale` marks a value carried from a stale source.',
    functionParams: [
      {
        name: 'from',
        description: `Start, ISO-8601 with its zone, ${DATE_WINDOW} (default: 24 hours before \`to\`).`,
        schema: { type: 'string', format: 'date-time' },
      },
      {
        name: 'to',
        description: `End, ISO-8601 with its zone, exclusive, ${DATE_WINDOW} (default: now).`,
        schema: { type: 'string', format: 'date-time' },
      },
    ],
  },
];
