// Signed webhooks (bulk validation lists and product bulk jobs announce their end with one): a POST
// of a JSON body to the URL the client gave, signed with its key's secret (header `Leadbase-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
// "<t>.<body>">`), retried through the queue with doubling delays for about a day. The receiver is
// reached only on a public address, checked on the very address we connect to (no DNS rebinding).
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Logger } from 'pino';
import type { JobQueue } from '../queue/types.ts';
import { ipLiteralOf, isPublicAddress, publicOnlyLookup } from './ssrf.ts';

/** The queue's name predates its other users: kept so that deliveries queued before an upgrade still go. */
export const WEBHOOK_QUEUE = 'email-bulk-webhook';
export const SIGNATURE_HEADER = 'leadbase-signature';
/** Deliveries in all: with the first retry after 10 s and each delay doubled, the last is about 23 h after the first. */
const DELIVERY_ATTEMPTS = 14;
const FIRST_RETRY_MS = 10_000;
const TIMEOUT_MS = 10_000;

export interface Delivery {
  keyId: number;
  url: string;
  body: string;
}

/**
 * Refuses a webhook URL a client may not give: not http(s), with credentials, or too long. The
 * address is checked at delivery. `field` names it in the message (webhook_url, callback).
 */
export function webhookUrlProblem(url: string, field = 'webhook_url'): string | null {
  if (url.length > 2048) return `${field} is longer than 2048 characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${field} is not a URL`;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return `${field} must be an http or https URL`;
  if (parsed.username || parsed.password) return `${field} must not carry credentials`;
  return null;
}

/** `t=…,v1=…` for a body sent at `seconds`. */
export function signWebhook(secret: string, body: string, seconds: number): string {
  return `t=${seconds},v1=${createHmac('sha256', secret).update(`${seconds}.${body}`).digest('hex')}`;
}

export interface WebhookSenderOptions {
  queue: JobQueue;
  logger?: Logger;
  /** The key's signing secret (made on first use). */
  secretOf: (keyId: number) => Promise<string>;
  /** TEST ONLY: deliver to loopback and private addresses. */
  allowPrivate?: boolean;
}

export class WebhookSender {
  constructor(private readonly options: WebhookSenderOptions) {}

  async startWorker(): Promise<void> {
    await this.options.queue.work<Delivery>(WEBHOOK_QUEUE, (job) => this.deliver(job.data), { concurrency: 4 });
  }

  /** Queues a delivery of `payload` (as JSON) to `url`, signed with the key's secret; nothing without a URL. */
  async announce(keyId: number, url: string | null, payload: object): Promise<void> {
    if (!url) return;
    await this.options.queue.send<Delivery>(
      WEBHOOK_QUEUE,
      { keyId, url, body: JSON.stringify(payload) },
      { maxAttempts: DELIVERY_ATTEMPTS, retryDelayMs: FIRST_RETRY_MS },
    );
  }

  /** One delivery attempt; a throw (refused address, no answer, a non-2xx answer) is retried by the queue. */
  async deliver(delivery: Delivery): Promise<void> {
    const secret = await this.options.secretOf(delivery.keyId);
    const signature = signWebhook(secret, delivery.body, Math.floor(Date.now() / 1000));
    const url = new URL(delivery.url);
    // An IP literal is not looked up (publicOnlyLookup never sees it): checked here, before connecting.
    const literal = ipLiteralOf(url.hostname);
    if (!this.options.allowPrivate && literal && !isPublicAddress(literal)) throw new Error(`webhook address ${literal} is not public`);
    const status = await new Promise<number>((resolve, reject) => {
      const request = (url.protocol === 'https:' ? https : http).request(
        url,
        {
          method: 'POST',
          lookup: this.options.allowPrivate ? undefined : publicOnlyLookup,
          timeout: TIMEOUT_MS,
          headers: { 'content-type': 'application/json', 'user-agent': 'leadbase-webhooks', [SIGNATURE_HEADER]: signature },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
      request.on('error', reject);
      request.end(delivery.body);
    });
    if (status < 200 || status >= 300) throw new Error(`webhook answered ${status}`);
    this.options.logger?.info({ url: url.origin, status }, 'webhook delivered');
  }
}
