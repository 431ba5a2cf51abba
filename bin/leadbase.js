#!/usr/bin/env node
// Runs the TypeScript sources directly (tsx), so `npx leadbase` works right after `npm install`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main(process.argv);
