#!/usr/bin/env node
// Regenerates src/jobs/technologies.json, the dictionary technographics reads job listings against,
// by merging developer and infrastructure tools into its Wappalyzer part. Origins and rules:
// docs/companies.md (Technographics) and test/fixtures/real/ORIGINS.md.
//
//   node scripts/technologies.mjs --devicon=FILE --simple-icons=FILE [--words=FILE] [--check]
//
// --devicon       devicon.json of the `devicon` npm package (MIT): slug, alternative names, tags.
// --simple-icons  data/simple-icons.json of the `simple-icons` npm package (CC0): brand titles.
// --words         an English word list, one a line (default Debian's wamerican list): a name made
//                 of its lower-case words is also an ordinary word and needs care when matched.
// --check         compare instead of write: exit 1 when the file would change.
//
// The Wappalyzer entries (those without `from`) are kept as they are; every entry with `from` is
// made again from the lists, so a run on newer lists replaces the additions of the last one. Devicon
// chooses which developer technologies are added (and its tags their categories); simple-icons gives
// their display names ("apachekafka" is "Apache Kafka") and adds the data and infrastructure tools
// named in SIMPLE_ICONS; OURS adds the few well-known ones neither list has (cloud services whose
// brands simple-icons no longer carries). A name already in the dictionary is not added twice.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as prettier from 'prettier';

const OUT = new URL('../src/jobs/technologies.json', import.meta.url);

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, ...v] = a.replace(/^--/, '').split('=');
    return [k, v.length ? v.join('=') : true];
  }),
);
if (args.help || !args.devicon || !args['simple-icons']) {
  console.error('usage: node scripts/technologies.mjs --devicon=devicon.json --simple-icons=simple-icons.json [--words=FILE] [--check]');
  process.exit(args.help ? 0 : 2);
}

