// A product bulk job's callback (docs/bulk.md, "Callback"): when the job ends (done, failed or
// cancelled) its figures are POSTed to the URL given on submit, signed with the key's secret and
// retried, through the same sender as the validation lists' completion webhook (net/webhooks.ts).
import type { BulkJobView } from './types.ts';

/** Queues one signed delivery of `payload` to `url` for the key (WebhookSender.announce). */
export type Announce = (keyId: number, url: string | null, payload: object) => Promise<void>;

/** The callback's body: the job as GET /bulk/{id} shows it, the event, and where its rows are read. */
export function callbackPayload(job: BulkJobView, resultsUrl: string | null) {
  return {
    event: `bulk_job.${job.status}`,
    ...job,
    results_url: resultsUrl,
    download_url: resultsUrl ? resultsUrl.replace(/\/results$/, '/download') : null,
  };
}
