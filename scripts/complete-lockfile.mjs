// Adds lockfile entries for platform-specific optional packages that npm left out (npm/cli#4828; here also because
// the registry mirror only carries the packages of this platform). Without them `npm ci` on npm 11 refuses the
// lockfile ("Missing: @rollup/rollup-darwin-arm64@ from lock file"). Each stub carries the os/cpu/libc read from the
// package name, so npm skips it on every other platform without fetching it.
// Run after changing dependencies: `npm install && node scripts/complete-lockfile.mjs`.
import fs from 'node:fs';

const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPU = {
  x64: 'x64',
  arm64: 'arm64',
  arm: 'arm',
  ia32: 'ia32',
  ppc64: 'ppc64',
  s390x: 's390x',
  riscv64: 'riscv64',
  loong64: 'loong64',
  mips64el: 'mips64el',
  wasm32: 'wasm32',
};

export function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  if (!os || !cpu) return null;
  const libc = parts.includes('musl') ? 'musl' : os === 'linux' && parts.includes('gnu') ? 'glibc' : null;
  return { os, cpu, libc };
}

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
let added = 0;
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [dep, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = key === '' ? '' : `${key}/`;
    if (lock.packages[`${base}node_modules/${dep}`] || lock.packages[`node_modules/${dep}`]) continue;
    const p = platformOf(dep);
    if (!p) continue;
    lock.packages[`node_modules/${dep}`] = {
      version: spec,
      optional: true,
      os: [p.os],
      cpu: [p.cpu],
      ...(p.libc ? { libc: [p.libc] } : {}),
      ...(entry.dev ? { dev: true } : {}),
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform stub(s)`);
