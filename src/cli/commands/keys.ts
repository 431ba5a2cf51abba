import type { Command } from 'commander';
import { unitsToCredits } from '../../billing/units.ts';
import type { KeyService } from '../../keys/service.ts';
import { CliError, withDatabase } from '../context.ts';
import { credits, iso, positiveId } from '../arguments.ts';

/** The key service alone, on the migrated database: these commands need nothing else of the composition root. */
function withKeys<T>(fn: (keys: KeyService) => Promise<T>): Promise<T> {
  return withDatabase(async (handle, config) => {
    const { KeyService } = await import('../../keys/service.ts');
    return fn(new KeyService(handle.db, { authCacheTtlMs: config.authCacheTtlMs }));
  });
}

/**
 * `leadbase keys …`: create, list, revoke keys and set their limits. The endpoints' list (the
 * operations module, with every schema) is loaded only for `keys limit`, which names them.
 */
export async function registerKeys(keys: Command, rest: string[]): Promise<void> {
  const operations = rest[0] === 'limit' ? await import('../../operations/catalogue.ts') : undefined;
  keys
    .command('create')
    .description('Create a key; prints it once (only its hash is stored)')
    .requiredOption('-n, --name <name>', 'a label for the key, such as the team or customer')
    .option('-c, --credits <credits>', 'starting credits (up to 3 decimals)', credits, 0)
    .option('--json', 'print a JSON object {id, name, key, prefix, credits}')
    .action(async (opts: { name: string; credits: number; json?: boolean }) =>
      withKeys(async (service) => {
        const created = await service.create(opts.name, opts.credits);
        if (opts.json) {
          console.log(
            JSON.stringify({
              id: created.id,
              name: created.name,
              key: created.key,
              prefix: created.prefix,
              credits: unitsToCredits(created.credits),
            }),
          );
        } else {
          console.log(
            `key ${created.id} "${created.name}" with ${unitsToCredits(created.credits)} credits:\n\n  ${created.key}\n\nStore it now: it is not shown again.`,
          );
        }
      }),
    );
  keys
    .command('list')
    .description('List keys (never their secrets)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) =>
      withKeys(async (service) => {
        const rows = (await service.list()).map((k) => ({
          id: k.id,
          name: k.name,
          prefix: k.prefix,
          credits: unitsToCredits(k.balance),
          created_at: iso(k.created_at),
          revoked_at: k.revoked_at === null ? null : iso(k.revoked_at),
          rate_limits: k.rate_limits ? (JSON.parse(k.rate_limits) as Record<string, number>) : {},
        }));
        if (opts.json) return console.log(JSON.stringify(rows));
        if (rows.length === 0) return console.log('no keys yet: leadbase keys create --name NAME --credits C');
        console.table(
          rows.map((r) => ({
            ...r,
            prefix: `${r.prefix}…`,
            revoked_at: r.revoked_at ?? '',
            rate_limits: Object.entries(r.rate_limits)
              .map(([op, n]) => `${op}=${n}/min`)
              .join(' '),
          })),
        );
      }),
    );
  keys
    .command('revoke')
    .description('Revoke a key: it is refused from then on (its ledger is kept)')
    .argument('<id>', 'key id (see keys list)', positiveId)
    .option('--json', 'print a JSON object {id, revoked}')
    .action(async (id: number, opts: { json?: boolean }) =>
      withKeys(async (service) => {
        if (!(await service.revoke(id))) throw new CliError(`no active key with id ${id}`);
        console.log(opts.json ? JSON.stringify({ id, revoked: true }) : `key ${id} revoked`);
      }),
    );

  keys
    .command('webhook-secret')
    .description("Show the secret that signs the key's bulk-job webhooks (Leadbase-Signature), or replace it")
    .argument('<id>', 'key id', positiveId)
    .option('--rotate', 'replace it: webhooks are signed with the new secret from now on')
    .option('--json', 'print a JSON object {id, webhook_secret}')
    .action(async (id: number, opts: { rotate?: boolean; json?: boolean }) =>
      withKeys(async (service) => {
        const secret = await service.webhookSecret(id, { rotate: opts.rotate });
        if (secret === null) throw new CliError(`no key with id ${id}`);
        if (opts.json) return console.log(JSON.stringify({ id, webhook_secret: secret }));
        console.log(`key ${id} signs its webhooks with${opts.rotate ? ' a new secret' : ''}:\n\n  ${secret}`);
      }),
    );

  keys
    .command('limit')
    .description('Give a key its own requests-per-minute limit for one endpoint ("higher limits on request")')
    .argument('<id>', 'key id', positiveId)
    .argument('<operation>', operations ? `endpoint name: ${Object.keys(operations.RATE_LIMITS_PER_MINUTE).join(', ')}` : 'endpoint name')
    .argument('[per-minute]', 'the new limit; omit with --reset', positiveId)
    .option('--reset', 'go back to the default limit of that endpoint')
    .option('--json', 'print a JSON object {id, operation, per_minute, default}')
    .action(async (id: number, operation: string, perMinute: number | undefined, opts: { reset?: boolean; json?: boolean }) =>
      withKeys(async (service) => {
        const { isOperationId, RATE_LIMITS_PER_MINUTE } = operations ?? (await import('../../operations/catalogue.ts'));
        if (!isOperationId(operation))
          throw new CliError(`unknown endpoint "${operation}"; one of ${Object.keys(RATE_LIMITS_PER_MINUTE).join(', ')}`);
        if (!opts.reset && perMinute === undefined) throw new CliError('give a per-minute limit, or --reset');
        const limits = await service.setRateLimit(id, operation, opts.reset ? null : perMinute!);
        const effective = limits[operation] ?? RATE_LIMITS_PER_MINUTE[operation];
        if (opts.json)
          return console.log(JSON.stringify({ id, operation, per_minute: effective, default: limits[operation] === undefined }));
        console.log(`key ${id}: ${operation} limited to ${effective} requests per minute${opts.reset ? ' (default)' : ''}`);
      }),
    );
}
