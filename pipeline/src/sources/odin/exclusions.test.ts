import { describe, expect, it } from 'vitest';
import { odinExclusions, withOdinExclusions } from './exclusions.ts';
import { sourceDef } from '../../../test/shared-data.ts';

const row = (id: string, connector: string, eia_ids: string[], options: Record<string, unknown> = {}) => ({
  ...sourceDef({ id, connector: connector as never, options }),
  eia_ids,
});

describe('odin exclusions', () => {
  const rows = [
    row('duke-like', 'kubra', ['5416', '3046']),
    row('coop', 'nisc', ['0240']),
    row('odin', 'odin', [], { exclude_utility_ids: ['14349'] }),
    row('twice', 'arcgis', ['5416']),
    row('no-id', 'milsoft', []),
  ];
  it('lists every EIA id of the deep rows once, numerically, ODIN rows aside', () => {
    expect(odinExclusions(rows)).toEqual(['240', '3046', '5416']);
    expect(odinExclusions([row('odin', 'odin', ['99'])])).toEqual([]);
  });
  it("fills the ODIN row's option, keeping its own ids, and leaves the other rows as they are", () => {
    const out = withOdinExclusions(rows);
    expect(out.find((s) => s.id === 'odin')?.options.exclude_utility_ids).toEqual(['14349', '240', '3046', '5416']);
    expect(out.filter((s) => s.id !== 'odin')).toEqual(rows.filter((s) => s.id !== 'odin'));
    expect(rows[2].options.exclude_utility_ids).toEqual(['14349']); // the input is not changed
  });
});
