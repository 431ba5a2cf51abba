// A node:test reporter that writes one JSON line of totals at the end of the run. scripts/run-tests.js
// reads it to print a summary that counts skipped suites and agrees with the exit code (node's own
// summary counts a skipped suite as a passing test and can say "fail 0" when a file crashed).
export default async function* countReporter(source) {
  const totals = { passed: 0, failed: 0, skipped: 0, skippedSuites: 0, todo: 0, failures: [] };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    const suite = data.details?.type === 'suite';
    if (data.skip !== undefined && data.skip !== false) {
      if (suite) totals.skippedSuites += 1;
      else totals.skipped += 1;
    } else if (data.todo !== undefined && data.todo !== false) {
      totals.todo += 1;
    } else if (event.type === 'test:pass') {
      if (!suite) totals.passed += 1;
    } else if (!suite || data.details?.error?.failureType !== 'subtestsFailed') {
      // A failing suite only repeats its children's failures, unless it failed by itself (a hook, a crash).
      totals.failed += 1;
      if (totals.failures.length < 50) totals.failures.push(`${data.file ?? ''} › ${data.name}`);
    }
  }
  yield `${JSON.stringify(totals)}\n`;
}
