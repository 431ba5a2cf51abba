import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveLocation } from '../../src/jobs/geo.ts';
import { detectExperienceLevel } from '../../src/jobs/normalize/experience.ts';
import { detectClearance } from '../../src/jobs/normalize/clearance.ts';
import { detectJobTypes } from '../../src/jobs/normalize/job-types.ts';
import { detectLanguage } from '../../src/jobs/normalize/language.ts';
import { detectRemote } from '../../src/jobs/normalize/remote.ts';
import { parseSalaryText } from '../../src/jobs/normalize/salary.ts';
import { htmlToText } from '../../src/jobs/normalize/html-text.ts';
import { toFts5Query } from '../../src/jobs/fts-query.ts';
import { titleWords } from '../../src/jobs/listing.ts';

describe('experience level', () => {
  const cases: [string, string, string | null, string][] = [
    ['Chief Technology Officer', '', null, 'executive'],
    ['VP of Sales', '', null, 'executive'],
    ['Head of Marketing', '', null, 'executive'],
    ['Director of Engineering', '', null, 'senior'],
    ['Senior Backend Engineer', '', null, 'senior'],
    ['Sr. Data Analyst', '', null, 'senior'],
    ['Staff Software Engineer', '', null, 'senior'],
    ['Engineering Manager', '', null, 'senior'],
    ['Junior Designer', '', null, 'entry'],
    ['Software Engineering Intern', '', null, 'entry'],
    ['Graduate Accountant', '', null, 'entry'],
    ['Software Engineer II', '', null, 'mid'],
    ['Data Analyst', 'You bring 7+ years of experience with SQL.', null, 'senior'],
    ['Data Analyst', 'Requires 12 years of experience leading teams.', null, 'executive'],
    ['Data Analyst', 'No experience needed, 0-1 years welcome.', null, 'entry'],
    ['Data Analyst', '3 years of experience', null, 'mid'],
    ['Nurse', '', 'mid_senior_level', 'senior'],
    ['Customer Advisor', '', 'entry_level', 'entry'],
    ['Senior Frontend Engineer', '', 'experienced', 'senior'],
  ];
  for (const [title, text, source, level] of cases) {
    it(`${title}${text ? ` / "${text}"` : ''}${source ? ` / ${source}` : ''} → ${level}`, () => {
      assert.equal(detectExperienceLevel(title, text, source), level);
    });
  }
});

describe('location resolution', () => {
  const city = (text: string) => resolveLocation(text).cities.map((c) => `${c.name}/${c.country}`);
  it('cities with state, province and country hints', () => {
    assert.deepEqual(city('San Francisco, CA'), ['San Francisco/US']);
    assert.deepEqual(city('Portland, OR'), ['Portland/US']);
    assert.deepEqual(city('Portland, Maine'), ['Portland/US']);
    assert.deepEqual(city('London, ON'), ['London/CA']);
    assert.deepEqual(city('London, United Kingdom'), ['London/GB']);
    assert.deepEqual(city('Toronto, ON, Canada'), ['Toronto/CA']);
    assert.deepEqual(city('São Paulo, Brazil'), ['São Paulo/BR']);
    assert.deepEqual(city('NYC'), ['New York City/US']);
  });
  it('several places, remote words, regions and countries alone', () => {
    const r = resolveLocation('Berlin, Germany; Paris, France or Remote');
    assert.deepEqual(r.countries, ['DE', 'FR']);
    assert.equal(r.remote, true);
    assert.deepEqual(r.regions, [3]);
    assert.deepEqual(resolveLocation('Remote - US').countries, ['US']);
    assert.deepEqual(resolveLocation('EMEA').regions, [3, 4, 1]);
    assert.deepEqual(resolveLocation('Germany').countries, ['DE']);
    assert.deepEqual(resolveLocation('Texas').countries, ['US']);
    assert.deepEqual(resolveLocation('Middle of nowhere').countries, []);
  });
  it('timezones and coordinates as GeoNames has them', () => {
    const [sf] = resolveLocation('San Francisco').cities;
    assert.equal(sf.geonameid, 5391959);
    assert.equal(sf.timezone, 'America/Los_Angeles');
    assert.equal(sf.latitude, '37.77493');
  });
});

