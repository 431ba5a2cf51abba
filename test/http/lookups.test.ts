import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets } from '../support/db.ts';
import { startTestApp } from '../support/app.ts';

for (const target of dbTargets) {
  describe(`lookup lists (${target.name})`, { skip: target.skip }, () => {
    it('serves the lookup lists from the database, free', async () => {
      const t = await startTestApp(target, { credits: 0 });
      try {
        const types = (await t.get('/job-types')).json();
        assert.deepEqual(types, [
          { id: 1, name: 'Full Time' },
          { id: 2, name: 'Part Time' },
          { id: 3, name: 'Temporary' },
          { id: 4, name: 'Internship' },
          { id: 5, name: 'Freelance' },
          { id: 6, name: 'Contract' },
        ]);
        const regions = (await t.get('/job-regions')).json();
        assert.deepEqual(
          regions.map((r: { name: string }) => r.name),
          ['Africa', 'Asia/Pacific', 'Europe', 'Middle East', 'North America', 'South America'],
        );
        const countries = (await t.get('/job-country')).json<{ id: string; name: string }[]>();
        assert.ok(countries.length >= 249, `every ISO 3166-1 country, got ${countries.length}`);
        assert.deepEqual(
          countries.find((c) => c.id === 'US'),
          { id: 'US', name: 'United States' },
        );
        assert.deepEqual(
          countries.find((c) => c.id === 'DE'),
          { id: 'DE', name: 'Germany' },
        );
        assert.ok(countries.every((c) => /^[A-Z]{2}$/.test(c.id) && c.name.length > 0));
        const companyTypes = (await t.get('/job-company-types')).json();
        assert.equal(companyTypes[0].name, 'Startup');
        assert.ok(companyTypes.length >= 10);
        const industries = (await t.get('/job-industries')).json();
        assert.ok(industries.length >= 20);
        assert.equal(new Set(industries.map((i: { id: number }) => i.id)).size, industries.length, 'stable unique ids');
        assert.equal(await t.services.billing.balance(t.keyId), 0);
        const credits = await t.get('/credits');
        assert.deepEqual(credits.json(), { credits: 0 });
      } finally {
        await t.close();
      }
    });
  });
}
