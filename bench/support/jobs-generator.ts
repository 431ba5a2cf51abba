// Deterministic synthetic job postings with the shape and skew of real boards: companies with one
// board each, titles from a role × seniority grid, cities weighted by population (GeoNames list),
// ~15% remote, publication ages skewed to recent, descriptions of ~1.5 kB built from role-specific
// paragraphs (a few in German, French or Spanish), employment types, salaries on ~40%.
import { readFileSync } from 'node:fs';
import type { SourceListing } from '../../src/ingest/jobs/types.ts';
import { seededRandom as random } from './random.ts';

const ROLES: [string, string[]][] = [
  ['Software Engineer', ['distributed systems', 'TypeScript', 'Go', 'code review', 'CI/CD pipelines']],
  ['Backend Engineer', ['REST APIs', 'PostgreSQL', 'Kafka', 'microservices', 'Java']],
  ['Frontend Engineer', ['React', 'TypeScript', 'design systems', 'accessibility', 'CSS']],
  ['Full Stack Developer', ['Node.js', 'React', 'SQL databases', 'cloud deployments', 'Python']],
  ['Data Engineer', ['data pipelines', 'Spark', 'Airflow', 'dbt', 'data warehouse']],
  ['Data Scientist', ['machine learning', 'statistics', 'Python', 'experimentation', 'forecasting']],
  ['Machine Learning Engineer', ['machine learning', 'PyTorch', 'model serving', 'feature stores', 'GPU clusters']],
  ['DevOps Engineer', ['Kubernetes', 'Terraform', 'observability', 'incident response', 'AWS']],
  ['Site Reliability Engineer', ['Kubernetes', 'on-call rotation', 'SLOs', 'Linux', 'automation']],
  ['Security Engineer', ['threat modeling', 'penetration testing', 'SIEM', 'incident response', 'cloud security']],
  ['Product Manager', ['roadmap', 'customer discovery', 'prioritization', 'stakeholder management', 'metrics']],
  ['Product Designer', ['user research', 'Figma', 'prototyping', 'design systems', 'usability testing']],
  ['Data Analyst', ['SQL', 'dashboards', 'Tableau', 'reporting', 'stakeholder management']],
  ['Account Executive', ['B2B sales', 'quota attainment', 'pipeline generation', 'Salesforce', 'negotiation']],
  ['Sales Development Representative', ['outbound prospecting', 'cold calling', 'pipeline generation', 'CRM', 'quota']],
  ['Customer Success Manager', ['onboarding', 'renewals', 'customer health', 'upselling', 'churn reduction']],
  ['Marketing Manager', ['demand generation', 'campaigns', 'content marketing', 'SEO', 'budget ownership']],
  ['Content Writer', ['editorial calendar', 'SEO', 'copywriting', 'blog posts', 'brand voice']],
  ['Recruiter', ['full-cycle recruiting', 'sourcing', 'interview process', 'employer branding', 'ATS']],
  ['HR Business Partner', ['employee relations', 'performance management', 'compensation', 'HR policies', 'coaching']],
  ['Accountant', ['general ledger', 'month-end close', 'reconciliations', 'GAAP', 'audit support']],
  ['Financial Analyst', ['financial modeling', 'FP&A', 'budgeting', 'variance analysis', 'Excel']],
  ['Operations Manager', ['process improvement', 'KPIs', 'vendor management', 'budgeting', 'team leadership']],
  ['Registered Nurse', ['patient care', 'medication administration', 'EHR documentation', 'BLS certification', 'care plans']],
  ['Medical Assistant', ['patient intake', 'vital signs', 'scheduling', 'EHR', 'clinical support']],
  ['Pharmacist', ['medication therapy', 'dispensing', 'patient counseling', 'compliance', 'clinical review']],
  ['Teacher', ['lesson planning', 'classroom management', 'curriculum', 'student assessment', 'parent communication']],
  ['Warehouse Associate', ['forklift operation', 'picking and packing', 'inventory', 'safety procedures', 'shipping']],
  ['Truck Driver', ['CDL Class A', 'route planning', 'DOT regulations', 'vehicle inspection', 'deliveries']],
  ['Electrician', ['electrical systems', 'blueprints', 'NEC code', 'troubleshooting', 'installation']],
  ['Mechanical Engineer', ['CAD', 'SolidWorks', 'prototyping', 'tolerance analysis', 'manufacturing']],
  ['Project Manager', ['project planning', 'risk management', 'stakeholder management', 'budget tracking', 'Agile']],
  ['Business Analyst', ['requirements gathering', 'process mapping', 'SQL', 'user stories', 'documentation']],
  ['Customer Support Specialist', ['ticketing systems', 'live chat', 'troubleshooting', 'customer satisfaction', 'knowledge base']],
  ['Legal Counsel', ['contract negotiation', 'compliance', 'privacy law', 'commercial agreements', 'risk assessment']],
  ['Systems Administrator', ['Active Directory', 'Linux', 'networking', 'backups', 'patch management']],
  ['QA Engineer', ['test automation', 'Cypress', 'regression testing', 'test plans', 'bug tracking']],
  ['Mobile Developer', ['iOS', 'Android', 'Swift', 'Kotlin', 'app store releases']],
  ['Solutions Architect', ['cloud architecture', 'pre-sales', 'technical workshops', 'integrations', 'AWS']],
  ['Chef', ['menu development', 'food safety', 'kitchen management', 'inventory', 'plating']],
];
const SENIORITY: [string, number][] = [
  ['', 40],
  ['Senior ', 22],
  ['Junior ', 8],
  ['Lead ', 6],
  ['Principal ', 3],
  ['Staff ', 3],
  ['Head of ', 2],
  ['Intern - ', 3],
  ['', 13],
];
const TYPES: [string, number][] = [
  ['Full-time', 78],
  ['Part-time', 8],
  ['Contract', 7],
  ['Temporary', 3],
  ['Internship', 3],
  ['Freelance', 1],
];
const SOURCES = ['greenhouse', 'lever', 'ashby', 'workable', 'smartrecruiters', 'recruitee', 'personio', 'jsonld'];
const SYLLABLES = [
  'ac',
  'me',
  'lu',
  'mo',
  'ra',
  'ven',
  'tor',
  'qui',
  'sol',
  'nex',
  'ar',
  'bit',
  'cor',
  'dyn',
  'el',
  'fin',
  'gal',
  'hex',
  'io',
  'jet',
  'kin',
  'lex',
  'mar',
  'nor',
  'opt',
  'pix',
  'quan',
  'ryn',
  'sky',
  'tri',
  'ul',
  'vox',
  'wav',
  'xen',
  'yo',
  'zen',
];
const SUFFIXES = [
  'Labs',
  'Systems',
  'Health',
  'Logistics',
  'Analytics',
  'Robotics',
  'Energy',
  'Software',
  'Group',
  'Foods',
  'Capital',
  'Media',
  'Bio',
  'Cloud',
  'Works',
];

