// v1 is additive-only (spec: Versioning): the generated OpenAPI document against the committed baseline, and each rule
// of the check proved on a mutated copy of the baseline (and additions shown to pass).
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { buildOpenApi } from '../src/publish/openapi.ts';
import { breakingChanges, OPENAPI_BASELINE, type Break } from '../src/contract/openapi-compat.ts';

/** A JSON Schema of the baseline, as far as the mutations below read and change it. */
interface Schema {
  type?: string | string[];
  enum?: string[];
  required?: string[];
  properties?: Record<string, Schema>;
  maximum?: number;
  pattern?: string;
}
/** A schema with fields, as the named ones (`components.schemas`) are. */
interface ObjectSchema extends Schema {
  properties: Record<string, Schema>;
  required: string[];
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
}
interface Response {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, unknown>;
}
/** The baseline document, as far as the mutations below read and change it. */
interface OpenApi {
  paths: Record<string, Record<string, { parameters: Parameter[]; responses: Record<string, Response> }>>;
  components: { schemas: Record<string, ObjectSchema> };
}

const baseline = JSON.parse(fs.readFileSync(OPENAPI_BASELINE, 'utf8'));
const mutated = (change: (d: OpenApi) => void) => {
  const d = structuredClone(baseline);
  change(d);
  return breakingChanges(baseline, d);
};
const param = (d: OpenApi, path: string, name: string) => d.paths[path].get.parameters.find((p) => p.name === name)!;
const national = (d: OpenApi) => d.components.schemas.LiveSummary.properties.data.properties!.national as ObjectSchema;
const problems = (breaks: Break[]) => breaks.map((b) => b.problem);

describe('the v1 OpenAPI document', () => {
  it('breaks nothing in the committed baseline', () => {
    expect(Object.keys(baseline.paths).length).toBeGreaterThan(30);
    const breaks = breakingChanges(baseline, buildOpenApi(false));
    const report = breaks
      .slice(0, 20)
      .map((b) => `${b.at}: ${b.problem}`)
      .join('\n');
    expect(
      breaks,
      `v1 is additive-only. Add beside the old field instead; for an addition run \`npm run openapi:baseline\`.\n${report}`,
    ).toEqual([]);
  });
});

