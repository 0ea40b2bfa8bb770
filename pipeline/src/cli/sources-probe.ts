// `outage sources probe` (one row's feed, fetched once, optionally saved as a fixture) and `outage sources parse` (a
// saved probe replayed offline, or one raw document): the same report of what the connector makes of a feed. The
// connectors load when one of these runs (the CLI loads this module for its options).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { SourceError, UsageError } from '../errors.ts';
import { log } from './common.ts';
import { DEFAULT_HTTP } from '../sources/http.ts';
import type { ProbeRequest } from '../registry/probe.ts';
import { parseRegistry } from '../registry/registry.ts';
import { CONNECTORS, type ConnectorName, type SourceDef } from '../sources/source-def.ts';
import type { Snapshot } from '../sources/snapshot.ts';
import { findState } from '../geo/states.ts';
import { terminalJson } from '../terminal-text.ts';

/** The parent `sources` command declares --sources and --json too and takes them wherever they stand (as in check). */
function optionValue(cmd: Command, name: string): unknown {
  for (const c of [cmd, cmd.parent]) if (c && c.getOptionValueSource(name) === 'cli') return c.getOptionValue(name);
  return cmd.getOptionValue(name);
}

/**
 * Resolves once the text is handed to the OS: index.ts exits right after the command, and a pipe takes 64 KB at a
 * time, so a large --json report would otherwise be cut off (`outage sources parse … --json | jq`).
 */
async function print(source: SourceDef, snapshot: Snapshot, json: boolean): Promise<void> {
  const { formatSnapshotTable, snapshotReport } = await import('../sources/snapshot-table.ts');
  const report = snapshotReport(source, snapshot);
  const text = json ? `${terminalJson(report)}\n` : formatSnapshotTable(report);
  await new Promise<void>((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));
}

/** What to do about a failed probe, by reason (the message says what happened). */
const HINTS: Record<string, string> = {
  '403': 'the host refused us: many want the map page as Referer (options.referer); never add credentials',
  '404': "check the row's url against the request the map page makes (browser network tab)",
  '429': 'the host asks us to slow down: wait the Retry-After time before probing again',
  timeout: 'the host did not answer in time: try again later, or give --timeout more seconds',
  bad_body:
    'the answer is not JSON: the url may be the map page rather than its data feed, or the host answered an error page',
  schema: 'the answer is not the shape this connector reads: is it the right connector and url?',
};
const hint = (e: SourceError): string => HINTS[String(e.status)] ?? HINTS[e.reason] ?? '';

/** One registry row by id, active or not; a gated row is never fetched (it needs credentials we do not take). */
function findRow(file: string, id: string): SourceDef {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`Cannot read the source registry \`${file}\`: ${(err as Error).message}`);
  }
  const { sources, problems, inactive } = parseRegistry(text, { allStatuses: true });
  const gated = inactive.find((r) => r.id === id && r.status === 'gated');
  if (gated)
    throw new UsageError(
      `${id} (line ${gated.line}) is gated and is never fetched: ${gated.status_reason || 'it needs credentials'}`,
    );
  const found = sources.find((s) => s.id === id);
  if (found) return found;
  const line = text.split(/\r?\n/).findIndex((l) => l.startsWith(`${id},`)) + 1;
  const problem = problems.find((p) => p.line === line);
  if (problem) throw new UsageError(`${path.basename(file)} line ${line} (${id}) cannot be used: ${problem.message}`);
  throw new UsageError(
    `No row with id \`${id}\` in ${file}; \`outage sources check --sources ${file}\` lists its rows' problems`,
  );
}

/** One request as the probe log shows it (an error only when the status does not already say it). */
const describe = (r: ProbeRequest): string =>
  `  ${r.method} ${r.url} → ${r.status ?? 'no answer'}${r.bytes !== null ? ` · ${r.bytes.toLocaleString('en-US')} bytes` : ''} · ${r.ms} ms${r.file ? ` · ${r.file}` : ''}${r.error && (r.status === null || r.file) ? ` · ${r.error}` : ''}`;

