// The companies domain as the rest of leadbase sees it: lookups by domain and name, upserts from
// importers and other domains, email-validation enrichment, the funding result and company search.
import type { Db } from '../db/database.ts';
import type { CompanyProfile, FundingResult } from '../contract/companies.ts';
import type { CompanyRow } from './tables.ts';
import { normalizeCompanyName, normalizeDomain } from './normalize.ts';
import { CompanyRepository, type UpsertResult } from './repository.ts';
import { CompanyInputError, prepareArticle, prepareCompany, type ArticleInput, type CompanyInput, type PreparedCompany } from './input.ts';
import { composeFunding, hasFundingData } from './funding.ts';
import { toEnrichment, type CompanyEnrichment } from './enrichment.ts';
import { profUrlForms, toCompanyProfile, websiteOf } from './profile.ts';
import { competitorsOf, type Competitor } from './competitors.ts';

export type { CompanyInput } from './input.ts';
export type { CompanyEnrichment } from './enrichment.ts';
export type { CompanyRow } from './tables.ts';

/** How a request names a company: any of its domain, its professional-network page URL, its name. */
export interface CompanyQuery {
  company_name?: string | null;
  company_domain?: string | null;
  profile_url?: string | null;
}

export interface CompanyServiceDeps {
  db: Db;
}

/** One leader of a company, as the companies domain knows it (see leadersOf). */
export interface CompanyLeader {
  role: string;
  first_name: string | null;
  last_name: string | null;
  designation: string | null;
  prof_url: string | null;
}

export class CompanyService {
  readonly repository: CompanyRepository;

  constructor(deps: CompanyServiceDeps) {
    this.repository = new CompanyRepository(deps.db);
  }

  /** The company owning a domain; accepts a bare domain, a URL or an email. Exact after normalization. */
  async findByDomain(domainOrUrlOrEmail: string): Promise<CompanyRow | null> {
    const domain = normalizeDomain(domainOrUrlOrEmail);
    return domain ? this.repository.findByNormalizedDomain(domain) : null;
  }

  /** Company ids of many domains (or URLs, or emails) at once, keyed by the given text; unknown ones are absent. */
  async idsByDomains(inputs: string[]): Promise<Map<string, number>> {
    const normalized = new Map<string, string>();
    for (const input of inputs) {
      const domain = normalizeDomain(input);
      if (domain) normalized.set(input, domain);
    }
    const ids = await this.repository.idsByNormalizedDomains([...normalized.values()]);
    const out = new Map<string, number>();
    for (const [input, domain] of normalized) {
      const id = ids.get(domain);
      if (id !== undefined) out.set(input, id);
    }
    return out;
  }

  /**
   * The one company a name can only mean, or null. The name is compared by its matching key
   * (normalizeCompanyName) against every company's names and aliases. When several companies share
   * the key, the one whose display name or alias equals the given name exactly (ignoring case and
   * spacing) wins if it is the only such company; otherwise the name is ambiguous and the answer
   * is null: never a guess.
   */
  async matchByName(name: string): Promise<CompanyRow | null> {
    const key = normalizeCompanyName(name ?? '');
    if (!key) return null;
    const candidates = await this.repository.findByNameKey(key);
    if (candidates.length === 1) return candidates[0].company;
    if (candidates.length === 0) return null;
    const wanted = exactForm(name);
    const exact = candidates.filter((c) => exactForm(c.company.name) === wanted || c.names.some((n) => exactForm(n.name) === wanted));
    return exact.length === 1 ? exact[0].company : null;
  }

  /** A company by domain first, then by its professional-network page URL, then by name (the usual "name and/or domain" request). */
  async resolve(query: CompanyQuery): Promise<CompanyRow | null> {
    if (query.company_domain) {
      const byDomain = await this.findByDomain(query.company_domain);
      if (byDomain) return byDomain;
    }
    if (query.profile_url) {
      const byPage = await this.findByProfileUrl(query.profile_url);
      if (byPage) return byPage;
    }
    if (query.company_name) return this.matchByName(query.company_name);
    return null;
  }

  /** A company by its professional-network page URL, or null (also when two companies claim it). */
  async findByProfileUrl(url: string): Promise<CompanyRow | null> {
    const found = await this.repository.findByProfUrlForms(profUrlForms(url));
    return found.length === 1 ? found[0] : null;
  }

