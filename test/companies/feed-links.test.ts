// Relative links in feeds are stored absolute: against xml:base, else the feed's own address.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseFeed } from '../../src/ingest/companies/feeds.ts';

const atom = (base: string, entryBase = '') => `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"${base}>
  <title>Acme newsroom</title>
  <link href="/" rel="alternate"/>
  <entry${entryBase}>
    <title>Acme opens a Lisbon office</title>
    <id>tag:acme.example,2026:1</id>
    <link href="news/lisbon.html"/>
    <updated>2026-11-02T10:00:00Z</updated>
  </entry>
</feed>`;

describe('feed links', () => {
  it('resolves against the xml:base of the feed and of the entry', () => {
    const feed = parseFeed(atom(' xml:base="https://www.acme.example/press/"'));
    assert.equal(feed.link, 'https://www.acme.example/');
    assert.equal(feed.items[0].url, 'https://www.acme.example/press/news/lisbon.html');
    const nested = parseFeed(atom(' xml:base="https://www.acme.example/press/"', ' xml:base="2026/"'));
    assert.equal(nested.items[0].url, 'https://www.acme.example/press/2026/news/lisbon.html');
  });

  it("resolves against the feed's own address when it declares no base", () => {
    const feed = parseFeed(atom(''), 'https://blog.acme.example/feeds/atom.xml');
    assert.equal(feed.items[0].url, 'https://blog.acme.example/feeds/news/lisbon.html');
    assert.equal(feed.link, 'https://blog.acme.example/');
  });

  it('never stores a link relative: without any base it is left out', () => {
    assert.equal(parseFeed(atom('')).items[0].url, null);
  });

  it('resolves an RSS item link against the channel link', () => {
    const rss = `<rss version="2.0"><channel><title>Acme</title><link>https://acme.example/blog/</link>
      <item><title>Hello</title><link>posts/hello</link><guid>1</guid></item></channel></rss>`;
    assert.equal(parseFeed(rss).items[0].url, 'https://acme.example/blog/posts/hello');
  });
});