/** Letters and digits only, lower case (and + #, so "C++" is not "C"): how two spellings are found to be one name. */
const key = (name) => name.toLowerCase().replace(/[^a-z0-9+#]/g, '');

// ---- What is left out of devicon: not a technology a company's stack is made of. ----
const DEVICON_SKIP = new Set([
  ...['devicon', 'thealgorithms', 'leetcode', 'stackoverflow', 'codepen', 'kaggle', 'behance', 'gitter', 'glitch'],
  ...['facebook', 'google', 'twitter', 'linkedin', 'apple', 'canva', 'fusion', 'ansys', 'ie10', 'chrome', 'firefox'],
  ...['safari', 'opera', 'msdos', 'windows8', 'windows11', 'vite', 'rect', 'jule', 'npss', 'norg', 'sema', 'codeac'],
  ...['discloud', 'detaspace', 'jeet', 'ifttt', 'polygon', 'reach', 'nimble', 'json', 'yaml', 'xml', 'markdown'],
  ...['ssh', 'oauth', 'aarch64', 'embeddedc', 'tex', 'latex', 'jamstack', 'apache', 'ohmyzsh', 'putty', 'nano'],
]);

// ---- Display names of devicon slugs simple-icons has no title for (ours). ----
const DEVICON_NAMES = {
  amazonwebservices: 'Amazon Web Services',
  angularjs: 'AngularJS',
  angularmaterial: 'Angular Material',
  argocd: 'Argo CD',
  azure: 'Microsoft Azure',
  azuredevops: 'Azure DevOps',
  azuresqldatabase: 'Azure SQL Database',
  bash: 'Bash',
  cloudrun: 'Google Cloud Run',
  cosmosdb: 'Azure Cosmos DB',
  csharp: 'C#',
  css3: 'CSS',
  dynamodb: 'Amazon DynamoDB',
  grpc: 'gRPC',
  heroku: 'Heroku',
  java: 'Java',
  junit: 'JUnit',
  matlab: 'MATLAB',
  matplotlib: 'Matplotlib',
  memcached: 'Memcached',
  microsoftsqlserver: 'Microsoft SQL Server',
  objectivec: 'Objective-C',
  openapi: 'OpenAPI',
  oracle: 'Oracle Database',
  playwright: 'Playwright',
  powershell: 'PowerShell',
  reactnative: 'React Native',
  rspec: 'RSpec',
  rstudio: 'RStudio',
  rxjs: 'RxJS',
  salesforce: 'Salesforce',
  slack: 'Slack',
  solidjs: 'SolidJS',
  tomcat: 'Apache Tomcat',
  twilio: 'Twilio',
  visualstudio: 'Visual Studio',
  vscode: 'Visual Studio Code',
  vsphere: 'VMware vSphere',
  xamarin: 'Xamarin',
  yugabytedb: 'YugabyteDB',
  kubeflow: 'Kubeflow',
  hyperv: 'Hyper-V',
  teleport: 'Teleport',
  photoshop: 'Adobe Photoshop',
  illustrator: 'Adobe Illustrator',
  nhibernate: 'NHibernate',
  entityframeworkcore: 'Entity Framework Core',
  dotnetcore: '.NET Core',
  cobol: 'COBOL',
  godot: 'Godot',
  emacs: 'Emacs',
  netbeans: 'NetBeans',
  dropwizard: 'Dropwizard',
  grails: 'Grails',
  pulsar: 'Pulsar Edit',
  uwsgi: 'uWSGI',
  clojurescript: 'ClojureScript',
  denojs: 'Deno',
  nuxtjs: 'Nuxt',
  spss: 'SPSS',
  stata: 'Stata',
  gcc: 'GCC',
  sqldeveloper: 'Oracle SQL Developer',
  aerospike: 'Aerospike',
  akka: 'Akka',
  ballerina: 'Ballerina',
  browserstack: 'BrowserStack',
  d3js: 'D3.js',
  datatables: 'DataTables',
  djangorest: 'Django REST framework',
  feathersjs: 'Feathers',
  firebird: 'Firebird',
  githubcodespaces: 'GitHub Codespaces',
  inertiajs: 'Inertia.js',
  karma: 'Karma',
  mithril: 'Mithril.js',
  networkx: 'NetworkX',
  opencl: 'OpenCL',
  phalcon: 'Phalcon',
  pixijs: 'PixiJS',
  prolog: 'Prolog',
  processing: 'Processing',
  realm: 'Realm',
  terramate: 'Terramate',
  unix: 'Unix',
  visualbasic: 'Visual Basic',
  zustand: 'Zustand',
  xd: 'Adobe XD',
  spyder: 'Spyder',
  awk: 'AWK',
  apex: 'Apex',
  premierepro: 'Adobe Premiere Pro',
  aftereffects: 'Adobe After Effects',
  libgdx: 'libGDX',
  laminas: 'Laminas',
  k3os: 'k3OS',
  framermotion: 'Framer Motion',
  photonengine: 'Photon Engine',
  sonarqube: 'SonarQube',
  passport: 'Passport.js',
  nats: 'NATS',
};

// ---- Data and infrastructure tools simple-icons has and devicon does not: title → categories. ----
const SIMPLE_ICONS = {
  Snowflake: ['Data warehouses'],
  Databricks: ['Data platforms'],
  'Google BigQuery': ['Data warehouses'],
  'Apache Flink': ['Stream processing'],
  Chef: ['Configuration management'],
  Puppet: ['Configuration management'],
  'Salt Project': ['Configuration management'],
  Looker: ['Business intelligence'],
  Metabase: ['Business intelligence'],
  'Apache Superset': ['Business intelligence'],
  Argo: ['CI'],
  Istio: ['Service mesh'],
  Linkerd: ['Service mesh'],
  Cilium: ['Networking'],
  containerd: ['Containers'],
  'Red Hat OpenShift': ['Containers'],
  Trino: ['Query engines'],
  Presto: ['Query engines'],
  'Apache Hive': ['Data warehouses'],
  'Apache NiFi': ['Data pipelines'],
  Airbyte: ['Data pipelines'],
  Prefect: ['Workflow orchestration'],
  MLflow: ['Machine learning'],
  Ray: ['Machine learning'],
  Dask: ['Data processing'],
  'Apache Pulsar': ['Message queues'],
  ScyllaDB: ['Databases'],
  'Apache Cassandra': ['Databases'],
  'Apache Druid': ['Databases'],
  'Apache HBase': ['Databases'],
  Ceph: ['Storage'],
  Fluentd: ['Monitoring'],
  Jaeger: ['Monitoring'],
  Thanos: ['Monitoring'],
  VictoriaMetrics: ['Monitoring'],
  PagerDuty: ['Incident management'],
  Opsgenie: ['Incident management'],
  OpenTofu: ['Infrastructure as code'],
  Spinnaker: ['CI'],
  TeamCity: ['CI'],
  Buildkite: ['CI'],
  Snyk: ['Security'],
  Kong: ['API gateways'],
  HAProxy: ['Load balancers'],
  Caddy: ['Web servers'],
  Nx: ['Build tools'],
  Turborepo: ['Build tools'],
  'Hugging Face': ['Machine learning'],
  LangChain: ['Machine learning'],
  Backstage: ['Developer portals'],
  'Spring Boot': ['Web frameworks'],
};

// ---- Well-known names neither list carries (ours): name → categories. ----
const OURS = {
  dbt: ['Data pipelines'],
  Fivetran: ['Data pipelines'],
  Dagster: ['Workflow orchestration'],
  'Amazon Redshift': ['Data warehouses'],
  'Amazon S3': ['Storage'],
  'Amazon EC2': ['IaaS'],
  'AWS Lambda': ['PaaS'],
  'Amazon ECS': ['Containers'],
  'Amazon EKS': ['Containers'],
  'Amazon RDS': ['Databases'],
  'Amazon SQS': ['Message queues'],
  'Amazon Kinesis': ['Stream processing'],
  'Google Kubernetes Engine': ['Containers'],
  'Azure Kubernetes Service': ['Containers'],
  Confluent: ['Stream processing'],
  Tableau: ['Business intelligence'],
  'Power BI': ['Business intelligence'],
  CockroachDB: ['Databases'],
  TimescaleDB: ['Databases'],
  'Apache ZooKeeper': ['Distributed coordination'],
  'Apache ActiveMQ': ['Message queues'],
  'Apache Iceberg': ['Data platforms'],
  'Delta Lake': ['Data platforms'],
  Zabbix: ['Monitoring'],
  Nagios: ['Monitoring'],
  'GNU Make': ['Build tools'],
  'Amazon CloudFormation': ['Infrastructure as code'],
  Micronaut: ['Web frameworks'],
  SQL: ['Programming languages'],
};

// ---- Categories of devicon entries the tag rules below would get wrong, or make too vague. ----
const CATEGORY_OF = {
  kubernetes: ['Containers'],
  docker: ['Containers'],
  terraform: ['Infrastructure as code'],
  pulumi: ['Infrastructure as code'],
  packer: ['Infrastructure as code'],
  terramate: ['Infrastructure as code'],
  ansible: ['Configuration management'],
  vagrant: ['Infrastructure as code'],
  apachekafka: ['Stream processing'],
  rabbitmq: ['Message queues'],
  nats: ['Message queues'],
  apachespark: ['Data processing'],
  hadoop: ['Data processing'],
  apacheairflow: ['Workflow orchestration'],
  elasticsearch: ['Search engines'],
  kibana: ['Monitoring'],
  logstash: ['Monitoring'],
  beats: ['Monitoring'],
  splunk: ['Monitoring'],
  redis: ['Databases'],
  clickhouse: ['Databases'],
  jenkins: ['CI'],
  circleci: ['CI'],
  travis: ['CI'],
  bamboo: ['CI'],
  githubactions: ['CI'],
  argocd: ['CI'],
  azuredevops: ['CI'],
  codecov: ['CI'],
  helm: ['Containers'],
  rancher: ['Containers'],
  nomad: ['Containers'],
  consul: ['Networking'],
  vault: ['Security'],
  envoy: ['Reverse proxies'],
  traefikproxy: ['Reverse proxies'],
  traefikmesh: ['Service mesh'],
  nginx: ['Web servers'],
  tomcat: ['Web servers'],
  amazonwebservices: ['PaaS'],
  azure: ['PaaS'],
  googlecloud: ['PaaS'],
  openstack: ['IaaS'],
  vsphere: ['Virtualization'],
  hyperv: ['Virtualization'],
  proxmox: ['Virtualization'],
  jira: ['Issue trackers'],
  jiraalign: ['Issue trackers'],
  trello: ['Issue trackers'],
  confluence: ['Wikis'],
  notion: ['Wikis'],
  slack: ['Team chat'],
  mattermost: ['Team chat'],
  salesforce: ['CRM'],
  twilio: ['Communication APIs'],
  figma: ['Design'],
  sketch: ['Design'],
  xd: ['Design'],
  photoshop: ['Design'],
  illustrator: ['Design'],
  graphql: ['APIs'],
  grpc: ['APIs'],
  openapi: ['APIs'],
  swagger: ['APIs'],
  apollographql: ['APIs'],
  trpc: ['APIs'],
  postman: ['APIs'],
  insomnia: ['APIs'],
  hoppscotch: ['APIs'],
  react: ['JavaScript libraries'],
  html5: ['Markup languages'],
  css3: ['Style sheet languages'],
  sass: ['Style sheet languages'],
  less: ['Style sheet languages'],
  stylus: ['Style sheet languages'],
  django: ['Web frameworks'],
  erlang: ['Programming languages'],
  nodejs: ['Programming languages'],
  jupyter: ['Data science'],
  anaconda: ['Data science'],
  pandas: ['Data science'],
  numpy: ['Data science'],
  rstudio: ['Data science'],
  antdesign: ['UI frameworks'],
  datadog: ['Monitoring'],
  sentry: ['Monitoring'],
  opentelemetry: ['Monitoring'],
  unrealengine: ['Game engines'],
  unity: ['Game engines'],
  d3js: ['JavaScript graphics'],
  doctrine: ['Databases'],
  nodewebkit: ['Development'],
  aftereffects: ['Design'],
  premierepro: ['Design'],
  blender: ['Design'],
  gimp: ['Design'],
  inkscape: ['Design'],
  digitalocean: ['PaaS'],
  ballerina: ['Programming languages'],
  processing: ['Programming languages'],
  wolfram: ['Programming languages'],
  cucumber: ['Testing'],
  selenium: ['Testing'],
  flutter: ['Mobile frameworks'],
  reactnative: ['Mobile frameworks'],
  xamarin: ['Mobile frameworks'],
  jetpackcompose: ['Mobile frameworks'],
  grails: ['Web frameworks'],
  spss: ['Data science'],
  stata: ['Data science'],
  spyder: ['IDEs'],
  web3js: ['JavaScript libraries'],
  pfsense: ['Security'],
  uwsgi: ['Web servers'],
  kubeflow: ['Machine learning'],
  qt: ['Libraries'],
  mapbox: ['Maps'],
  mongoose: ['Databases'],
  readthedocs: ['Documentation'],
  v8: ['Development'],
};

/** Categories from devicon's tags, first rule that fits (CATEGORY_OF first). */
const TAG_RULES = [
  [['database', 'nosql', 'sql', 'db', 'key-value', 'warehouse', 'orm'], 'Databases'],
  [['container', 'kubernetes', 'docker', 'orchestrator'], 'Containers'],
  [['infrastructure-as-code'], 'Infrastructure as code'],
  [['monitoring', 'observability', 'tracing', 'telemetry', 'logs'], 'Monitoring'],
  [['machine-learning', 'deep-learning', 'data-science'], 'Machine learning'],
  [['streaming', 'message-broker'], 'Message queues'],
  [['testing', 'test-runner'], 'Testing'],
  [['version-control', 'git', 'vcs', 'version'], 'Version control'],
  [['integration', 'continuous-delivery', 'devops', 'gitops'], 'CI'],
  [['package', 'manager', 'package-manager', 'task-runner', 'build', 'bundler', 'compiler', 'linter'], 'Build tools'],
  [['ide', 'IDE', 'editor', 'text editor'], 'IDEs'],
  [['os', 'linux', 'distribution', 'operating-system', 'operating system'], 'Operating systems'],
  [['game-engine'], 'Game engines'],
  [['cms', 'CMS'], 'CMS'],
  [['ecommerce'], 'Ecommerce'],
  [['cloud', 'hosting', 'serverless', 'cloud-computing-platform', 'cloud hosting'], 'PaaS'],
  [['auth', 'security', 'authentication'], 'Security'],
  [['language', 'shell'], 'Programming languages'],
];

/** A framework or library: for JavaScript, of CSS, or of the web. */
function frameworkCategory(tags) {
  const js = tags.some((t) => ['javascript', 'js', 'reactjs', 'react', 'vuejs', 'nodejs', 'typescript', 'angular'].includes(t));
  if (tags.includes('css') || tags.includes('ui')) return 'UI frameworks';
  if (tags.includes('framework')) return js ? 'JavaScript frameworks' : 'Web frameworks';
  if (tags.includes('library')) return js ? 'JavaScript libraries' : 'Libraries';
  return null;
}

function deviconCategories(entry) {
  if (CATEGORY_OF[entry.name]) return CATEGORY_OF[entry.name];
  const tags = entry.tags;
  const fw = tags.includes('language') || tags.includes('programming') ? null : frameworkCategory(tags);
  for (const [needles, category] of TAG_RULES) {
    if (category === 'Programming languages' && fw) break;
    if (tags.some((t) => needles.includes(t))) return [category];
  }
  if (tags.includes('programming')) return ['Programming languages'];
  return [fw ?? 'Development'];
}

// ---- Matching marks (how a name must appear in text; docs/companies.md, Technographics). ----

/**
 * Names that are everyday words, often capitalised (a sentence's first word, a place, a season): they
 * count only in a list of technologies or right before a technical word ("strict").
 */
const STRICT = new Set([
  ...['Go', 'R', 'C', 'Rust', 'Swift', 'Spring', 'Chef', 'Puppet', 'Salt Project', 'Julia', 'Ruby', 'Unity', 'Express'],
  ...['Processing', 'Foundation', 'Ghost', 'Less', 'Atom', 'Realm', 'Beats', 'Karma', 'Fiber', 'Sketch', 'Notion'],
  ...['Turbo', 'Remix', 'Argo', 'Ray', 'Kong', 'Presto', 'Helm', 'Vault', 'Nomad', 'Consul', 'Packer', 'Harbor', 'Make'],
  ...['Apex', 'Crystal', 'Racket', 'Quasar', 'Phoenix', 'Meteor', 'Mocha', 'Jasmine', 'Cucumber', 'Composer', 'Poetry'],
  ...['Sanity', 'Reflex', 'Pug', 'Ionic', 'Elm', 'Rails', 'Mercurial', 'Railway', 'Teleport', 'Gardener', 'Harvester'],
  ...['Salt', 'Spark', 'Hive', 'Iceberg', 'Druid'],
]);

/** Short names the word rules would want context for that are not words of prose (ours): they count as written, case and all. */
const AS_WRITTEN = new Set(['AWS', 'GCP', 'EKS', 'GKE', 'AKS', 'dbt', 'SQL', 'CSS', 'HTML']);

/** Other spellings that name the same technology (ours): name → aliases. */
const ALIASES = {
  Go: ['Golang'],
  Rust: ['Rustlang'],
  Spring: ['Spring Framework'],
  'Salt Project': ['SaltStack', 'Salt'],
  'GNU Make': ['Make', 'Makefile', 'Makefiles'],
  'Apache Kafka': ['Kafka'],
  'Apache Spark': ['Spark', 'PySpark'],
  'Apache Airflow': ['Airflow'],
  'Apache Flink': ['Flink'],
  'Apache Hive': ['Hive'],
  'Apache NiFi': ['NiFi'],
  'Apache Pulsar': ['Pulsar'],
  'Apache Druid': ['Druid'],
  'Apache HBase': ['HBase'],
  'Apache Cassandra': ['Cassandra'],
  'Apache ZooKeeper': ['ZooKeeper'],
  'Apache ActiveMQ': ['ActiveMQ'],
  'Apache Iceberg': ['Iceberg'],
  'Apache Superset': ['Superset'],
  'Apache Tomcat': ['Tomcat'],
  'Apache Hadoop': ['Hadoop'],
  Kubernetes: ['K8s'],
  PostgreSQL: ['Postgres'],
  'Google BigQuery': ['BigQuery'],
  'Amazon Redshift': ['Redshift'],
  'Amazon DynamoDB': ['DynamoDB'],
  'Amazon Kinesis': ['Kinesis'],
  'Amazon EKS': ['EKS'],
  'Amazon ECS': ['ECS'],
  'Amazon EC2': ['EC2'],
  'Amazon CloudFormation': ['CloudFormation'],
  'Google Kubernetes Engine': ['GKE'],
  'Azure Kubernetes Service': ['AKS'],
  'Red Hat OpenShift': ['OpenShift'],
  'Microsoft SQL Server': ['SQL Server', 'MSSQL'],
  'Microsoft Azure': ['Azure'],
  'Argo CD': ['ArgoCD'],
  'Visual Studio Code': ['VS Code', 'VSCode'],
  'Amazon Web Services': ['AWS'],
  'Google Cloud': ['GCP', 'Google Cloud Platform'],
  'Hugging Face': ['HuggingFace'],
  'Power BI': ['PowerBI'],
  'C#': ['CSharp'],
  'C++': ['Cpp'],
  'Ruby on Rails': ['Rails'],
  HTML5: ['HTML'],
};

const words = new Set(
  readFileSync(args.words ?? '/usr/share/dict/american-english', 'utf8')
    .split('\n')
    .filter((w) => w && w === w.toLowerCase()),
);
const WORD = /\.?[\p{L}\p{N}](?:[\p{L}\p{N}+#]|[.\-'](?=[\p{L}\p{N}]))*/gu;

/** How a name must appear: any case (distinctive), as written (plain words), with context (one plain word or ≤ 3 letters), or strictly in context. */
function matchOf(name) {
  if (STRICT.has(name)) return 'strict';
  if (AS_WRITTEN.has(name)) return 'exact';
  const ws = name.match(WORD) ?? [];
  const distinctive =
    /[^\p{L}\s'-]/u.test(name) || /\p{Ll}\p{Lu}/u.test(name) || ws.some((w) => w.length > 3 && w === w.toUpperCase() && /\p{L}/u.test(w));
  if (distinctive) return 'any';
  if (ws.length === 1 && (name.length <= 3 || words.has(ws[0].toLowerCase()))) return 'context';
  if (ws.length > 1 && ws.every((w) => words.has(w.toLowerCase()))) return 'exact';
  return 'any';
}

/** An entry as written in the file: `match` only when not "any", aliases with their own marks. */
function entry(name, categories, from) {
  const e = { name, categories };
  const match = matchOf(name);
  if (match !== 'any') e.match = match;
  const aliases = (ALIASES[name] ?? []).filter((a) => key(a) !== key(name));
  if (aliases.length) e.aliases = aliases.map((a) => (matchOf(a) === 'any' ? { name: a } : { name: a, match: matchOf(a) }));
  if (from) e.from = from;
  return e;
}

// ---- Merge. ----
const current = JSON.parse(readFileSync(OUT, 'utf8'));
const kept = current.technologies.filter((t) => !t.from);
const taken = new Map(kept.map((t) => [key(t.name), t]));
const added = [];
const left = { skipped: 0, unnamed: [] };

function add(name, categories, from) {
  if (taken.has(key(name))) return false;
  const e = entry(name, categories, from);
  taken.set(key(name), e);
  added.push(e);
  return true;
}

const devicon = JSON.parse(readFileSync(args.devicon, 'utf8'));
const simpleIcons = JSON.parse(readFileSync(args['simple-icons'], 'utf8'));
const icons = Array.isArray(simpleIcons) ? simpleIcons : simpleIcons.icons;
const titleOf = new Map(icons.map((i) => [key(i.title), i.title]));

for (const d of devicon) {
  if (DEVICON_SKIP.has(d.name)) {
    left.skipped++;
    continue;
  }
  const name = DEVICON_NAMES[d.name] ?? [d.name, ...d.altnames].map((n) => titleOf.get(key(n))).find(Boolean);
  if (!name) {
    left.unnamed.push(d.name);
    continue;
  }
  // A devicon slug that names a technology already there under another spelling ("dot-net" is ".NET").
  if ([d.name, ...d.altnames].some((n) => taken.has(key(n)))) continue;
  add(name, deviconCategories(d), 'devicon');
}
const missing = [];
for (const [title, categories] of Object.entries(SIMPLE_ICONS)) {
  if (!titleOf.has(key(title))) missing.push(title);
  else add(title, categories, 'simple-icons');
}
for (const [name, categories] of Object.entries(OURS)) add(name, categories, 'ours');

// Kept (Wappalyzer) entries get the marks and aliases of the rules above too, so the rules hold for the whole dictionary.
for (const t of kept) {
  const marked = entry(t.name, t.categories);
  if (STRICT.has(t.name)) t.match = 'strict';
  if (marked.aliases) t.aliases = marked.aliases;
}

// In the order of the lower-cased names' code units, the Wappalyzer part's own order.
const order = (t) => t.name.toLowerCase();
const technologies = [...kept, ...added].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
const file = {
  origin:
    'Wappalyzer technology list (github.com/AliasIO/wappalyzer @ c31c29231c7007db4ff27875a13b424174266c7f, src/technologies/*.json and src/categories.json), MIT licence, Copyright 2008 Wappalyzer; names, categories, descriptions kept; detection patterns dropped; some categories left out. ' +
    `Entries "from": "devicon": devicon ${versionOf(args.devicon, '.')} (npm, devicon.json, MIT, Copyright 2015 konpa), names chosen by it, categories ours from its tags. ` +
    `Entries "from": "simple-icons": names from simple-icons ${versionOf(args['simple-icons'], '..')} (npm, data/simple-icons.json, CC0 1.0). ` +
    'Entries "from": "ours": well-known names neither list has. ' +
    'The match field, aliases and categories of added entries are ours (scripts/technologies.mjs; docs/companies.md, Technographics)',
  technologies,
};
const text = await prettier.format(JSON.stringify(file), { ...(await prettier.resolveConfig(OUT)), parser: 'json' });
const unchanged = readFileSync(OUT, 'utf8') === text;
console.error(
  `kept ${kept.length}, added ${added.length} (devicon ${added.filter((a) => a.from === 'devicon').length}, simple-icons ${added.filter((a) => a.from === 'simple-icons').length}, ours ${added.filter((a) => a.from === 'ours').length}); ` +
    `devicon left out ${left.skipped}, without a display name ${left.unnamed.length} (${left.unnamed.join(' ')}); simple-icons titles not found: ${missing.join(', ') || 'none'}`,
);
if (args.check) process.exit(unchanged ? 0 : 1);
if (!unchanged) writeFileSync(OUT, text);

/** The version in the package.json `up` from a list file, as the npm package that shipped it says. */
function versionOf(file, up) {
  return JSON.parse(readFileSync(join(dirname(file), up, 'package.json'), 'utf8')).version;
}