export function registerProbe(sources: Command): void {
  sources
    .command('probe <id>')
    .description(
      "fetch one registry row's feed once, as polling does (User-Agent, per-host limits, deadlines), and print what its connector makes of it; --save writes a fixture",
    )
    .option('--sources <file>', 'source registry CSV', 'data/sources.csv')
    .option(
      '--save <dir>',
      'write every answer body byte for byte under DIR/ and DIR/index.json (request URL, method, POST body, status, headers, time): a fixture',
    )
    .addOption(new Option('--timeout <seconds>', 'per-request deadline').default(DEFAULT_HTTP.requestDeadlineMs / 1000))
    .option('--json', 'print the normalised snapshot with its state and national sums as JSON')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const file = path.resolve(String(optionValue(cmd, 'sources')));
      const seconds = Number(cmd.getOptionValue('timeout'));
      if (!(seconds > 0))
        throw new UsageError(
          `--timeout: expected a number of seconds above 0, got \`${cmd.getOptionValue('timeout')}\``,
        );
      const source = findRow(file, id);
      const { probeSource, saveProbe } = await import('../registry/probe.ts');
      const ms = Math.round(seconds * 1000);
      const run = await probeSource(source, {
        requestDeadlineMs: ms,
        bodyTimeoutMs: Math.min(ms, DEFAULT_HTTP.bodyTimeoutMs),
      });
      log(
        `probe ${id} (${source.connector}) as ${run.index.user_agent}:\n${run.index.requests.map(describe).join('\n')}`,
      );
      const save = cmd.getOptionValue('save') as string | undefined;
      if (save) {
        saveProbe(path.resolve(save), run);
        const bytes = [...run.bodies.values()].reduce((n, b) => n + b.length, 0);
        log(
          `saved ${run.bodies.size} answer bod${run.bodies.size === 1 ? 'y' : 'ies'} (${bytes.toLocaleString('en-US')} bytes) and index.json to ${save}`,
        );
      }
      if (run.error) {
        const h = hint(run.error);
        throw new SourceError(
          run.error.reason,
          `probe ${id}: ${run.error.message}${h ? `; ${h}` : ''}`,
          run.error.status,
          run.error.retryAfter,
        );
      }
      await print(source, run.snapshot!, optionValue(cmd, 'json') === true);
    });
}

/** --connector, --states and --options, checked (bad input is a UsageError, exit 2). */
function parseArgs(cmd: Command): {
  connector: ConnectorName;
  states: string[] | undefined;
  options: Record<string, unknown> | undefined;
  url: string | undefined;
} {
  const connector = String(cmd.getOptionValue('connector'));
  if (!(CONNECTORS as readonly string[]).includes(connector))
    throw new UsageError(`--connector: \`${connector}\` is not one of ${CONNECTORS.join(', ')}`);
  const rawStates = cmd.getOptionValue('states') as string | undefined;
  const codes = rawStates
    ?.split(/[;,|\s]+/)
    .filter(Boolean)
    .map((s) => findState(s)?.code ?? null);
  if (codes && (!codes.length || codes.includes(null)))
    throw new UsageError(`--states: \`${rawStates}\` is not a list of US state codes, e.g. "WI;MI"`);
  const states = codes as string[] | undefined;
  const rawOptions = cmd.getOptionValue('options') as string | undefined;
  let options: Record<string, unknown> | undefined;
  if (rawOptions !== undefined) {
    try {
      options = JSON.parse(rawOptions);
    } catch (err) {
      throw new UsageError(`--options: expected a JSON object, got \`${rawOptions}\` (${(err as Error).message})`);
    }
    if (!options || typeof options !== 'object' || Array.isArray(options))
      throw new UsageError(`--options: expected a JSON object such as '{"client":"GREYS"}', got \`${rawOptions}\``);
  }
  const url = cmd.getOptionValue('url') as string | undefined;
  return { connector: connector as ConnectorName, states, options, url };
}

