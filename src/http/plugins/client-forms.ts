import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { contractForm } from '../../operations/client-forms.ts';
import { isOperationId } from '../../operations/catalogue.ts';

/** Request bodies in the forms LeadMagic's clients send are read in our contract's form before validation (src/operations/client-forms.ts). */
async function clientFormsPlugin(app: FastifyInstance): Promise<void> {
  app.addHook('preValidation', (request, _reply, done) => {
    const operation = request.routeOptions.config.operation;
    if (!operation || request.body === undefined || !isOperationId(operation)) return done();
    const schema = request.routeOptions.schema?.body as { properties?: Record<string, object> } | undefined;
    try {
      request.body = contractForm(operation, request.body, schema);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}

export default fp(clientFormsPlugin, { name: 'client-forms', dependencies: ['errors'] });
