// Browser tests' Chromium: Debian's package (scripts/install-chromium.sh installs it when missing; browser downloads
// do not work here) driven by playwright-core. Where it cannot be had the suites skip with the reason, but fail under CI.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

const SCRIPT = path.resolve(fileURLToPath(new URL('../../scripts/install-chromium.sh', import.meta.url)));

/**
 * The chromium binary, installing it first if needed; or why there is none. Asynchronous, so a first install (about
 * 100 MB of Debian packages: minutes) does not block the test worker: call it with top-level await.
 */
export async function findChromium(): Promise<{ path: string | null; reason: string }> {
  const child = spawn('bash', [SCRIPT], { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGTERM'), 900_000);
  const code = await new Promise<number | null>((resolve) =>
    child.on('close', resolve).on('error', () => resolve(null)),
  );
  clearTimeout(timer);
  const found = stdout.trim().split('\n').at(-1) ?? '';
  if (code === 0 && found) return { path: found, reason: '' };
  const reason =
    (stderr.trim() || `scripts/install-chromium.sh exited with ${code}`)
      .split('\n')
      .filter((l) => l.startsWith('install-chromium:'))
      .join(' ') || stderr.trim();
  if (process.env.CI === 'true') throw new Error(`Browser tests need Chromium and CI must run them: ${reason}`);
  return { path: null, reason };
}

/**
 * Headless Chromium with the flags this machine needs: no sandbox (root), no GPU, and none of Chromium's own
 * background connections, which the closed network refuses.
 */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    chromiumSandbox: false,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
