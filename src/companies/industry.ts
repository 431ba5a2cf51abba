// Maps free industry text (People Data Labs / professional-network wording, our own JSONL, job
// boards) onto the job_industries lookup list, so jobs can filter by company_industry_id.
import { JOB_INDUSTRIES } from '../lookups/data.ts';

// First matching rule wins; more specific rules come first.
const RULES: [RegExp, number][] = [
  [/venture capital|private equity|investment management|hedge fund|asset management/, 8],
  [/bank/, 6],
  [/insurance/, 7],
  [/financ|accounting|capital markets|fintech|payments?|investment/, 5],
  [/semiconductor|computer hardware|electronics|computer networking/, 3],
  [/telecom|wireless/, 4],
  [/internet|online media|e-?commerce|web/, 2],
  [/software|information technology|it services|computer|saas|cloud|data|artificial intelligence|\bai\b/, 1],
  [/biotech|pharma|life sciences/, 10],
  [/medical device|medical equipment/, 11],
  [/health|hospital|medical|mental|wellness|veterinary/, 9],
  [/education|e-?learning|higher ed|school|university|research/, 12],
  [/video games?|gaming|computer games/, 33],
  [/staffing|recruit|human resources/, 32],
  [/legal|law practice|law firm/, 28],
  [/marketing|advertis|public relations/, 26],
  [/media|entertainment|broadcast|publishing|music|film|motion pictures|newspapers|sports/, 25],
  [/consult|professional services|management|outsourcing/, 27],
  [/retail|supermarkets|apparel|fashion|luxury/, 13],
  [/food|beverage|restaurants|wine|dairy/, 15],
  [/consumer|cosmetics|household|furniture|sporting goods/, 14],
  [/oil|gas|petroleum/, 20],
  [/energy|utilities|renewable|solar|power/, 19],
  [/automotive|vehicle/, 17],
  [/aerospace|aviation|defense|defence|space|military/, 18],
  [/construction|building materials|civil engineering|architecture/, 21],
  [/real estate|property/, 22],
  [/transport|logistics|shipping|freight|trucking|airlines|maritime|supply chain|warehous/, 23],
  [/hospitality|travel|leisure|hotel|tourism|events/, 24],
  [/government|public policy|public administration|military|judiciary|legislative|international affairs/, 29],
  [/non-?profit|philanthrop|fund-?raising|civic|religious/, 30],
  [/agricultur|farming|ranching|fishery/, 31],
  [/security|investigations/, 34],
  [/environment|renewables|waste/, 35],
  [/manufactur|machinery|industrial|chemicals|mining|metals|plastics|textiles|packaging|paper/, 16],
];

const BY_NAME = new Map(JOB_INDUSTRIES.map((i) => [i.name.toLowerCase(), i.id]));

/** The job_industries id for an industry text, or null when none fits. */
export function industryIdFor(industry: string | null | undefined): number | null {
  if (!industry) return null;
  const text = industry.trim().toLowerCase();
  if (!text) return null;
  const exact = BY_NAME.get(text);
  if (exact !== undefined) return exact;
  for (const [pattern, id] of RULES) if (pattern.test(text)) return id;
  return null;
}
