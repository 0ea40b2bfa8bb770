// Connector test kit: the recorded payloads a test serves, read from ../shared/data (never copied into the repo); a
// stand-in when the data is not there, so the tests that need no recording still run (the rest skip: hasSharedData).
import { readFileSync } from 'node:fs';
import { hasSharedData, sharedJson, sharedPath } from '../../../test/shared-data.ts';

/** The recorded JSON at `rel` under the shared data, else `without`. */
export function recordedJson<T>(rel: string, without: T): T {
  return hasSharedData ? (sharedJson(rel) as T) : without;
}

/** The recorded text (XML, KML, JSON as sent) at `rel` under the shared data, else `without`. */
export function recordedText(rel: string, without: string): string {
  return hasSharedData ? readFileSync(sharedPath(rel), 'utf8') : without;
}
