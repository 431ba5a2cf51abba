// The contact exports people have, recognised by their headers: LinkedIn connections (with its
// notes before the header), Apollo (its "Email Status" words), HubSpot and Salesforce.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportEmailStatus, readPeopleCsv } from '../../src/ingest/people/csv.ts';
import type { PersonInput } from '../../src/people/input.ts';

let dir: string;
before(() => (dir = mkdtempSync(join(tmpdir(), 'leadbase-exports-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

async function read(name: string, text: string) {
  const file = join(dir, name);
  writeFileSync(file, text);
  const reader = readPeopleCsv(file);
  const people: PersonInput[] = [];
  for await (const record of reader.records) if ('input' in record && record.input) people.push(record.input);
  return { people, unread: reader.unreadColumns() };
}

describe('contact export layouts', () => {
  it('LinkedIn Connections.csv: skips the notes, reads name, profile, email, company and position', async () => {
    const { people, unread } = await read(
      'Connections.csv',
      [
        'Notes:',
        '"When exporting your connection data, you may notice that some of the email addresses are missing. You will only see email addresses for connections who have allowed their connections to see or download their email address."',
        '',
        'First Name,Last Name,URL,Email Address,Company,Position,Connected On',
        'Ana,García,https://www.linkedin.com/in/ana-garcia-1a2b3c,ana.garcia@gmail.com,Northwind Analytics,Head of Sales,14 Mar 2024',
      ].join('\n'),
    );
    assert.equal(people.length, 1);
    const [ana] = people;
    assert.equal(ana.first_name, 'Ana');
    assert.equal(ana.profile_url, 'https://www.linkedin.com/in/ana-garcia-1a2b3c');
    assert.deepEqual(ana.emails, [{ email: 'ana.garcia@gmail.com', type: 'personal' }]);
    assert.equal(ana.positions?.[0].company_name, 'Northwind Analytics');
    assert.equal(ana.positions?.[0].title, 'Head of Sales');
    assert.deepEqual(unread, ['Connected On']);
  });

  it("Apollo: keeps every address, mapping its status words, and reads the person's own phones", async () => {
    const { people, unread } = await read(
      'apollo.csv',
      [
        'First Name,Last Name,Title,Company,Email,Email Status,Seniority,Mobile Phone,Corporate Phone,Person Linkedin Url,Website,Country',
        'Sam,Lee,VP Sales,Acme,sam@acme.example,Verified,VP,+44 7911 123456,+44 20 7946 0958,http://www.linkedin.com/in/samlee,http://www.acme.example,United Kingdom',
        'Kim,Park,Engineer,Acme,kim@acme.example,Guessed,Entry,,,http://www.linkedin.com/in/kimpark,http://www.acme.example,United Kingdom',
        'Jo,Ng,Analyst,Acme,jo@acme.example,Unavailable,Entry,,,,,',
      ].join('\n'),
    );
    assert.equal(people.length, 3);
    assert.deepEqual(
      people.map((p) => p.emails?.[0]),
      [{ email: 'sam@acme.example', status: 'valid' }, { email: 'kim@acme.example' }, { email: 'jo@acme.example' }],
    );
    assert.equal(people[0].phones?.[0].number, '+44 7911 123456');
    assert.equal(people[0].phones?.length, 1, 'the company switchboard is not read as the person’s phone');
    assert.equal(people[0].positions?.[0].company_domain, 'http://www.acme.example');
    assert.deepEqual(unread, ['Seniority', 'Corporate Phone']);
  });

  it('HubSpot and Salesforce contact exports', async () => {
    const hubspot = await read(
      'hubspot.csv',
      'First Name,Last Name,Email,Job Title,Company Name,Phone Number,Mobile Phone Number,Country/Region\nLi,Wu,li@acme.example,CTO,Acme,,+1 415 555 2671,United States\n',
    );
    assert.equal(hubspot.people[0].positions?.[0].title, 'CTO');
    assert.equal(hubspot.people[0].phones?.[0].type, 'mobile');
    const salesforce = await read(
      'salesforce.csv',
      'First Name,Last Name,Title,Account Name,Email,Mobile,Mailing Country\nMax,Ruiz,COO,Acme,max@acme.example,+34 612 345 678,Spain\n',
    );
    assert.equal(salesforce.people[0].positions?.[0].company_name, 'Acme');
    assert.equal(salesforce.people[0].phones?.[0].number, '+34 612 345 678');
  });

  it('maps status words of the exports to ours, and keeps an address whose status says nothing', () => {
    assert.equal(exportEmailStatus('Verified'), 'valid');
    assert.equal(exportEmailStatus('Bounced'), 'invalid');
    assert.equal(exportEmailStatus('Accept All'), 'catch_all');
    assert.equal(exportEmailStatus('Guessed'), null);
    assert.equal(exportEmailStatus('Unavailable'), null);
    assert.equal(exportEmailStatus('valid'), 'valid');
  });
});

describe('people JSONL keys', () => {
  it('names the keys no field reads', async () => {
    const { readPeopleJsonl } = await import('../../src/ingest/people/jsonl.ts');
    const file = join(dir, 'people.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ full_name: 'Ana García', twitter: '@ana', positions: [] })}\n${JSON.stringify({ full_name: 'Bo', notes: 'x' })}\n`,
    );
    const reader = readPeopleJsonl(file);
    let count = 0;
    for await (const record of reader.records) if ('input' in record) count++;
    assert.equal(count, 2);
    assert.deepEqual(reader.unreadKeys(), ['twitter', 'notes']);
  });
});
