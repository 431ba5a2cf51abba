import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { InsufficientCreditsError } from '../../billing/errors.ts';
import { unitsToCredits } from '../../billing/units.ts';
import { LeaseLostError } from '../../billing/idempotency.ts';
import { replayableHeaders } from './idempotency.ts';

export interface BillingOptions {
  onCharged?: (operation: string, units: number) => void;
}

async function billingPlugin(app: FastifyInstance, options: BillingOptions): Promise<void> {
  // Pay before work: after validation and idempotency (a replay is free), before the handler runs an engine.
  app.addHook('preHandler', (request, _reply, done) => {
    const minimum = request.routeOptions.config.minimumCharge;
    const key = request.apiKey;
    if (!minimum || !key) return done();
    app.services.billing.balance(key.id).then((balance) => {
      if (balance >= minimum) return done();
      done(new InsufficientCreditsError(minimum, balance, true));
    }, done);
  });

  app.decorateReply('settle', async function settle(this: FastifyReply, cost: number, body: object): Promise<FastifyReply> {
    const request = this.request;
    const key = request.apiKey;
    const operation = request.routeOptions.config.operation ?? request.routeOptions.url ?? 'unknown';
    if (!key) throw new Error('settle() called on a route without authentication');
    if (!Number.isSafeInteger(cost) || cost < 0) throw new Error(`invalid cost ${cost}`);

    // Serialize with the route's response schema once: what is stored for replay is byte for byte what is sent.
    const payload = String(this.serialize({ ...body, credits_consumed: unitsToCredits(cost) }));
    this.type('application/json; charset=utf-8');
    this.header('X-Credits-Cost', String(unitsToCredits(cost)));

    const idem = request.idempotency;
    let balance: number;
    try {
      balance = await app.services.billing.settle({
        keyId: key.id,
        operation,
        cost,
        requestId: request.id,
        idempotency: idem
          ? {
              idemKey: idem.idemKey,
              owner: idem.owner,
              render: (after) => {
                this.header('X-Credits-Remaining', String(unitsToCredits(after)));
                return { statusCode: 200, headers: replayableHeaders(this.getHeaders()), body: payload };
              },
            }
          : undefined,
      });
    } catch (error) {
      // Nothing was charged: the answer is an error (mapped by domainErrorToHttp), not this result.
      this.removeHeader('X-Credits-Cost');
      // A retry that took the Idempotency-Key over (LeaseLostError) stores its own answer.
      if (idem && error instanceof LeaseLostError) idem.stored = true;
      throw error;
    }
    if (idem) idem.stored = true;
    if (cost > 0) options.onCharged?.(operation, cost);
    this.header('X-Credits-Remaining', String(unitsToCredits(balance)));
    return this.status(200).send(payload);
  });
}

export default fp(billingPlugin, { name: 'billing', dependencies: ['auth'] });
