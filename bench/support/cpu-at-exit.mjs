// Loaded with `node --import` into a command bench/cli.bench.ts measures: at exit it appends the
// process's own CPU time (user + system, microseconds, from its start) to CPU_AT_EXIT_FILE.
import { appendFileSync } from 'node:fs';

process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  appendFileSync(process.env.CPU_AT_EXIT_FILE, `${user + system}\n`);
});
