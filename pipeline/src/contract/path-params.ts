// The catalogue's path parameters, checked before anything builds a file name from them (issue 37: a `{date}` of
// `%2f`, `..` or `%00` reached the URL builder, which threw, and answered 500 with a stack trace in the log). Each
// parameter's rule is declared here once; a value that fails it is a 400 in the one error shape. `{year}`, `{state}`
// and `{county}` are the report paths' (serve/report-path.ts: they need the atlas) and run first.
import { dayOrError } from './dates.ts';
import { ApiError, badFips } from './errors.ts';
import type { Params } from './urls.ts';

type Rule = (value: string) => ApiError | null;

const RULES: Record<string, Rule> = {
  fips: (v) => (/^\d{5}$/.test(v) ? null : badFips(v)),
  date: (v) => {
    const day = dayOrError('date', v);
    return typeof day === 'string' ? null : day;
  },
};

/** What the URL builder accepts in any path segment (urls.ts urlFor): a parameter without a rule must be this. */
const SEGMENT = /^[A-Za-z0-9_-]+$/;

const badSegment = (name: string, value: string): ApiError =>
  new ApiError({
    status: 400,
    code: 'invalid_parameter',
    param: name,
    message: `\`{${name}}\` may hold letters, digits, \`-\` and \`_\` only, got \`${value.slice(0, 60)}\`.`,
  });

/** The first path parameter that fails its rule, as its 400, or null when every one is fine. */
export function pathParamError(params: Params): ApiError | null {
  for (const [name, value] of Object.entries(params)) {
    const rule = RULES[name];
    const problem = rule ? rule(value) : SEGMENT.test(value) ? null : badSegment(name, value);
    if (problem) return problem;
  }
  return null;
}
