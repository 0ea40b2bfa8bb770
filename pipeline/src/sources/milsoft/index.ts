// Milsoft Web Outage Viewer connector (boundaries.json or outages.json, plus outageSummary.json).
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
