// Browser: the site's TopoJSON (already projected to map pixels) → SVG path data, one path per county plus the state
// borders as one mesh. A few lines instead of topojson-client + d3-geo, since no projection happens in the browser.

/** @typedef {{ type: string, id: string, arcs: any, properties: Record<string, string> }} Geometry */

/** Absolute coordinates of every arc, as "x,y" strings ready for path data. */
function decodeArcs(topo) {
  const [sx, sy] = topo.transform.scale;
  const [tx, ty] = topo.transform.translate;
  return topo.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]) => {
      x += dx;
      y += dy;
      return `${Math.round((x * sx + tx) * 100) / 100},${Math.round((y * sy + ty) * 100) / 100}`;
    });
  });
}

/** One ring: its arcs joined end to start (a negative index ~i is arc i reversed). */
function ring(arcs, indexes) {
  const pts = [];
  for (const i of indexes) {
    const arc = i < 0 ? arcs[~i].slice().reverse() : arcs[i];
    for (let k = pts.length ? 1 : 0; k < arc.length; k++) pts.push(arc[k]);
  }
  return `M${pts.join('L')}Z`;
}

/** @param {string[][]} arcs @param {Geometry} g */
function geometryPath(arcs, g) {
  if (g.type === 'Polygon') return g.arcs.map((r) => ring(arcs, r)).join('');
  if (g.type === 'MultiPolygon') return g.arcs.map((p) => p.map((r) => ring(arcs, r)).join('')).join('');
  return '';
}

/** Every arc that bounds a state, drawn once: the state borders and the coast. */
function meshPath(arcs, geometries) {
  const used = new Set();
  const visit = (x) => (Array.isArray(x) ? x.forEach(visit) : used.add(x < 0 ? ~x : x));
  for (const g of geometries) visit(g.arcs);
  return [...used].map((i) => `M${arcs[i].join('L')}`).join('');
}

/**
 * @returns {{ width: number, height: number, counties: Array<{ fips: string, name: string, state: string, d: string }>,
 *   states: Array<{ code: string, d: string }>, borders: string }}
 */
export function mapShapes(topo) {
  const arcs = decodeArcs(topo);
  // A county's state is the state whose FIPS code begins its own (the file does not repeat it in every county).
  const stateCode = new Map(topo.objects.states.geometries.map((g) => [String(g.id), g.properties.code]));
  const counties = topo.objects.counties.geometries.map((g) => ({
    fips: String(g.id),
    name: g.properties.name,
    state: stateCode.get(String(g.id).slice(0, 2)) ?? '',
    d: geometryPath(arcs, g),
  }));
  // The animation's frames are state-level: it fills 51 state shapes, not 3,142 counties, so a frame paints fast.
  const states = topo.objects.states.geometries.map((g) => ({ code: g.properties.code, d: geometryPath(arcs, g) }));
  // us-atlas's Albers USA frame (Alaska and Hawaii inset) is 975 × 610 pixels.
  return { width: 975, height: 610, counties, states, borders: meshPath(arcs, topo.objects.states.geometries) };
}
