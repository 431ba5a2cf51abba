// Salaries read from posting text: thousands separators of several conventions, cents, k-suffixes,
// and money that is not pay (budgets, bonuses, stipends, relocation) never read as a salary.
// A table of phrases as postings write them, each with the salary it states (or none).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseSalaryText } from '../../src/jobs/normalize/salary.ts';

type Expected = [number, number, string] | null;
const PHRASES: [string, Expected][] = [
  ['$120,000 - $150,000', [120000, 150000, 'USD']],
  ['$85,000.00 - $115,000.00', [85000, 115000, 'USD']],
  ['€60.000 - €75.000 brutto', [60000, 75000, 'EUR']],
  ['€ 1.234,50 - € 2.000,00', [1234.5, 2000, 'EUR']],
  ["CHF 120'000 - 140'000", [120000, 140000, 'CHF']],
  ['€60k–€75k', [60000, 75000, 'EUR']],
  ['USD 90000 to 110000 per year', [90000, 110000, 'USD']],
  ['£45,000 per year', [45000, 45000, 'GBP']],
  ['£50,000 - £60,000 plus bonus', [50000, 60000, 'GBP']],
  ['Salary £50k-£60k + bonus + equity', [50000, 60000, 'GBP']],
  ['$130,000 - $160,000 base salary + equity', [130000, 160000, 'USD']],
  ['Compensation: $90,000 - $110,000 per year, bonus eligible', [90000, 110000, 'USD']],
  ['We offer a £1,000 relocation bonus. Salary: £50,000 - £60,000', [50000, 60000, 'GBP']],
  ['Bonus: up to $20,000 per year. Base: $100,000 - $120,000', [100000, 120000, 'USD']],
  ['£400 per year learning budget', null],
  ['annual learning budget of £400 a year', null],
  ['Bonus: up to $20,000 per year.', null],
  ['€500 home office budget per year', null],
  ['$5,000 - $10,000 signing bonus', null],
  ['Stipend: €1,200 per month', null],
];

describe('salary phrases', () => {
  for (const [phrase, expected] of PHRASES) {
    it(JSON.stringify(phrase), () => {
      const salary = parseSalaryText(phrase);
      assert.deepEqual(salary && [salary.min, salary.max, salary.currency], expected);
    });
  }
});
