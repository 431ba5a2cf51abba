// The benchmark's SEC stand-in on a thread of its own, as a real upstream is: storing a quarter keeps
// the benchmark's thread busy, and must not hold up the next download or the server's timers.
import { parentPort, workerData } from 'node:worker_threads';
import { startMirror } from '../../test/support/upstreams/sec.ts';

const { zips, latencyMs, perSecond } = workerData as { zips: [string, Uint8Array][]; latencyMs: number; perSecond: number };
const byQuarter = new Map(zips);
const mirror = await startMirror({ zipOf: (year, quarter) => byQuarter.get(`${year}q${quarter}`) ?? null, latencyMs, perSecond });
parentPort!.postMessage({ url: mirror.url });
parentPort!.once('message', () => {
  void mirror.close().then(() => parentPort!.postMessage({ log: mirror.log }));
});
