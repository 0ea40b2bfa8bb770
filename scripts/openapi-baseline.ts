// `npm run openapi:baseline`: records the generated v1 OpenAPI document as the baseline the additive-only test
// (pipeline/test/openapi-compat.test.ts) compares against. Refuses a document that breaks the current baseline —
// v1 is additive-only (spec: Versioning) — unless `--force` (a breaking change already announced 90 days ahead).
import fs from 'node:fs';
import { buildOpenApi } from '../pipeline/src/publish/openapi.ts';
import { breakingChanges, OPENAPI_BASELINE } from '../pipeline/src/contract/openapi-compat.ts';

const doc = buildOpenApi(false);
const force = process.argv.includes('--force');
const previous = fs.existsSync(OPENAPI_BASELINE) ? JSON.parse(fs.readFileSync(OPENAPI_BASELINE, 'utf8')) : null;
const breaks = previous ? breakingChanges(previous, doc) : [];
if (breaks.length && !force) {
  console.error(`Not updating ${OPENAPI_BASELINE}: the generated document breaks v1 in ${breaks.length} place(s):`);
  for (const b of breaks.slice(0, 30)) console.error(`  ${b.at}: ${b.problem}`);
  console.error(
    'v1 is additive-only: add beside the old field/parameter instead, or ship the change under a new version.',
  );
  console.error('Only for a change announced at least 90 days ahead: npm run openapi:baseline -- --force');
  process.exitCode = 1;
} else {
  fs.writeFileSync(`${OPENAPI_BASELINE}.tmp`, `${JSON.stringify(doc, null, 2)}\n`);
  fs.renameSync(`${OPENAPI_BASELINE}.tmp`, OPENAPI_BASELINE);
  console.log(
    `wrote ${OPENAPI_BASELINE} (${Object.keys(doc.paths as object).length} paths${breaks.length ? `, ${breaks.length} breaking change(s) accepted with --force` : ''})`,
  );
}
