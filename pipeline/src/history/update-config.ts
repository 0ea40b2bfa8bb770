// The history sources file (data/history-sources.json): which files `outage history update` downloads and how each is
// imported. Parsed once into fully-defaulted entries; a bad file is a UsageError that names the entry and the field.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { UsageError } from '../errors.ts';

export const HISTORY_KINDS = ['eaglei', 'mcc', 'coverage', 'oe417', 'eia861'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

const entrySchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'id must be lowercase letters, digits, ".", "_" or "-"'),
  kind: z.enum(HISTORY_KINDS, { error: `kind must be one of ${HISTORY_KINDS.join(', ')}` }),
  url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }),
  /** the file name the importer sees (importers read the year from it); default: the URL's last path segment */
  name: z
    .string()
    .regex(/^[\w.-]+$/, 'name must be a plain file name')
    .optional(),
  /** a file inside a .zip download (EIA-861 publishes one zip a year) */
  member: z.string().min(1).optional(),
  enabled: z.boolean().default(true),
  /** days before a file imported successfully is downloaded again to compare checksums (0: every run) */
  recheck_days: z.number().int().min(0).default(0),
  note: z.string().optional(),
});
const fileSchema = z.object({ $comment: z.string().optional(), files: z.array(entrySchema).min(1) });

export interface HistorySource {
  id: string;
  kind: HistoryKind;
  url: string;
  /** the name the downloaded (or extracted) file gets */
  fileName: string;
  member: string | null;
  enabled: boolean;
  recheckDays: number;
}

export function parseHistorySources(json: unknown, where: string): HistorySource[] {
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `${where}: ${issue.path.join('.') || '(top level)'}: ${issue.message}. Fix the file (its $comment lists the fields).`,
    );
  }
  const seen = new Set<string>();
  return parsed.data.files.map((e) => {
    if (seen.has(e.id)) throw new UsageError(`${where}: the id \`${e.id}\` appears twice; ids must be unique.`);
    seen.add(e.id);
    const fromUrl = decodeURIComponent(new URL(e.url).pathname.split('/').pop() || '');
    return {
      id: e.id,
      kind: e.kind,
      url: e.url,
      fileName: e.member ? path.basename(e.member) : (e.name ?? fromUrl.replace(/[^\w.-]/g, '_')) || e.id,
      member: e.member ?? null,
      enabled: e.enabled,
      recheckDays: e.recheck_days,
    };
  });
}

export function loadHistorySources(file: string): HistorySource[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(
      `No history sources file at ${file}; pass --sources-file (the shipped one is data/history-sources.json).`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${file} is not valid JSON: ${(err as Error).message}.`);
  }
  return parseHistorySources(json, file);
}
