// iFactor connector: Kubra's legacy StormCenter 5 sites (Con Edison, Eversource) — directory pointer, summary, reports.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
