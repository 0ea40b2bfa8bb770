// SMUD communitylist answer: `returndata[]` rows {Title, OutageCount, CustomersImpacted, GeocenterLat, GeocenterLong},
// one titled SMUD (the system total), the rest communities; checked in place for only what normalize reads.
import { arrayAt, misfit, objectAt, optNumOrText } from '../checks.ts';

type NumText = number | string | null | undefined;

/** One row; OutageCount and the answer's totalCount pass through unread (areas carry no outage count). */
export interface SmudRow {
  Title: string;
  CustomersImpacted?: NumText;
  /** the community's centre point; numbers in the sample, text accepted too */
  GeocenterLat?: NumText;
  GeocenterLong?: NumText;
}

export interface SmudAnswer {
  returndata: SmudRow[];
}

const WHAT = 'SMUD communitylist answer';

/** The answer, checked in place (no copy): a hand check, as in the sibling connectors. */
export function readRaw(raw: unknown): SmudAnswer {
  const rows = arrayAt(WHAT, objectAt(WHAT, raw, '').returndata, 'returndata');
  for (let i = 0; i < rows.length; i++) {
    const r = objectAt(WHAT, rows[i], 'returndata', i);
    // The title is the row's identity (the system row, the area's name and path): a row without one is no row.
    if (typeof r.Title !== 'string') misfit(WHAT, 'returndata', i, 'Title', 'string', r.Title);
    if (!optNumOrText(r.CustomersImpacted))
      misfit(WHAT, 'returndata', i, 'CustomersImpacted', 'number or string', r.CustomersImpacted);
    if (!optNumOrText(r.GeocenterLat))
      misfit(WHAT, 'returndata', i, 'GeocenterLat', 'number or string', r.GeocenterLat);
    if (!optNumOrText(r.GeocenterLong))
      misfit(WHAT, 'returndata', i, 'GeocenterLong', 'number or string', r.GeocenterLong);
  }
  return raw as unknown as SmudAnswer;
}
