// The format writers serialise a document once and splice its generation time in: the bytes must be exactly what
// serialising the whole document with its time gives.
import { describe, expect, it } from 'vitest';
import { putEnvelope, putJson, putRenderedJson } from './formats.ts';
import { MemoryTreeWriter } from './tree-writer.ts';

const AT = '2026-09-01T12:00:00.000Z';
const body = (fill: (w: MemoryTreeWriter) => void) => {
  const w = new MemoryTreeWriter(new Date(AT));
  fill(w);
  return w;
};
const read = async (w: MemoryTreeWriter) => {
  await w.commit({ simulated: false, notice: '' });
  return String(w.files.get('x.json')!.body);
};

describe('format writers', () => {
  const docs: Array<Record<string, unknown>> = [
    {},
    { fips: '12086', count: 2, list: [{ a: 1, b: 'x"y' }, { a: null }], skipped: undefined },
    { generated_at: 'kept from the document', n: 1 },
  ];

  it('putJson: the envelope with the time leading data', async () => {
    for (const d of docs)
      expect(await read(body((w) => putJson(w, 'x.json', d)))).toBe(
        JSON.stringify({ data: { generated_at: AT, ...d } }),
      );
  });

  it('putEnvelope: data with the time, then meta', async () => {
    const meta = { notice: 'n', filters: { min: 1 } };
    for (const d of docs)
      expect(await read(body((w) => putEnvelope(w, 'x.json', d, meta)))).toBe(
        JSON.stringify({ data: { generated_at: AT, ...d }, meta }),
      );
  });

  it('putRenderedJson: the time where the builder put it; the basis does not hold it', async () => {
    const same = (g: string) => ({ metadata: { generated: g, title: 'Incidents' }, features: [{ city: 'Miami' }] });
    expect(await read(body((w) => putRenderedJson(w, 'x.json', same)))).toBe(JSON.stringify(same(AT)));
    // a document the time does not appear in is written as built
    expect(await read(body((w) => putRenderedJson(w, 'x.json', () => ({ a: 1 }))))).toBe('{"a":1}');
    // two generations of the same document: the second finds it unchanged (the time is not in the basis)
    const w = body((x) => putRenderedJson(x, 'x.json', same));
    await w.commit({ simulated: false, notice: '' });
    w.now = new Date('2026-09-01T13:00:00Z');
    putRenderedJson(w, 'x.json', same);
    expect((await w.commit({ simulated: false, notice: '' })).unchanged).toBe(1);
    expect(String(w.files.get('x.json')!.body)).toContain(AT);
  });
});
