// OE-417 cause categories: Event Type (then Alert Criteria) text to one category. Kept apart from the workbook
// reader so the report publisher names them without loading the spreadsheet library.

/**
 * Cause categories, first match wins, tested on Event Type (then Alert Criteria). Documented in docs/archive-and-history.md and the
 * OpenAPI document; `other` when nothing matches, `unknown` when both are blank.
 */
export const CAUSES: Array<[string, RegExp]> = [
  ['wildfire', /wild\s*fire|fire/i],
  ['cyber', /cyber|hack|internet|malware|ransom/i],
  ['physical_attack', /attack|vandal|sabotage|theft|intrusion|suspicious|gun|shot|tamper/i],
  [
    'weather',
    /weather|storm|hurricane|tropical|wind|ice|snow|winter|tornado|lightning|thunder|heat|cold|flood|rain|derecho|blizzard|temperature|natural disaster/i,
  ],
  ['fuel_supply', /fuel/i],
  [
    'load_shed_or_appeal',
    /load shed|shed|appeal|voltage reduction|interruptible|conservation|rolling|rotating|curtail/i,
  ],
  ['earthquake', /earthquake|seismic/i],
  [
    'system_operations',
    /system operation|islanding|separation|operation|energy emergency|emergency|loss of (?:electric|generation|supply)|generation inadequacy|capacity/i,
  ],
  [
    'equipment',
    /equipment|failure|fault|transmission|generat|transformer|relay|substation|breaker|line|distribution|interruption|trip|insulator|cable|unit|plant/i,
  ],
  ['system_operations', /inadequa|resource|shortage|deficien/i],
];

export function causeOf(eventType: string | null, alert: string | null): string {
  if (eventType && /^unknown\b/i.test(eventType)) eventType = null;
  if (!eventType && !alert) return 'unknown';
  for (const [cause, re] of CAUSES) if (eventType && re.test(eventType)) return cause;
  for (const [cause, re] of CAUSES) if (alert && re.test(alert)) return cause;
  return 'other';
}
