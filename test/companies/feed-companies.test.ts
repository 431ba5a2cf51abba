// A feed whose company is not stored yet: made from the feed's own site and title (real feeds,
// test/fixtures/real/companies/feeds), or refused with the command that names it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CompanyService } from '../../src/companies/service.ts';
import { companyNameOfFeed, importFeed } from '../../src/ingest/companies/feed-import.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';

const read = (name: string) => readFileSync(new URL(`../fixtures/real/companies/feeds/${name}`, import.meta.url), 'utf8');

describe("a feed's company from its title", () => {
  it('takes the words of the title that spell the domain', () => {
    assert.equal(companyNameOfFeed('The Guardian', 'theguardian.com'), 'The Guardian');
    assert.equal(companyNameOfFeed('heise developer neueste Meldungen', 'heise.de'), 'heise');
    assert.equal(companyNameOfFeed('Stripe Blog', 'blog.stripe.com'), 'Stripe');
    assert.equal(companyNameOfFeed('News – Acme Corp', 'acme.io'), 'Acme');
    assert.equal(companyNameOfFeed('Release notes from gulp', 'github.com'), null);
    assert.equal(companyNameOfFeed(null, 'acme.io'), null);
  });
});

for (const target of dbTargets) {
  describe(`feeds whose company is not stored (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let companies: CompanyService;
    before(async () => {
      database = await target.open();
      companies = new CompanyService({ db: database.db });
    });
    after(() => database.destroy());

    it("The Guardian's RSS makes the company from its site and title, and stores its items", async () => {
      const summary = await importFeed({ service: companies, xml: read('guardian-us.rss'), url: 'https://www.theguardian.com/us/rss' });
      assert.equal(summary.rejectedTotal, 0, JSON.stringify(summary.toJSON()));
      assert.equal(summary.inserted, 2);
      const guardian = (await companies.findByDomain('theguardian.com'))!;
      assert.equal(guardian.name, 'The Guardian');
      const articles = await companies.repository.articlesOf(guardian.id);
      assert.equal(articles.length, 2);
      assert.ok(
        articles.every((a) => a.kind === 'press_release'),
        "a feed on the company's own site",
      );
      // Read again: the company is found, nothing is made twice.
      const again = await importFeed({ service: companies, xml: read('guardian-us.rss') });
      assert.equal(again.unchanged, 2);
    });

    it('heise developer Atom: the company is named by the words of the title that spell its domain', async () => {
      const summary = await importFeed({ service: companies, xml: read('heise-developer.atom') });
      assert.equal(summary.inserted, 3, JSON.stringify(summary.toJSON()));
      assert.equal((await companies.findByDomain('heise.de'))!.name, 'heise');
    });

    it("a feed on a platform's site (GitHub releases) is refused with the command that names its company", async () => {
      const url = 'https://github.com/gulpjs/gulp/releases.atom';
      const summary = await importFeed({ service: companies, xml: read('github-gulp-releases.atom'), url });
      assert.equal(summary.inserted, 0);
      assert.equal(summary.rejectedTotal, 3);
      const { reason } = summary.rejected[0];
      assert.match(
        reason,
        /no stored company for github\.com \(its title "Release notes from gulp" does not name the owner of github\.com\)/,
      );
      assert.ok(reason.includes(`leadbase import companies feed ${url} --domain <its domain> --name "<its name>"`), reason);
      assert.equal(await companies.findByDomain('github.com'), null, 'no company is made up');
    });

    it('a domain and a name given make the company; a domain alone for a feed on another site is refused', async () => {
      const refused = await importFeed({ service: companies, xml: read('github-gulp-releases.atom'), companyDomain: 'gulpjs.com' });
      assert.match(refused.rejected[0].reason, /the feed is on github\.com, not gulpjs\.com/);
      const made = await importFeed({
        service: companies,
        xml: read('github-gulp-releases.atom'),
        companyDomain: 'gulpjs.com',
        companyName: 'gulp.js',
      });
      assert.equal(made.inserted, 3, JSON.stringify(made.toJSON()));
      const gulp = (await companies.findByDomain('gulpjs.com'))!;
      assert.equal(gulp.name, 'gulp.js');
      assert.ok((await companies.repository.articlesOf(gulp.id)).every((a) => a.kind === 'news'));
    });
  });
}
