// The data notice: in the X-Data-Notice header of every v1 response and in `meta.notice`.
export const CITATION = 'Cite as: US Power Outage Data (outage-data), with a link back to the page you used.';

export function dataNotice(simulated: boolean): string {
  const base =
    'Outage counts as published by each utility; county percentages use max(feed customers, modelled customers). ' +
    CITATION;
  return simulated ? `SIMULATED DATA from the built-in storm simulator, not real outages. ${base}` : base;
}