/** One raw document (what the connector's fetch returns), normalised; problems name the file. */
async function parseFile(
  file: string,
  args: ReturnType<typeof parseArgs>,
): Promise<{ source: SourceDef; snapshot: Snapshot }> {
  if (!args.states)
    throw new UsageError(`--states is needed for a single file (the states the utility serves, e.g. --states "WI;MI")`);
  const url = args.url ?? `file://${file}`;
  if (!existsSync(file)) throw new UsageError(`Cannot read ${file}: it does not exist`);
  const { recordedRaw } = await import('../registry/fixtures.ts');
  let raw: unknown;
  try {
    // The file as the connector's fetch returns it: XML as text, a scraper's reshaping undone, files beside it read.
    raw = recordedRaw(args.connector, url, file);
  } catch (err) {
    if (err instanceof SourceError) throw new SourceError(err.reason, `${file}: ${err.message}`);
    const text = readFileSync(file, 'utf8');
    throw new SourceError(
      'bad_body',
      `${file} is not JSON (${(err as Error).message}; it starts with ${JSON.stringify(text.slice(0, 40))})`,
    );
  }
  const source: SourceDef = {
    id: 'parse',
    utility: path.basename(file),
    connector: args.connector,
    url,
    states: args.states,
    interval_min: 15,
    tier: 3,
    options: args.options ?? {},
    customers: null,
    eia_ids: [],
  };
  const { storedSnapshot } = await import('../registry/probe.ts');
  try {
    return { source, snapshot: storedSnapshot(source, raw) };
  } catch (err) {
    const e = err as SourceError;
    throw new SourceError(e.reason, `${file}: ${e.message}`);
  }
}

export function registerParse(sources: Command): void {
  sources
    .command('parse <path>')
    .description(
      "the same report offline: replay a saved probe directory through the connector's real fetch code (no network), or read one raw document",
    )
    .requiredOption('--connector <name>', `the connector that reads the payload: ${CONNECTORS.join(', ')}`)
    .option('--options <json>', 'connector options as a JSON object (default: those saved in index.json)')
    .option(
      '--states <list>',
      'states the utility serves, e.g. "WI;MI" (default: those saved in index.json; required for a single file)',
    )
    .option(
      '--url <url>',
      "the feed URL a single file was saved from, for connectors that read its form from it (AES's two XML files)",
    )
    .option('--json', 'print the normalised snapshot with its state and national sums as JSON')
    .action(async (target: string, _opts: unknown, cmd: Command) => {
      const args = parseArgs(cmd);
      const { isProbeDir, loadProbe, replayProbe, savedSourceDef } = await import('../registry/replay.ts');
      const abs = path.resolve(target);
      const dir = isProbeDir(abs) ? abs : path.basename(abs) === 'index.json' ? path.dirname(abs) : null;
      let result: { source: SourceDef; snapshot: Snapshot };
      if (dir) {
        const saved = loadProbe(dir);
        const source = savedSourceDef(saved, {
          connector: args.connector,
          ...(args.states && { states: args.states }),
          ...(args.options && { options: args.options }),
        });
        const probed = saved.index.source.connector;
        if (probed && probed !== args.connector)
          log(`note: ${target} was probed for the ${probed} connector; reading it with ${args.connector}`);
        const replay = await replayProbe(saved, source);
        log(
          `replayed ${replay.served.length} of ${saved.answers.length} saved answers from ${target} through the ${args.connector} connector${replay.misses.length ? `; not in the probe (answered 404): ${replay.misses.join(', ')}` : ''}`,
        );
        result = { source, snapshot: replay.snapshot };
      } else result = await parseFile(abs, args);
      await print(result.source, result.snapshot, optionValue(cmd, 'json') === true);
    });
}
