// The one owner of the history markers in `meta`: `history_version` moves whenever an import changes history;
// `history_published` records the version the report tree was last published from. The pipeline re-reads history
// and the report publisher republishes only when the version moved.
import type { Db } from '../state/db.ts';

/** Marks history changed (after an import and the episode derivation that follows it). */
export async function markHistoryChanged(db: Db): Promise<void> {
  await db.run("INSERT OR REPLACE INTO meta VALUES ('history_version', ?)", [new Date().toISOString()]);
}

export async function historyMarks(db: Db): Promise<{ version: string | null; published: string | null }> {
  const rows = await db.all<{ key: string; value: string }>(
    "SELECT key, value FROM meta WHERE key IN ('history_version', 'history_published')",
  );
  const meta = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  return { version: meta.history_version ?? null, published: meta.history_published ?? null };
}

export async function markHistoryPublished(db: Db, version: string | null): Promise<void> {
  await db.run("INSERT OR REPLACE INTO meta VALUES ('history_published', ?)", [version ?? '0']);
}
