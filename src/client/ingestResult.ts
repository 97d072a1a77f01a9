/**
 * What a load reports: its own module, so that the core's errors (BulkJobError's \`partial\`) can name it without
 * the core depending on the Bulk API group.
 */
export type IngestResultKind = "successful" | "failed" | "unprocessed";

export interface IngestResult {
  /** How the rows went: Bulk jobs, or sObject Collections requests for a small load. */
  via: "bulk" | "collections";
  /** One job per upload, in order (none through Collections). */
  jobIds: string[];
  /** Rows sent. */
  rows: number;
  /** Rows the org processed (successful and failed). */
  processed: number;
  successful: number;
  failed: number;
  /** Rows the org never processed (a job aborted or failed). */
  unprocessed: number;
  /** The result files written (with `resultFiles`). */
  files?: { successful: string; failed: string; unprocessed?: string };
}
