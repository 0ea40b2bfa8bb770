#!/usr/bin/env bash
# Packages the function layer (the Hono app in pipeline/src/serve) as a Vercel Node.js function directory that serves
# from the exported tree's manifest. Usage: scripts/package-function.sh <dir.func>
set -euo pipefail
dest="${1:?usage: package-function.sh <dir.func>}"
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$dest"
cp -r "$root/pipeline" "$root/package.json" "$dest/"
# the site's page modules: a browser's 404 is the site's 404 page (pipeline/src/serve/html-errors.ts)
mkdir -p "$dest/site" && cp -r "$root/site/src" "$dest/site/"
cp -r "$root/node_modules" "$dest/"
mkdir -p "$dest/public" && cp -r "$root/public/.manifest.json" "$root/public/.objects" "$dest/public/"
# the report tree (its own manifest) when history is published
if [[ -f "$root/public/.manifest-history.json" ]]; then cp -r "$root/public/.manifest-history.json" "$root/public/.objects-history" "$dest/public/"; fi
cat > "$dest/index.mjs" <<'JS'
import { register } from 'tsx/esm/api';
register();
const { createApp } = await import('./pipeline/src/serve/app.ts');
// The account endpoints need the shared PostgreSQL (DATABASE_URL); without it they answer 503 accounts_unavailable.
let accounts;
if (process.env.DATABASE_URL) {
  const { openAccountsDb } = await import('./pipeline/src/accounts/sql.ts');
  const { AccountService } = await import('./pipeline/src/accounts/service.ts');
  const { mailerFromEnv } = await import('./pipeline/src/accounts/mailer.ts');
  const { safetyFromEnv } = await import('./pipeline/src/accounts/runtime.ts');
  const sql = await openAccountsDb('/tmp', process.env.DATABASE_URL);
  accounts = new AccountService({ sql, mailer: mailerFromEnv(console.log), baseUrl: process.env.PUBLIC_BASE_URL ?? 'https://localhost', clock: () => new Date(), safety: safetyFromEnv() });
}
// Absolute links (feeds, GeoJSON metadata.url) name PUBLIC_BASE_URL, never the request's Host.
const app = createApp({ outDir: new URL('./public', import.meta.url).pathname, accounts, baseUrl: process.env.PUBLIC_BASE_URL });
export default { fetch: (req) => app.fetch(req) };
JS
cat > "$dest/.vc-config.json" <<'JSON'
{ "runtime": "nodejs20.x", "handler": "index.mjs", "launcherType": "Nodejs", "supportsResponseStreaming": true }
JSON
echo "packaged function in $dest"
