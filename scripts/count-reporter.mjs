// A node:test reporter that writes one JSON line of totals at the end of the run. scripts/run-tests.js
// reads it to print a summary that counts skipped suites and agrees with the exit code (node's own
// summary counts a skipped suite as a passing test and can say "fail 0" when a file crashed). Each
// failure keeps its reason and the test's own diagnostics: CI often shows only the last lines.
const MAX_FAILURES = 50;
const MAX_TEXT = 400;

const oneLine = (text) => {
  const flat = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT)}…` : flat;
};

export default async function* countReporter(source) {
  const totals = { passed: 0, failed: 0, skipped: 0, skippedSuites: 0, todo: 0, failures: [] };
  // Per file, the failure its next diagnostics belong to (node reports a test's diagnostics after its result).
  const lastFailure = new Map();
  for await (const event of source) {
    const { data } = event;
    if (event.type === 'test:diagnostic') {
      const failure = lastFailure.get(data.file);
      if (failure && data.nesting === failure.nesting && failure.notes.length < 5) failure.notes.push(oneLine(data.message));
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    lastFailure.delete(data.file);
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
      if (totals.failures.length < MAX_FAILURES) {
        const error = data.details?.error;
        const failure = {
          test: `${data.file ?? ''} › ${data.name}`,
          reason: oneLine(error?.cause?.message ?? error?.message),
          notes: [],
          nesting: data.nesting,
        };
        totals.failures.push(failure);
        lastFailure.set(data.file, failure);
      }
    }
  }
  yield `${JSON.stringify(totals)}\n`;
}