const OTHER_LANG: Record<string, string> = {
  de: 'Wir suchen eine engagierte Persönlichkeit für unser wachsendes Team. Du arbeitest eng mit Kolleginnen und Kollegen aus verschiedenen Abteilungen zusammen und übernimmst Verantwortung für spannende Projekte. Wir bieten flexible Arbeitszeiten, ein modernes Büro und zahlreiche Weiterbildungsmöglichkeiten.',
  fr: 'Nous recherchons une personne motivée pour rejoindre notre équipe en pleine croissance. Vous travaillerez avec des collègues de plusieurs départements et serez responsable de projets passionnants. Nous offrons des horaires flexibles, des bureaux modernes et de nombreuses possibilités de formation.',
  es: 'Buscamos una persona motivada para unirse a nuestro equipo en crecimiento. Trabajarás con compañeros de varios departamentos y serás responsable de proyectos interesantes. Ofrecemos horario flexible, oficinas modernas y muchas oportunidades de formación.',
};

interface CityPick {
  label: string;
  country: string;
}

function loadCities(): { picks: CityPick[]; cumulative: number[] } {
  const text = readFileSync(new URL('../../src/jobs/geo-data/cities.tsv', import.meta.url), 'utf8');
  const rows = text
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.split('\t'));
  const top = rows
    .filter((r) => Number(r[8]) >= 400_000)
    .sort((a, b) => Number(b[8]) - Number(a[8]))
    .slice(0, 400);
  const countryNames: Record<string, string> = {
    US: 'United States',
    GB: 'United Kingdom',
    DE: 'Germany',
    FR: 'France',
    IN: 'India',
    CA: 'Canada',
    ES: 'Spain',
    NL: 'Netherlands',
    AU: 'Australia',
    BR: 'Brazil',
  };
  // Job boards are skewed to the US and Europe far beyond population: weight by country too.
  const countryWeight: Record<string, number> = {
    US: 12,
    GB: 5,
    DE: 5,
    CA: 4,
    FR: 3,
    NL: 3,
    AU: 3,
    IN: 2,
    ES: 2,
    IE: 3,
    SE: 2,
    CH: 2,
    PL: 2,
    SG: 3,
  };
  const picks: CityPick[] = [];
  const cumulative: number[] = [];
  let total = 0;
  for (const r of top) {
    const [, name, ascii, country, admin1] = r;
    const label = country === 'US' ? `${ascii}, ${admin1}` : `${name}, ${countryNames[country] ?? country}`;
    total += Math.sqrt(Number(r[8])) * (countryWeight[country] ?? 0.3);
    picks.push({ label, country });
    cumulative.push(total);
  }
  return { picks, cumulative: cumulative.map((c) => c / total) };
}

