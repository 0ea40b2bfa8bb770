// MidAmerican Energy connector (IA, IL, SD): OutageWatch's county table, customers out and served per county.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
