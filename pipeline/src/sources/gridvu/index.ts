// GridVu connector (Lansing Board of Water & Light): getAllOutages points placed in Michigan counties.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
