import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `check` until it holds; throws after `ms`. */
export async function until(check: () => Promise<boolean> | boolean, ms = 5000, everyMs = 10): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms`);
    await sleep(everyMs);
  }
}