describe('the additive-only check', () => {
  it('fails a removed or renamed path, and a removed operation', () => {
    expect(mutated((d) => delete d.paths['/api/v1/live/top'])).toEqual([
      { at: '/api/v1/live/top', problem: 'path removed or renamed' },
    ]);
    expect(
      mutated((d) => {
        d.paths['/api/v1/live/leaders'] = d.paths['/api/v1/live/top'];
        delete d.paths['/api/v1/live/top'];
      }),
    ).toEqual([{ at: '/api/v1/live/top', problem: 'path removed or renamed' }]);
    expect(mutated((d) => delete d.paths['/api/v1/rules/{id}'].patch)).toEqual([
      { at: 'PATCH /api/v1/rules/{id}', problem: 'operation removed' },
    ]);
  });

  it('fails a removed or renamed parameter, a new required one, and an optional one made required', () => {
    expect(mutated((d) => (param(d, '/api/v1/events', 'since').name = 'from'))).toEqual([
      { at: 'GET /api/v1/events › query parameter `since`', problem: 'parameter removed or renamed' },
    ]);
    expect(
      mutated((d) =>
        d.paths['/api/v1/events'].get.parameters.push({
          name: 'key',
          in: 'query',
          required: true,
          schema: { type: 'string' },
        }),
      ),
    ).toEqual([{ at: 'GET /api/v1/events › query parameter `key`', problem: 'new required parameter' }]);
    expect(problems(mutated((d) => (param(d, '/api/v1/events', 'since').required = true)))).toEqual([
      'parameter became required',
    ]);
  });

  it('fails a removed, renamed or no longer guaranteed response field', () => {
    const removed = mutated((d) => delete national(d).properties.customers_tracked);
    expect(removed.length).toBeGreaterThan(0);
    expect(removed[0].at).toMatch(
      /^GET \/api\/v1\/live\/summary › 200 › application\/json › body\.data\.national\.customers_tracked$/,
    );
    expect(problems(removed)).toContain('field removed or renamed');
    const renamed = mutated((d) => {
      national(d).properties.customers_total = national(d).properties.customers_tracked;
      delete national(d).properties.customers_tracked;
    });
    expect(problems(renamed)).toContain('field removed or renamed');
    expect(problems(mutated((d) => (national(d).required = national(d).required.filter((k) => k !== 'band'))))).toEqual(
      ['field no longer always present'],
    );
  });

  it('fails a removed enum value, in a parameter and in a response', () => {
    expect(mutated((d) => (param(d, '/api/v1/reports/data', 'table').schema.enum = ['national']))).toEqual([
      { at: 'GET /api/v1/reports/data › query parameter `table`', problem: 'enum value "states" removed' },
    ]);
    const kinds = mutated((d) => {
      const kind = d.components.schemas.Event.properties.kind;
      kind.enum = kind.enum!.filter((k) => k !== 'feed_stale');
    });
    expect(kinds.length).toBeGreaterThan(0);
    expect(kinds.every((b) => b.problem === 'enum value "feed_stale" removed' && b.at.endsWith('.kind'))).toBe(true);
  });

  it('fails a narrowed type or bound', () => {
    expect(problems(mutated((d) => (param(d, '/api/v1/events', 'since').schema = { type: 'integer' })))).toEqual([
      'type narrowed: string → integer',
    ]);
    expect(problems(mutated((d) => (national(d).properties.pct_out.type = 'number')))).toEqual([
      'type narrowed: number|null → number',
    ]);
    expect(problems(mutated((d) => (param(d, '/api/v1/events', 'limit').schema.maximum = 200)))).toEqual([
      'narrowed: maximum 500 → 200',
    ]);
    expect(problems(mutated((d) => (param(d, '/api/v1/events', 'utility').schema.pattern = '^[A-Z]')))).toEqual([
      'narrowed: pattern none → ^[A-Z]',
    ]);
  });

  it('fails a request body field made required, and a removed response, media type or header', () => {
    expect(mutated((d) => (d.components.schemas.KeyRequest.required = ['name']))).toEqual([
      { at: 'POST /api/v1/keys › request body › application/json › body.name', problem: 'field became required' },
    ]);
    expect(mutated((d) => delete d.paths['/api/v1/live/top'].get.responses['304'])).toEqual([
      { at: 'GET /api/v1/live/top › 304', problem: 'response removed' },
    ]);
    expect(
      problems(
        mutated((d) => delete d.paths['/api/v1/live/counties/{fips}'].get.responses['200'].content!['text/csv']),
      ),
    ).toEqual(['media type removed']);
    const header = mutated((d) => delete d.paths['/api/v1/live/summary'].get.responses['200'].headers!['X-Request-Id']);
    expect(header).toEqual([
      { at: 'GET /api/v1/live/summary › 200 › header X-Request-Id', problem: 'response header removed' },
    ]);
  });

  it('fails a field removed from a webhook payload', () => {
    const hook = Object.keys(baseline.webhooks)[0];
    const breaks = mutated((d) => delete d.components.schemas.WebhookEvent.properties.data);
    expect(
      breaks.some(
        (b) => b.at.startsWith(`POST webhook ${hook} › request body`) && b.problem === 'field removed or renamed',
      ),
    ).toBe(true);
  });

  it('passes additions: paths, optional parameters, fields, enum values, wider types and bounds, responses', () => {
    const breaks = mutated((d) => {
      d.paths['/api/v1/live/leaders'] = structuredClone(d.paths['/api/v1/live/top']);
      d.paths['/api/v1/events'].get.parameters.push({
        name: 'county_name',
        in: 'query',
        required: false,
        schema: { type: 'string' },
      });
      national(d).properties.customers_restored = { type: 'integer' };
      national(d).required.push('customers_restored');
      d.components.schemas.Event.properties.kind.enum!.push('outage_merged');
      param(d, '/api/v1/reports/data', 'table').schema.enum!.push('utilities');
      national(d).properties.customers_out.type = ['number', 'null'];
      param(d, '/api/v1/events', 'limit').schema.maximum = 1000;
      d.paths['/api/v1/live/top'].get.responses['503'] = { description: 'Busy.' };
      d.components.schemas.KeyRequest.properties.label = { type: 'string' };
    });
    expect(breaks).toEqual([]);
  });
});
