#!/usr/bin/env bash
# Packages the function layer (the Hono app in pipeline/src/serve) as a Vercel Node.js function directory that serves
# from the exported tree's manifest. Usage: scripts/package-function.sh <dir.func>
set -euo pipefail
dest="${1:?usage: package-function.sh <dir.func>}"
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$dest"
cp -r "$root/pipeline" "$root/package.json" "$dest/"
cp -r "$root/node_modules" "$dest/"
mkdir -p "$dest/public" && cp -r "$root/public/.manifest.json" "$root/public/.objects" "$dest/public/"
cat > "$dest/index.mjs" <<'JS'
import { register } from 'tsx/esm/api';
register();
const { createApp } = await import('./pipeline/src/serve/app.ts');
const app = createApp({ outDir: new URL('./public', import.meta.url).pathname });
export default { fetch: (req) => app.fetch(req) };
JS
cat > "$dest/.vc-config.json" <<'JSON'
{ "runtime": "nodejs20.x", "handler": "index.mjs", "launcherType": "Nodejs", "supportsResponseStreaming": true }
JSON
echo "packaged function in $dest"
