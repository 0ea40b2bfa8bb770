// SEW SmartCMobile connector: the WidgetAPI outage list (MG&E) or the ServiceAPI events, county list and account count (OPPD).
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
