// A saved Hawaiian Electric answer as heco's fetch returns it (registry/check.ts's rawOf, `outage sources parse`): a bare
// answer (the peer's sample) is wrapped without a date, so its "Today at …" ETRs read as none; a fetch result passes.
import { isObj } from '../checks.ts';

export function recordedRaw(doc: unknown): unknown {
  if (isObj(doc) && 'answer' in doc && 'captured_at' in doc) return doc;
  return { captured_at: null, answer: doc };
}
