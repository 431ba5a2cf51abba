// Places as people write them on boards: lists of cities, renamed cities and exonyms, provinces and
// islands that name a country, never a lookalike city elsewhere.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveLocation } from '../../src/jobs/geo.ts';

const cities = (text: string) => resolveLocation(text).cities.map((c) => `${c.name}/${c.country}`);

describe('place names', () => {
  it('reads a comma list of cities as several places (Stripe writes "SF, SEA, NYC")', () => {
    assert.deepEqual(cities('SF, SEA, NYC'), ['San Francisco/US', 'Seattle/US', 'New York City/US']);
    assert.deepEqual(cities('San Francisco, Seattle, New York'), ['San Francisco/US', 'Seattle/US', 'New York City/US']);
    assert.deepEqual(cities('Berlin, Munich'), ['Berlin/DE', 'Munich/DE']);
  });

  it('still reads "city, state / province / country" as one city', () => {
    for (const [text, expected] of [
      ['Portland, Oregon', 'Portland/US'],
      ['Rochester, New York', 'Rochester/US'],
      ['Brooklyn, New York, USA', 'Brooklyn/US'],
      ['London, Ontario', 'London/CA'],
      ['Melbourne, Victoria', 'Melbourne/AU'],
      ['Perth, Western Australia', 'Perth/AU'],
      ['Paris, France', 'Paris/FR'],
      ['Toronto, ON', 'Toronto/CA'],
    ]) {
      assert.deepEqual(cities(text), [expected], text);
    }
  });

  it('knows renamed cities and English exonyms', () => {
    for (const [text, expected] of [
      ['Gurugram', 'Gurgaon/IN'],
      ['Gurugram, Haryana', 'Gurgaon/IN'],
      ['Kiev', 'Kyiv/UA'],
      ['Saigon', 'Ho Chi Minh City/VN'],
      ['München', 'Munich/DE'],
      ['Geneva', 'Genève/CH'],
      ['Seville', 'Sevilla/ES'],
      ['Nuremberg', 'Nürnberg/DE'],
      ['Quebec City, Quebec', 'Québec/CA'],
      ['Den Haag', 'The Hague/NL'],
      ['St. Petersburg, FL', 'St. Petersburg/US'],
      // As European postings write them.
      ['Mailand', 'Milan/IT'],
      ['Lissabon', 'Lisbon/PT'],
      ['Londres', 'London/GB'],
      ['Bâle', 'Basel/CH'],
      ['Nueva York', 'New York City/US'],
      ['Monaco di Baviera', 'Munich/DE'],
      ['Parijs', 'Paris/FR'],
      ['Pékin', 'Beijing/CN'],
      ['Florencia, Colombia', 'Florencia/CO'],
    ]) {
      assert.deepEqual(cities(text), [expected], text);
    }
  });

  it('reads an island or province as its country, never as a lookalike city abroad', () => {
    assert.deepEqual(resolveLocation('Bali').countries, ['ID']);
    assert.deepEqual(cities('Bali'), []);
    assert.deepEqual(cities('Denpasar, Bali'), ['Denpasar/ID']);
    assert.deepEqual(resolveLocation('Edinburgh, Scotland').countries, ['GB']);
  });
});