function weighted<T>(rand: () => number, items: [T, number][]): T {
  const sum = items.reduce((s, [, w]) => s + w, 0);
  let x = rand() * sum;
  for (const [item, w] of items) if ((x -= w) < 0) return item;
  return items[items.length - 1][0];
}

export interface GeneratedBoard {
  source: string;
  board: string;
  listings: SourceListing[];
}

export interface JobsGeneratorOptions {
  listings: number;
  companies: number;
  now: number;
  seed?: number;
}

/** Yields boards (one company each) until `listings` postings were made. */
export function* generateBoards(options: JobsGeneratorOptions): Generator<GeneratedBoard> {
  const rand = random(options.seed ?? 42);
  const { picks, cumulative } = loadCities();
  const pickCity = () => {
    const x = rand();
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return picks[lo];
  };
  const perBoard = Math.max(1, Math.round(options.listings / options.companies));
  let made = 0;
  for (let c = 0; made < options.listings; c++) {
    const name = `${Array.from({ length: 2 + Math.floor(rand() * 2) }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join('')}`;
    const companyName = `${name[0].toUpperCase()}${name.slice(1)} ${SUFFIXES[c % SUFFIXES.length]}`;
    const domain = `${name}${c}.example`;
    const source = SOURCES[c % SOURCES.length];
    const board = `${name}${c}`;
    const home = pickCity();
    // Board sizes vary a lot: a few big employers, many small ones.
    const size = Math.min(options.listings - made, Math.max(1, Math.round(perBoard * -Math.log(1 - rand() * 0.999))));
    const listings: SourceListing[] = [];
    for (let i = 0; i < size; i++) {
      const [role, skills] = ROLES[Math.floor(rand() * ROLES.length)];
      const prefix = weighted(rand, SENIORITY);
      const title =
        prefix === 'Head of ' ? `Head of ${role.replace(/ (Engineer|Manager|Developer|Specialist|Analyst)$/, '')}` : `${prefix}${role}`;
      const remote = rand() < 0.15;
      const city = rand() < 0.7 ? home : pickCity();
      const location = remote
        ? rand() < 0.5
          ? `Remote - ${city.country === 'US' ? 'US' : city.label.split(', ')[1]}`
          : 'Remote'
        : city.label;
      const ageDays = Math.min(365, -Math.log(1 - rand()) * 40);
      const lang = rand() < 0.05 ? (['de', 'fr', 'es'] as const)[Math.floor(rand() * 3)] : 'en';
      const s = [...skills].sort(() => rand() - 0.5);
      const paragraphs = [
        `<p>${companyName} is hiring a ${title} to join our ${role.split(' ').at(-1)} team${remote ? ' (this role is fully remote)' : ` in ${city.label}`}.</p>`,
        `<h3>What you will do</h3><ul><li>Own ${s[0]} and ${s[1]} end to end</li><li>Work with ${s[2]} every day</li><li>Improve our ${s[3]} practices</li></ul>`,
        `<h3>What we look for</h3><ul><li>${1 + Math.floor(rand() * 9)}+ years of experience with ${s[0]}</li><li>Experience with ${s[4]}</li><li>Clear written communication</li></ul>`,
        rand() < 0.02 ? '<p>Applicants must hold an active Secret security clearance.</p>' : '',
        lang !== 'en'
          ? `<p>${OTHER_LANG[lang]}</p>`
          : '<p>We offer health insurance, a learning budget, flexible hours and a modern office. We are an equal opportunity employer and value diversity.</p>',
      ];
      const salaried = rand() < 0.4;
      const base = 40_000 + Math.floor(rand() * 160) * 1000;
      listings.push({
        sourceId: `${board}-${i}`,
        title,
        location,
        remote: remote ? true : source === 'lever' || source === 'ashby' ? false : null,
        employmentTypes: [prefix === 'Intern - ' ? 'Internship' : weighted(rand, TYPES)],
        publishedAt: options.now - Math.floor(ageDays * 86_400_000),
        descriptionHtml: lang === 'en' ? paragraphs.join('\n') : `<p>${OTHER_LANG[lang]}</p>${paragraphs.slice(1, 4).join('\n')}`,
        applyUrl: `https://jobs.${domain}/${board}-${i}`,
        language: source === 'greenhouse' || source === 'smartrecruiters' ? lang : null,
        salary: salaried
          ? { min: base, max: base + 20_000 + Math.floor(rand() * 40) * 1000, currency: city.country === 'US' ? 'USD' : 'EUR' }
          : null,
        company: { name: companyName, website: `https://${domain}` },
      });
    }
    made += size;
    yield { source, board, listings };
  }
}