describe('remote, types, clearance, language, salary, text', () => {
  it('remote: source flag first, then location/title, then a plain statement', () => {
    assert.equal(detectRemote({ flag: false, location: 'Remote' }), false);
    assert.equal(detectRemote({ location: 'Remote - US' }), true);
    assert.equal(detectRemote({ title: 'Support Agent (Remote)' }), true);
    assert.equal(detectRemote({ location: 'Austin, TX', description: 'This role is fully remote.' }), true);
    assert.equal(detectRemote({ location: 'Austin, TX', description: 'Join remote meetings with clients.' }), false);
  });
  it('job types', () => {
    assert.deepEqual(detectJobTypes(['FULL_TIME']), [1]);
    assert.deepEqual(detectJobTypes(['Part-time', 'Contract']), [2, 6]);
    assert.deepEqual(detectJobTypes(['Werkstudent']), [4]);
    assert.deepEqual(detectJobTypes([], 'Summer Intern'), [4]);
    assert.deepEqual(detectJobTypes(['Temporary']), [3]);
    assert.deepEqual(detectJobTypes(['Freelance']), [5]);
  });
  it('clearance', () => {
    assert.equal(detectClearance('Analyst', 'Must hold an active TS/SCI clearance.'), true);
    assert.equal(detectClearance('Analyst', 'Secret clearance required.'), true);
    assert.equal(detectClearance('Analyst', 'No security clearance required.'), false);
    assert.equal(detectClearance('Analyst', 'Clear communication.'), false);
  });
  it('language', () => {
    assert.equal(detectLanguage('We are looking for an engineer to join our team and help us build the product.'), 'en');
    assert.equal(
      detectLanguage(
        'Wir suchen für unser Team eine Entwicklerin, die mit uns die Plattform weiterentwickelt und Verantwortung übernimmt.',
      ),
      'de',
    );
    assert.equal(
      detectLanguage('Nous recherchons un développeur pour rejoindre notre équipe et construire avec nous la plateforme de demain.'),
      'fr',
    );
    assert.equal(detectLanguage('anything', 'pt-BR'), 'pt');
    // Short texts: trigrams alone would call these French or Italian.
    assert.equal(detectLanguage('Head of Marketing Lead our marketing team across EMEA.'), 'en');
    assert.equal(detectLanguage('Werkstudent Datenanalyse (m/w/d) Du unterstützt unser Team bei der Analyse'), 'de');
  });
  it('salary text', () => {
    assert.deepEqual(parseSalaryText('Pay: $120,000 - $150,000 per year'), { min: 120000, max: 150000, currency: 'USD', period: 'year' });
    assert.deepEqual(parseSalaryText('€60k–€75k'), { min: 60000, max: 75000, currency: 'EUR' });
    assert.deepEqual(parseSalaryText('£45,000 per year'), { min: 45000, max: 45000, currency: 'GBP', period: 'year' });
    assert.equal(parseSalaryText('3-5 years of experience'), null);
  });
  it('html to text and title words', () => {
    assert.equal(
      htmlToText('&lt;p&gt;Hello &amp;amp; welcome&lt;/p&gt;&lt;ul&gt;&lt;li&gt;One&lt;/li&gt;&lt;/ul&gt;'),
      'Hello & welcome\n\n• One',
    );
    assert.deepEqual(titleWords('Senior Software Engineer (m/w/d)'), ['senior', 'software', 'engineer']);
  });
  it('description query syntax to FTS5', () => {
    assert.equal(toFts5Query('python "machine learning"'), '"python" AND "machine learning"');
    assert.equal(toFts5Query('react OR vue -php'), '(("react" OR "vue")) NOT ("php")');
    assert.equal(toFts5Query('-only'), null);
    assert.equal(toFts5Query('c++ "AND" NEAR'), '"c" AND "and" AND "near"');
  });
});
