// Feeds published by others (test/fixtures/real/companies/feeds, origin in ORIGINS.md), read item
// by item: title, absolute link, identity and date.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { feedDomain, parseFeed } from '../../src/ingest/companies/feeds.ts';

const read = (name: string) => readFileSync(fileURLToPath(new URL(`../fixtures/real/companies/feeds/${name}`, import.meta.url)), 'utf8');
const iso = (date: string | null | undefined) => (date ? new Date(date).toISOString() : null);

describe('real feeds', () => {
  it("GitHub's releases Atom: relative entry links resolve against the feed's own site", () => {
    const feed = parseFeed(read('github-gulp-releases.atom'));
    assert.equal(feed.title, 'Release notes from gulp');
    assert.equal(feed.link, 'https://github.com/gulpjs/gulp/releases');
    assert.deepEqual(
      feed.items.map((i) => [i.title, i.url, i.guid]),
      [
        ['v3.9.0', 'https://github.com/gulpjs/gulp/releases/tag/v3.9.0', 'tag:github.com,2008:Repository/11167738/v3.9.0'],
        ['v3.8.11', 'https://github.com/gulpjs/gulp/releases/tag/v3.8.11', 'tag:github.com,2008:Repository/11167738/v3.8.11'],
        ['v3.8.10', 'https://github.com/gulpjs/gulp/releases/tag/v3.8.10', 'tag:github.com,2008:Repository/11167738/v3.8.10'],
      ],
    );
    assert.equal(iso(feed.items[0].date), '2015-06-01T21:49:41.000Z');
    assert.equal(feedDomain(feed), 'github.com');
  });

  it('heise developer Atom: the published date before the updated one, typed titles as text', () => {
    const feed = parseFeed(read('heise-developer.atom'));
    assert.equal(feed.title, 'heise developer neueste Meldungen');
    assert.equal(feedDomain(feed), 'heise.de');
    assert.equal(feed.items.length, 3);
    const [wildfly, , parse] = feed.items;
    assert.equal(wildfly.title, 'Java-Anwendungsserver: Red Hat gibt WildFly 10 frei');
    assert.equal(wildfly.guid, 'http://heise.de/-3088438');
    assert.equal(
      wildfly.url,
      'http://www.heise.de/developer/meldung/Java-Anwendungsserver-Red-Hat-gibt-WildFly-10-frei-3088438.html?wt_mc=rss.developer.beitrag.atom',
    );
    assert.equal(iso(wildfly.date), '2016-02-01T16:22:00.000Z', 'published, not updated');
    assert.equal(parse.title, 'Facebook schließt Parse-Plattform');
  });

  it('The Guardian RSS 2.0: RFC 822 dates, guid and link', () => {
    const feed = parseFeed(read('guardian-us.rss'));
    assert.equal(feed.title, 'The Guardian');
    assert.equal(feedDomain(feed), 'theguardian.com');
    assert.deepEqual(
      feed.items.map((i) => [i.title, iso(i.date)]),
      [
        ['Gun-smuggling case puts spotlight on library straddling US-Canada border', '2018-01-31T12:14:52.000Z'],
        ['UN urged to launch global effort to end offshore tax evasion', '2018-01-30T17:00:03.000Z'],
      ],
    );
    assert.equal(
      feed.items[1].url,
      'https://www.theguardian.com/business/2018/jan/30/un-urged-to-launch-global-effort-to-end-offshore-tax-evasion',
    );
    assert.equal(feed.items[1].guid, feed.items[1].url);
  });
});
