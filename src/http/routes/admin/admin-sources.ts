// The operators' API for the sources registry (docs/sources.md): under /admin, with the
// ADMIN_TOKEN as a bearer token or the operator's console session, never an API key. Without
// ADMIN_TOKEN the admin API is off (404).
import type { FastifyInstance } from 'fastify';
import { adminRoute } from '../../../contract/admin.ts';
import { AppError, InvalidRequestError } from '../../../operations/errors.ts';
import { requireOperator } from '../../admin-access.ts';
import { SourceInputError, viewOf, type SourceInput } from '../../../sources/registry.ts';

function idOf(params: unknown): number {
  const id = Number((params as { id?: string }).id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new InvalidRequestError('The source id must be a positive whole number.');
  return id;
}

function asInput(value: unknown, where: string): SourceInput {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new InvalidRequestError(`${where} must be a JSON object.`);
  return value as SourceInput;
}

export default async function adminSourcesRoutes(app: FastifyInstance): Promise<void> {
  const registry = () => app.services.sources.registry;
  const found = async (id: number) => {
    const row = await registry().get(id);
    if (!row) throw new AppError(404, 'not_found', `No source with id ${id}.`);
    return row;
  };

  app.register(async (admin) => {
    // The caller is known (plugins/admin.ts); only the operator manages sources.
    admin.addHook('onRequest', async (request) => requireOperator(request.adminCaller!));

    admin.get('/admin/sources', adminRoute('adminListSources'), async (request) => {
      const query = request.query as { status?: string; type?: string };
      if (query.status && !['active', 'paused', 'held'].includes(query.status))
        throw new InvalidRequestError('status must be active, paused or held.');
      const now = Date.now();
      const rows = await registry().list({ status: query.status as 'active' | undefined, type: query.type });
      return { sources: rows.map((row) => viewOf(row, now)) };
    });

    // One source (201 when new, 200 when it was registered already), or {"sources": [...]} for many.
    admin.post('/admin/sources', adminRoute('adminAddSources'), async (request, reply) => {
      const body = request.body as Record<string, unknown> | undefined;
      if (body && Array.isArray(body.sources)) {
        if (body.sources.length > 10_000) throw new InvalidRequestError('At most 10,000 sources per request.');
        const entries = body.sources.map((value, i) =>
          value && typeof value === 'object' && !Array.isArray(value)
            ? { line: i + 1, input: value as SourceInput }
            : { line: i + 1, error: 'not a JSON object' },
        );
        return registry().addMany(entries);
      }
      try {
        const { source, created, updated } = await registry().add(asInput(body, 'The body'));
        reply.status(created ? 201 : 200);
        return { ...viewOf(source), created, updated };
      } catch (error) {
        if (error instanceof SourceInputError) throw new InvalidRequestError(error.message);
        throw error;
      }
    });

    admin.get('/admin/sources/:id', adminRoute('adminGetSource'), async (request) => {
      const id = idOf(request.params);
      const view = viewOf(await found(id));
      const runs = await registry().history(id, 50);
      return { ...view, runs };
    });

    admin.delete('/admin/sources/:id', adminRoute('adminRemoveSource'), async (request) => {
      const id = idOf(request.params);
      await found(id);
      await registry().remove(id);
      return { id, removed: true };
    });

    admin.post('/admin/sources/:id/pause', adminRoute('adminPauseSource'), async (request) => {
      const id = idOf(request.params);
      await found(id);
      return viewOf((await registry().pause(id))!);
    });

    admin.post('/admin/sources/:id/resume', adminRoute('adminResumeSource'), async (request) => {
      const id = idOf(request.params);
      await found(id);
      return viewOf((await registry().resume(id))!);
    });

    // Runs the source now and answers with what the run did (409 while another instance runs it).
    admin.post('/admin/sources/:id/run', adminRoute('adminRunSource'), async (request) => {
      const id = idOf(request.params);
      await found(id);
      const query = request.query as { allow_mass_expiry?: string };
      const result = await app.services.sources.scheduler.runNow(id, { allowMassExpiry: query.allow_mass_expiry === 'true' });
      if (!result) throw new AppError(409, 'source_busy', `Source ${id} is being run by another instance right now.`);
      return { source: id, ...result };
    });
  });
}
