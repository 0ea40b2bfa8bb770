// A hostile ArcGIS layer for the bench (issue 24): every `query` answers the same ~20 MB page of polygon incidents
// and says `exceededTransferLimit: true`, so a client pages until a limit of its own stops it. Run as a child process
// (its memory is not the poller's): prints `{"url": …}` once it listens, serves until killed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** ~20 MB: features of ~1.9 KB (a 60-point ring, a few attributes), just under the client's 20 MB per-answer cap. */
function page(targetBytes = 19.5 * 1024 * 1024): Buffer {
  const ring = Array.from({ length: 60 }, (_, i) => [
    -80.4 + Math.cos(i / 9.5) * 0.01234567,
    25.6 + Math.sin(i / 9.5) * 0.01234567,
  ]);
  const feature = (i: number) => ({
    attributes: { OBJECTID: i, OUTAGE_ID: `H-${i}`, EST_CUSTOMERS: 12, CAUSE: 'Under investigation' },
    geometry: { rings: [ring] },
  });
  const one = JSON.stringify(feature(0)).length + 1;
  const n = Math.floor(targetBytes / one);
  const features = Array.from({ length: n }, (_, i) => feature(i));
  return Buffer.from(JSON.stringify({ features, exceededTransferLimit: true }));
}

const body = page();
const server = http.createServer((req, res) => {
  if (!/\/query(\?|$)/.test(req.url ?? '')) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(
    JSON.stringify({ url: `http://127.0.0.1:${port}/arcgis/rest/services/Hostile/MapServer/0`, bytes: body.length }),
  );
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
