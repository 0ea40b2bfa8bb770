// /api/v1/sources/verification: the last `outage sources verify` report, which verify keeps in the state directory
// and every publish copies into the tree; without one, a document saying no verification has run.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { endpoint } from '../contract/catalogue.ts';
import { fileFor } from '../contract/urls.ts';
import { VERIFY_FORMAT, type VerifyReport } from '../registry/verify-report.ts';
import { putJson } from './formats.ts';
import type { TreeWriter } from './tree-writer.ts';

/** `<state>/verify-report.json`, written by `outage sources verify`. */
export const VERIFY_REPORT_FILE = 'verify-report.json';

export type VerificationDoc = {
  simulated: boolean;
  /** the last report, or null */
  report: VerifyReport | null;
  message: string;
};

const NONE =
  'No verification has run on this deployment yet: `outage sources verify` probes every active source once and keeps its report for the next publish.';

/** The saved report, or null when there is none (or it is not a verify report: a hand-edited file is not published). */
export function readVerifyReport(stateDir: string): VerifyReport | null {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path.join(stateDir, VERIFY_REPORT_FILE), 'utf8'));
  } catch {
    return null;
  }
  const r = json as Partial<VerifyReport> | null;
  const ok = r?.format === VERIFY_FORMAT && typeof r.finished_at === 'string' && Array.isArray(r.rows) && r.summary;
  return ok ? (r as VerifyReport) : null;
}

/** When the saved report last changed (-1: there is none): a quiet cycle republishes it only after a change. */
export function verifyReportMtime(stateDir: string): number {
  return statSync(path.join(stateDir, VERIFY_REPORT_FILE), { throwIfNoEntry: false })?.mtimeMs ?? -1;
}

export function verificationDoc(report: VerifyReport | null, simulated: boolean): VerificationDoc {
  if (!report) return { simulated, report: null, message: NONE };
  const { ok, rows } = report.summary;
  return { simulated, report, message: `${ok} of ${rows} sources answered and parsed on ${report.finished_at}.` };
}

export const VERIFICATION_FILE = fileFor(endpoint('sources.verification'), {}, 'json');

export function publishVerification(w: TreeWriter, doc: VerificationDoc): void {
  putJson(w, VERIFICATION_FILE, doc);
}
