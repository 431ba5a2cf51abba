import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  normalizeCompanyName,
  normalizeDomain,
  normalizeSizeLabel,
  normalizeCompanyType,
  sizeLabelForCount,
} from '../../src/companies/normalize.ts';
import { industryIdFor } from '../../src/companies/industry.ts';
import { formatCurrency, formatMoneyShort, parseMoney } from '../../src/companies/format.ts';

describe('normalizeDomain', () => {
  const cases: [string, string | null][] = [
    ['stripe.com', 'stripe.com'],
    ['  WWW.Stripe.COM. ', 'stripe.com'],
    ['https://www.stripe.com/about?x=1#top', 'stripe.com'],
    ['http://user:secret@www.example.co.uk:8080/path', 'example.co.uk'],
    ['ceo@Stripe.com', 'stripe.com'],
    ['mailto:press@stripe.com', 'stripe.com'],
    ['www2.acme.example', 'acme.example'],
    ['blog.stripe.com', 'blog.stripe.com'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['https://www.München.de/', 'xn--mnchen-3ya.de'],
    ['xn--mnchen-3ya.de', 'xn--mnchen-3ya.de'],
    ['www.com', 'www.com'],
    ['stripe', null],
    ['localhost', null],
    ['192.168.1.10', null],
    ['http://[::1]/', null],
    ['not a domain', null],
    ['-bad-.com', null],
    ['', null],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${expected}`, () => assert.equal(normalizeDomain(input), expected));
  }
});

describe('normalizeCompanyName', () => {
  const same: [string, string][] = [
    ['Stripe, Inc.', 'stripe'],
    ['stripe', 'stripe'],
    ['STRIPE INC', 'stripe'],
    ['Acme GmbH', 'acme'],
    ['Acme Ltd.', 'acme'],
    ['Acme, L.L.C.', 'acme'],
    ['Acme Pty Ltd', 'acme'],
    ['Infosys Private Limited', 'infosys'],
    ['Grupo Bimbo, S.A.B. de C.V.', 'grupo bimbo'],
    ['The Home Depot, Inc.', 'home depot'],
    ['Procter & Gamble Co.', 'procter and gamble'],
    ['Johnson & Johnson', 'johnson and johnson'],
    ['Smith & Co.', 'smith'],
    ['Société Générale S.A.', 'societe generale'],
    ['Yahoo!', 'yahoo'],
    ['Inc.', 'inc'],
    ['Acme Group Holdings LLC', 'acme group holdings'],
  ];
  for (const [input, expected] of same) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => assert.equal(normalizeCompanyName(input), expected));
  }
});

describe('company value helpers', () => {
  it('size labels', () => {
    assert.equal(sizeLabelForCount(0), '1-10');
    assert.equal(sizeLabelForCount(10), '1-10');
    assert.equal(sizeLabelForCount(11), '11-50');
    assert.equal(sizeLabelForCount(10001), '10001+');
    assert.equal(normalizeSizeLabel('10,001+ employees'), '10001+');
    assert.equal(normalizeSizeLabel('51 - 200'), '51-200');
    assert.equal(normalizeSizeLabel('10001-max'), '10001+');
    assert.equal(normalizeSizeLabel('huge'), null);
  });
  it('company types', () => {
    assert.equal(normalizeCompanyType('Privately Held'), 'private');
    assert.equal(normalizeCompanyType('Public Company'), 'public');
    assert.equal(normalizeCompanyType('non-profit'), 'nonprofit');
    assert.equal(normalizeCompanyType('Educational Institution'), 'educational');
    assert.equal(normalizeCompanyType('Government Agency'), 'government');
    assert.equal(normalizeCompanyType('public_subsidiary'), 'public_subsidiary');
    assert.equal(normalizeCompanyType('banana'), null);
  });
  it('industry text to job_industries ids', () => {
    assert.equal(industryIdFor('computer software'), 1);
    assert.equal(industryIdFor('Information Technology and Services'), 1);
    assert.equal(industryIdFor('internet'), 2);
    assert.equal(industryIdFor('banking'), 6);
    assert.equal(industryIdFor('venture capital & private equity'), 8);
    assert.equal(industryIdFor('hospital & health care'), 9);
    assert.equal(industryIdFor('Biotechnology'), 10);
    assert.equal(industryIdFor('something else entirely'), null);
  });
  it('money', () => {
    assert.equal(formatMoneyShort(2_200_000_000), '$2.2B');
    assert.equal(formatMoneyShort(15_000_000), '$15M');
    assert.equal(formatMoneyShort(999_950_000), '$1B');
    assert.equal(formatMoneyShort(1_250), '$1.3K');
    assert.equal(formatMoneyShort(950), '$950');
    assert.equal(formatMoneyShort(null), null);
    assert.equal(formatCurrency(25_000_000), '$25,000,000');
    assert.equal(formatCurrency(1_000_000, 'EUR'), '€1,000,000');
    assert.equal(parseMoney('$2.2B'), 2_200_000_000);
    assert.equal(parseMoney('USD 15 million'), 15_000_000);
    assert.equal(parseMoney('2,500,000'), 2_500_000);
    assert.equal(parseMoney('lots'), null);
  });
});
