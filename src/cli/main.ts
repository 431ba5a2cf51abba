import { Command, CommanderError } from 'commander';

// `leadbase` starts in a few times the cost of a bare `node`: the root help needs only each
// command's name and description, which are here. A command's own module (its options, its
// subcommands) is loaded only when the command line names it, and that module loads its heavy
// modules (the server, the services, the importers) only in the action that needs them.
// test/cli/startup.test.ts checks what `--help`, `status` and `keys list` load; bench/cli.bench.ts
// measures them.

/** Fills in a top-level command; `rest` is the command line's words after the command's name. */
type Loader = (command: Command, rest: string[]) => void | Promise<void>;

const COMMANDS: { name: string; description: string; load: Loader }[] = [
  {
    name: 'serve',
    description: 'Serve the API (PORT, HOST, DATABASE_URL, REDIS_URL from the environment)',
    load: async (command) => (await import('./commands/serve.ts')).registerServe(command),
  },
  {
    name: 'migrate',
    description: 'Apply pending database migrations and exit',
    load: async (command) => (await import('./commands/migrate.ts')).registerMigrate(command),
  },
  {
    name: 'keys',
    description: 'Create, list and revoke API keys',
    load: async (command, rest) => (await import('./commands/keys.ts')).registerKeys(command, rest),
  },
  {
    name: 'credits',
    description: "Manage a key's credits",
    load: async (command) => (await import('./commands/credits.ts')).registerCredits(command),
  },
  {
    name: 'usage',
    description: "A key's ledger (grants and charges), newest first, and its balance",
    load: async (command) => (await import('./commands/credits.ts')).registerUsage(command),
  },
  {
    name: 'validate',
    description:
      'Validate the addresses of a CSV list (a header row with an "email" column; every other column is kept). ' +
      'Rows are written to --out as they are answered, with their row number; run the same command again to resume.',
    load: async (command) => (await import('./validate.ts')).registerValidate(command),
  },
  {
    name: 'sources',
    description: 'Register job boards, feeds and data sets to fetch on a schedule (see docs/sources.md)',
    load: async (command) => (await import('./sources.ts')).registerSources(command),
  },
  {
    name: 'discover',
    description: "Find companies' job boards on their sites (ATS links, JobPosting data) and register them as sources",
    load: async (command) => (await import('./discover.ts')).registerDiscover(command),
  },
  {
    name: 'bootstrap',
    description:
      'Fill the stores from open data in one run: one source of every data set, the starter job boards, and discovery on the ' +
      "companies' sites; each stays registered on its schedule. Interrupt it (Ctrl-C) and run it again to resume.",
    load: async (command) => (await import('./bootstrap.ts')).registerBootstrap(command),
  },
  {
    name: 'status',
    description:
      "What the stores hold, the sources by type and state, the queue's depth, the database's size and the email prober's outbound identities",
    load: async (command) => (await import('./commands/status.ts')).registerStatus(command),
  },
  {
    name: 'jobs',
    description: 'The jobs search index: counted description terms (PostgreSQL)',
    load: async (command) => (await import('./jobs-terms.ts')).registerJobs(command),
  },
  {
    name: 'worker',
    description: 'Run background work (bulk validation jobs, webhooks, scheduled crawls) without serving HTTP; stop with SIGTERM',
    load: async (command) => (await import('./commands/worker.ts')).registerWorker(command),
  },
  {
    name: 'mcp',
    description:
      'Serve leadbase as MCP tools on stdin/stdout (for Claude Desktop, Cursor…): tool calls go to LEADBASE_URL with LEADBASE_API_KEY',
    load: async (command) => (await import('./commands/mcp.ts')).registerMcp(command),
  },
  {
    name: 'import',
    description: 'Import data from files and connectors (leadbase import --help lists them)',
    load: registerImport,
  },
];

/** The importers' modules are the heaviest of the CLI: `leadbase import companies …` loads the companies importer only. */
async function registerImport(importCommand: Command, rest: string[]): Promise<void> {
  const importers = {
    companies: async () => (await import('./import-companies.ts')).registerImportCompanies(importCommand),
    jobs: async () => (await import('./import-jobs.ts')).registerImportJobs(importCommand),
    people: async () => (await import('./import-people.ts')).registerImportPeople(importCommand),
    engagement: async () => (await import('./import-engagement.ts')).registerImportEngagement(importCommand),
  };
  const named = importers[rest[0] as keyof typeof importers];
  if (named) return named();
  for (const register of Object.values(importers)) await register();
}

/** The command line's words that are not options, `help` left out (`leadbase help keys list` is `leadbase keys list --help`). */
function commandWords(argv: string[]): string[] {
  const words = argv.slice(2).filter((word) => !word.startsWith('-'));
  return words[0] === 'help' ? words.slice(1) : words;
}

export async function buildProgram(argv: string[] = process.argv): Promise<Command> {
  const program = new Command();
  program
    .name('leadbase')
    .description(
      'Self-hostable prepaid-credit data API for B2B sales prospecting.\nStorage comes from DATABASE_URL (default sqlite:./data/leadbase.sqlite); every command migrates it when needed.',
    )
    .showHelpAfterError()
    .configureHelp({ sortSubcommands: false });
  const [named, ...rest] = commandWords(argv);
  for (const { name, description, load } of COMMANDS) {
    const command = program.command(name).description(description);
    if (name === named) await load(command, rest);
  }
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = await buildProgram(argv);
  program.exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode;
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    console.error(`leadbase: ${message}`);
    process.exitCode = 1;
  }
}
