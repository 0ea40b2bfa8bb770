#!/usr/bin/env node
// The `outage` command: runs the TypeScript CLI through tsx, so a fresh clone needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../pipeline/src/cli/index.ts');
