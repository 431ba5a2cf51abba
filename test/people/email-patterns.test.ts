import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lastNameForms, observedPatterns, patternOf, rankedCandidates } from '../../src/people/email-patterns.ts';

describe('email patterns', () => {
  it('recognises the pattern a known address follows', () => {
    assert.equal(patternOf('john.smith', 'John', 'Smith'), 'first.last');
    assert.equal(patternOf('jsmith', 'John', 'Smith'), 'flast');
    assert.equal(patternOf('john', 'John', 'Smith'), 'first');
    assert.equal(patternOf('smith.john', 'John', 'Smith'), 'last.first');
    assert.equal(patternOf('john_smith+news', 'John', 'Smith'), 'first_last');
    assert.equal(patternOf('mariadelacruz', 'María', 'de la Cruz'), 'firstlast');
    assert.equal(patternOf('maria.cruz', 'María', 'de la Cruz'), 'first.last');
    assert.equal(patternOf('sales', 'John', 'Smith'), null);
    assert.equal(patternOf('john', 'John', null), null);
  });
  it('joins particles and also offers the last word alone', () => {
    assert.deepEqual(lastNameForms('de la Cruz'), ['delacruz', 'cruz']);
    assert.deepEqual(lastNameForms("O'Brien"), ['obrien']);
    assert.deepEqual(lastNameForms('Le Pen'), ['lepen', 'pen']);
  });
  it('counts the patterns a domain uses', () => {
    const counts = observedPatterns([
      { email: 'jdoe@acme.com', first_name: 'Jane', last_name: 'Doe' },
      { email: 'bsmith@acme.com', first_name: 'Bob', last_name: 'Smith' },
      { email: 'carla.ruiz@acme.com', first_name: 'Carla', last_name: 'Ruiz' },
      { email: 'sales@acme.com', first_name: 'Jane', last_name: 'Roe' },
    ]);
    assert.deepEqual(
      [...counts.entries()],
      [
        ['flast', 2],
        ['first.last', 1],
      ],
    );
  });
  it('ranks candidates by the domain patterns first, then the usual order', () => {
    const observed = new Map([
      ['flast', 5],
      ['first_last', 1],
    ] as const);
    assert.deepEqual(rankedCandidates({ first: 'Ana', last: 'Silva' }, 'acme.com', observed, 4), [
      'asilva@acme.com',
      'ana_silva@acme.com',
      'ana.silva@acme.com',
      'ana@acme.com',
    ]);
    assert.deepEqual(rankedCandidates({ first: 'Ana', last: 'Silva' }, 'acme.com', new Map(), 3), [
      'ana.silva@acme.com',
      'ana@acme.com',
      'asilva@acme.com',
    ]);
  });
  it('builds candidates from folded names, particles joined before the last word alone', () => {
    assert.deepEqual(rankedCandidates({ first: 'José María', last: 'de la Vega' }, 'x.io', new Map(), 3), [
      'jose.delavega@x.io',
      'jose.vega@x.io',
      'jose@x.io',
    ]);
    assert.deepEqual(rankedCandidates({ first: 'Cher', last: null }, 'x.io', new Map()), []);
  });
});
