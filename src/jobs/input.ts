// What the jobs domain takes in: a posting as a connector read it, before normalization. The
// connectors in src/ingest/jobs produce these; the domain never depends on the connectors.
import type { Salary } from './normalize/salary.ts';

/** The company behind a board, as far as the source tells. */
export interface SourceCompany {
  name: string;
  website?: string | null;
  prof_url?: string | null;
  social_b_url?: string | null;
  code_host_url?: string | null;
  logo_url?: string | null;
}

/** One posting as a connector read it, before our normalization (geo, levels, language…). */
export interface SourceListing {
  /** Stable id within the board: re-imports update the same listing. */
  sourceId: string;
  title: string;
  /** Location text as shown on the board (several places joined with "; "). */
  location: string;
  /** The source's own remote flag, when it has one. */
  remote?: boolean | null;
  /** Employment-type wordings ("FULL_TIME", "Full-time", "permanent"). */
  employmentTypes: string[];
  /** Epoch ms; null when the source gives no date (then first seen). */
  publishedAt: number | null;
  /** HTML or text; normalized to text later. */
  descriptionHtml: string;
  applyUrl: string;
  language?: string | null;
  salary?: Salary | null;
  /** The source's seniority wording, when it has one. */
  experience?: string | null;
  /** Structured country code, when the source has one (helps the location resolver). */
  countryCode?: string | null;
  company?: SourceCompany | null;
}
