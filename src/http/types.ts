import type { AuthenticatedKey } from '../keys/service.ts';
import type { Services } from '../services.ts';
import type { OperationId } from '../operations/catalogue.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route requires an X-API-Key. */
    auth?: boolean;
    /** Name used for rate limits, usage records and metrics, e.g. "email-validate". */
    operation?: OperationId | `test-${string}`;
    /**
     * Millicredits: the smallest non-zero charge the route can make. A key whose balance is below it
     * is refused 402 before any engine work (a call that would end free must not be a way to use the
     * engines on an empty key).
     */
    minimumCharge?: number;
    /** The route writes its own answer on the raw socket: the idempotency plugin leaves it alone. */
    rawAnswer?: boolean;
  }
  interface FastifyRequest {
    apiKey?: AuthenticatedKey;
    /** Set when the request carries an Idempotency-Key and owns its record. */
    idempotency?: { idemKey: string; stored: boolean; owner: string; lease?: NodeJS.Timeout };
  }
  interface FastifyReply {
    /**
     * Charges `cost` millicredits for `body` and sends it: adds credits_consumed and the
     * X-Credits-* headers; 402 insufficient_credits (nothing served) when the balance cannot cover it.
     */
    settle(cost: number, body: object): Promise<FastifyReply>;
  }
  interface FastifyInstance {
    services: Services;
    /** The operators' bearer token for /admin (ADMIN_TOKEN); undefined turns the admin API off. */
    adminToken: string | undefined;
  }
}

export {};
