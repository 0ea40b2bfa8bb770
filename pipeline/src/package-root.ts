// The repository's root, found from wherever this module runs: pipeline/src/ under tsx, or dist/ once built
// (`npm run build`); a bundle built outside the checkout finds it from the working directory. Files the code reads
// beside it (data/, site/, SQL) are named from here, never by a path relative to a module, which the bundle moves.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const NAME = 'outage-data';

function rootAbove(from: string): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, 'utf8')).name === NAME) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}

function findRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = rootAbove(here) ?? rootAbove(process.cwd());
  if (!root) throw new Error(`No package.json named ${NAME} above ${here} or the working directory`);
  return root;
}

export const PACKAGE_ROOT = findRoot();

/** An absolute path inside the repository, e.g. `fromRoot('data/reference/places.csv')`. */
export const fromRoot = (...parts: string[]): string => path.join(PACKAGE_ROOT, ...parts);

/** Whether this process runs the built bundle (dist/) rather than the TypeScript sources. */
export const RUNS_BUILT = !import.meta.url.endsWith('.ts');
