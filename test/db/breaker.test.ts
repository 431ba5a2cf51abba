// The circuit breaker and the outage log it reports to: refusals without touching the dependency,
// one probe at a time with a growing wait, and three kinds of log line (start, count, end).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { CircuitBreaker } from '../../src/db/breaker.ts';
import { DependencyUnavailableError } from '../../src/db/unavailable.ts';
import { OutageLog } from '../../src/platform/outage-log.ts';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });

function collector() {
  const lines: string[] = [];
  return { lines, logger: { warn: (_details: object, message: string) => void lines.push(message) } };
}

describe('CircuitBreaker', () => {
  it('opens on a lost connection, refuses without calling, probes one at a time, closes on a probe that answers', async () => {
    const { lines, logger } = collector();
    const outages = new OutageLog({ logger, intervalMs: 60_000 });
    const breaker = new CircuitBreaker({ dependency: 'database', firstProbeMs: 50, maxProbeMs: 200, outages });
    let calls = 0;
    const down = () =>
      breaker.run(async () => {
        calls++;
        throw refused;
      });
    await assert.rejects(down(), /ECONNREFUSED/);
    assert.equal(breaker.isOpen, true);
    // Refused at once, without an attempt, until the first probe is due.
    for (let i = 0; i < 50; i++) await assert.rejects(down(), DependencyUnavailableError);
    assert.equal(calls, 1);
    await sleep(80);
    // Two callers at once when a probe is due: one probes, the other is refused.
    let release!: () => void;
    const probe = breaker.run(async (isProbe) => {
      calls++;
      assert.equal(isProbe, true);
      await new Promise<void>((resolve) => (release = resolve));
      return 'answered';
    });
    await assert.rejects(down(), DependencyUnavailableError);
    release();
    assert.equal(await probe, 'answered');
    assert.equal(breaker.isOpen, false);
    assert.equal(calls, 2);
    assert.deepEqual(lines.length, 2);
    assert.match(lines[0], /^database unavailable/);
    assert.match(lines[1], /^database available again/);
    outages.close();
  });

  it('spaces failed probes further, up to the cap', async () => {
    const breaker = new CircuitBreaker({ dependency: 'redis', firstProbeMs: 20, maxProbeMs: 80 });
    let attempts = 0;
    const started = Date.now();
    while (Date.now() - started < 600) {
      await breaker
        .run(async () => {
          attempts++;
          throw refused;
        })
        .catch(() => {});
      await sleep(2);
    }
    // 20, 40, 80, 80, … ms apart: about 8 in 600 ms, never one per call (hundreds).
    assert.ok(attempts >= 2 && attempts <= 12, `${attempts} attempts`);
  });
});

describe('OutageLog', () => {
  it('one line at the start, a count per interval, one at the end; an unheld outage ends after a quiet interval', async () => {
    const { lines, logger } = collector();
    const outages = new OutageLog({ logger, intervalMs: 100 });
    for (let i = 0; i < 1000; i++) outages.refused('database', refused);
    await sleep(150);
    assert.equal(lines.length, 2);
    assert.match(lines[1], /1000 requests affected/);
    await sleep(150);
    assert.equal(outages.isDown('database'), false);
    assert.match(lines.at(-1)!, /database available again/);
    assert.ok(lines.length <= 4, lines.join('\n'));
    outages.close();
  });
});
