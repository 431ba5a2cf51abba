import { Command, CommanderError } from 'commander';
import { registerServe } from './commands/serve.ts';
import { registerMigrate } from './commands/migrate.ts';
import { registerKeys } from './commands/keys.ts';
import { registerCredits } from './commands/credits.ts';
import { registerWorker } from './commands/worker.ts';
import { registerMcp } from './commands/mcp.ts';

// Every command group lives in its own file and loads its heavy modules (the server, the storage,
// the importers) only when it runs, so `leadbase --help` and the key commands start fast.

/**
 * The importers are registered only when the command line asks for them (`leadbase import …`,
 * `leadbase help import`): their modules are the heaviest of the CLI.
 */
async function registerImport(program: Command, argv: string[]): Promise<void> {
  const importCommand = program.command('import').description('Import data from files and connectors (leadbase import --help lists them)');
  const words = argv.slice(2);
  const at = words.indexOf('import');
  if (at === -1) return;
  const importers = {
    companies: async () => (await import('./import-companies.ts')).registerImportCompanies(importCommand),
    jobs: async () => (await import('./import-jobs.ts')).registerImportJobs(importCommand),
    people: async () => (await import('./import-people.ts')).registerImportPeople(importCommand),
    engagement: async () => (await import('./import-engagement.ts')).registerImportEngagement(importCommand),
  };
  // `leadbase import companies …` loads the companies importer only; `leadbase import --help` all of them.
  const named = importers[words[at + 1] as keyof typeof importers];
  if (named) return named();
  for (const register of Object.values(importers)) await register();
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
  registerServe(program);
  registerMigrate(program);
  registerKeys(program);
  registerCredits(program);
  (await import('./validate.ts')).registerValidate(program);
  (await import('./sources.ts')).registerSources(program);
  (await import('./discover.ts')).registerDiscover(program);
  (await import('./bootstrap.ts')).registerBootstrap(program);
  (await import('./jobs-terms.ts')).registerJobs(program);
  registerWorker(program);
  registerMcp(program);
  await registerImport(program, argv);
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
