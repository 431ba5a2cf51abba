import type { Command } from 'commander';
import { unitsToCredits } from '../../billing/units.ts';
import { CliError, withServices } from '../context.ts';
import { credits, iso, positiveId } from '../arguments.ts';

/** `leadbase credits …` and `leadbase usage`: a key's credits and ledger. */
export function registerCredits(creditsCmd: Command): void {
  creditsCmd
    .command('grant')
    .description('Add credits to a key (recorded in its ledger)')
    .argument('<key-id>', 'key id', positiveId)
    .argument('<credits>', 'credits to add (up to 3 decimals)', credits)
    .option('--note <text>', 'why, for the ledger')
    .action(async (keyId: number, units: number, opts: { note?: string }) =>
      withServices(async (services) => {
        if (units <= 0) throw new CliError('grant a positive amount');
        if (!(await services.keys.get(keyId))) throw new CliError(`no key with id ${keyId}`);
        const balance = await services.billing.grant(keyId, units, opts.note ?? null);
        console.log(`granted ${unitsToCredits(units)} credits to key ${keyId}; balance ${unitsToCredits(balance)}`);
      }),
    );
  creditsCmd
    .command('balance')
    .description("Show a key's balance")
    .argument('<key-id>', 'key id', positiveId)
    .action(async (keyId: number) =>
      withServices(async (services) => {
        const key = await services.keys.get(keyId);
        if (!key) throw new CliError(`no key with id ${keyId}`);
        console.log(unitsToCredits(key.balance));
      }),
    );
}

/** `leadbase usage KEY_ID`. */
export function registerUsage(usage: Command): void {
  usage
    .argument('<key-id>', 'key id', positiveId)
    .option('-l, --limit <n>', 'how many rows', (v) => positiveId(v), 50)
    .option('--json', 'print JSON')
    .action(async (keyId: number, opts: { limit: number; json?: boolean }) =>
      withServices(async (services) => {
        const key = await services.keys.get(keyId);
        if (!key) throw new CliError(`no key with id ${keyId}`);
        const rows = (await services.billing.usage(keyId, opts.limit)).map((r) => ({
          time: iso(r.created_at),
          kind: r.kind,
          credits: unitsToCredits(r.kind === 'grant' ? r.amount : -r.amount),
          operation: r.operation ?? '',
          request_id: r.request_id ?? '',
          note: r.note ?? '',
        }));
        if (opts.json) return console.log(JSON.stringify({ key_id: keyId, balance: unitsToCredits(key.balance), entries: rows }));
        console.log(`key ${keyId} "${key.name}": balance ${unitsToCredits(key.balance)} credits`);
        if (rows.length) console.table(rows);
      }),
    );
}
