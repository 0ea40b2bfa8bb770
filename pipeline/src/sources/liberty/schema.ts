// Liberty Utilities city summary (SmartCMobile OutageAPI `Outage/OutageSummaryCity?companyGroupCode=…`):
// `{status: {code, error}, data: [{state, city, no_of_incident_percity, customer_affected, customer_served}]}`, the
// counts as text. A zod schema of only what normalize reads: the list is a city per row, a few hundred at most.
import { z } from 'zod';
import { SourceError } from '../../errors.ts';
import { parseUpstream } from '../parse.ts';

/** A count as Liberty sends it: text (`"854"`); a number accepted, both read by countOf. */
const count = z.union([z.string(), z.number()]).nullish();

export const citySchema = z.object({
  state: z.string().nullish(),
  city: z.string(),
  customer_affected: count,
  customer_served: count,
});
export const answerSchema = z.object({
  status: z.object({ code: z.union([z.number(), z.string()]).nullish(), error: z.boolean().nullish() }).nullish(),
  data: z.array(citySchema).nullish(),
});

export type LibertyCity = z.infer<typeof citySchema>;

export const WHAT = 'Liberty city summary';

/** The answer's cities; an answer whose status says error fails the poll (`http_status`, with the status's code). */
export function readRaw(raw: unknown): LibertyCity[] {
  const answer = parseUpstream(answerSchema, raw, WHAT);
  if (answer.status?.error) {
    const code = Number(answer.status.code);
    throw new SourceError(
      'http_status',
      `${WHAT} answered status.error true (code ${String(answer.status.code ?? 'none')}): the service refused the request`,
      Number.isInteger(code) ? code : undefined,
    );
  }
  return answer.data ?? [];
}
