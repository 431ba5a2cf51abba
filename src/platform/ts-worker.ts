// Worker threads running our modules. From the sources (tsx), the thread registers tsx the way the
// CLI does, whatever started this process, then loads the module; from the compiled build (dist/),
// it loads the JavaScript module directly.
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The URL of module `name` (without extension) beside `base`: .ts in the sources, .js in the build. */
export function siblingModule(name: string, base: string): URL {
  return new URL(`${name}${base.endsWith('.js') ? '.js' : '.ts'}`, base);
}

export function startTsWorker(moduleUrl: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  if (moduleUrl.pathname.endsWith('.js')) return new Worker(moduleUrl, options);
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(moduleUrl.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