  /** Company search: the profile of the company `resolve` finds, or null. */
  async profile(query: CompanyQuery): Promise<CompanyProfile | null> {
    const company = await this.resolve(query);
    return company ? toCompanyProfile(company, await this.repository.relationsOf(company.id)) : null;
  }

  /** Every company with a domain, page by page (discovery over the company store). */
  async *withDomains(pageSize = 1000): AsyncIterable<{ id: number; name: string; domain: string }> {
    for (let after = 0; ;) {
      const page = await this.repository.withDomains(after, pageSize);
      yield* page;
      if (page.length < pageSize) return;
      after = page[page.length - 1].id;
    }
  }

  async getById(id: number): Promise<CompanyRow | null> {
    return this.repository.getById(id);
  }

  /**
   * Creates the company when new, else folds the reported facts in (see docs/companies.md for the
   * matching and precedence rules). `source` names the reporter, for example "jobs:greenhouse".
   * Throws CompanyInputError when the input cannot be stored (for example a new company without a name).
   */
  async upsertCompany(input: CompanyInput, source: string, seenAt = Date.now()): Promise<{ id: number; created: boolean }> {
    const [result] = await this.repository.upsertMany([prepareCompany(input)], source, seenAt);
    if (result.error) throw new CompanyInputError(result.error);
    return { id: result.id, created: result.created };
  }

  /** Batched upsert of already prepared companies (importers). One result per item, in order. */
  async upsertPrepared(items: PreparedCompany[], source: string, seenAt = Date.now()): Promise<UpsertResult[]> {
    return this.repository.upsertMany(items, source, seenAt);
  }

  /** Adds news items or press releases to a known company; returns how many were new. */
  async addArticles(
    companyId: number,
    kind: 'news' | 'press_release',
    articles: ArticleInput[],
    source: string,
    seenAt = Date.now(),
  ): Promise<number> {
    const prepared = articles.map((a) => ({ company_id: companyId, ...prepareArticle(a, kind) }));
    const before = await this.repository.articlesOf(companyId, 100000);
    const known = new Set(before.filter((b) => b.kind === kind).map((b) => b.item_key));
    await this.repository.upsertArticles(prepared, source, seenAt);
    return new Set(prepared.filter((p) => !known.has(p.item_key)).map((p) => p.item_key)).size;
  }

  /** Company fields of the email-validation result, or null when the domain is unknown. */
  async enrichmentByDomain(domain: string): Promise<CompanyEnrichment | null> {
    const company = await this.findByDomain(domain);
    return company ? toEnrichment(company) : null;
  }

  /** The company-funding result (without credits_consumed), or null when no funding data is found. */
  /** A company and up to `limit` competitors (src/companies/competitors.ts); null when the company is unknown or none is found. */
  async competitors(
    query: CompanyQuery,
    limit: number,
  ): Promise<{ company_name: string; company_domain: string | null; company_website: string | null; competitors: Competitor[] } | null> {
    const company = await this.resolve(query);
    if (!company) return null;
    const competitors = await competitorsOf(this.repository.db, company, limit);
    if (!competitors.length) return null;
    return { company_name: company.name, company_domain: company.domain, company_website: websiteOf(company), competitors };
  }

  async funding(query: CompanyQuery): Promise<FundingResult | null> {
    const company = await this.resolve(query);
    if (!company) return null;
    const facts = await this.loadFacts(company.id);
    if (!hasFundingData(company, facts.rounds)) return null;
    return composeFunding(company, facts);
  }

  /** The company's known leadership (its own data, filings): role, names, designation, profile URL. */
  async leadersOf(companyId: number): Promise<CompanyLeader[]> {
    return (await this.repository.leadersOf(companyId)).map((l) => ({
      role: l.role,
      first_name: l.first_name,
      last_name: l.last_name,
      designation: l.designation,
      prof_url: l.prof_url,
    }));
  }

  private async loadFacts(id: number) {
    const r = this.repository;
    const [rounds, leaders, competitors, acquisitions, relations, articles, highlights] = await Promise.all([
      r.fundingRoundsOf(id),
      r.leadersOf(id),
      r.competitorsOf(id),
      r.acquisitionsOf(id),
      r.relationsOf(id),
      r.articlesOf(id, 100),
      r.highlightsOf(id),
    ]);
    return { rounds, leaders, competitors, acquisitions, relations, articles, highlights };
  }
}

const exactForm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();
