// Worker threads running our TypeScript modules: the thread registers tsx the way the CLI does,
// whatever started this process, then loads the module.
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startTsWorker(moduleUrl: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(moduleUrl.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
