// Liberty Utilities connector: a region's city summary, cities as areas placed in counties by name in their state.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
