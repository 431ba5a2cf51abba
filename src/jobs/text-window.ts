// SQLite: a description query driven by its full-text matches. Full-text rowids are keys in search
// order (remote, published minute, id; see fts-query.ts), so the date window is a rowid range FTS5
// seeks to. With no other filter, the window's whole minutes are counted by FTS5 alone and only the
// two minutes at its ends are checked row by row; other filters are checked on each match's
// job_live row (and jobs row when needed), which key order reads in order.
// Pages come in key order, which is the result order except among listings of the same minute:
// reading every listing of the page's last minute and sorting those exactly settles that.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import { ftsKeyMinute, ftsKeyMinuteSql, ftsKeyOfMinute, MAX_FTS_JOB_ID } from './fts-query.ts';

export interface TextWindowQuery {
  /** FTS5 MATCH text. */
  match: string;
  remote: number;
  lo: number;
  hi: number;
  /** Further conditions on the match's job_live row `l` (and jobs row `j` when `withJobs`). */
  conditions: RawBuilder<unknown>[];
  withJobs: boolean;
}

interface Candidate {
  job_id: number;
  published_at: number;
  minute: number;
}

export class TextWindowSearch {
  constructor(private readonly db: Db) {}

  private minutes(q: TextWindowQuery, first: number, last: number) {
    return sql`jobs_fts.rowid between ${ftsKeyOfMinute(q.remote, first, 0)} and ${ftsKeyOfMinute(q.remote, last, MAX_FTS_JOB_ID)}`;
  }

  /** Matches of whole minutes, counted in FTS5 alone. */
  private async countWhole(q: TextWindowQuery, first: number, last: number): Promise<number> {
    if (first > last) return 0;
    const r = await sql<{
      n: number;
    }>`select count(*) as n from jobs_fts where jobs_fts match ${q.match} and ${this.minutes(q, first, last)}`.execute(this.db);
    return Number(r.rows[0].n);
  }

  /** Matches of one minute at an end of the window, checked against the exact published time. */
  private async countEdge(q: TextWindowQuery, minute: number): Promise<number> {
    const r = await sql<{ n: number }>`select count(*) as n from jobs_fts cross join job_live l on l.search_key = jobs_fts.rowid
      where jobs_fts match ${q.match} and ${this.minutes(q, minute, minute)} and l.published_at between ${q.lo} and ${q.hi}`.execute(
      this.db,
    );
    return Number(r.rows[0].n);
  }

  private from(q: TextWindowQuery) {
    return sql`jobs_fts cross join job_live l on l.search_key = jobs_fts.rowid${q.withJobs ? sql` cross join jobs j on j.id = l.job_id` : sql``}`;
  }

  private where(q: TextWindowQuery, first: number, last: number) {
    return sql.join(
      [sql`jobs_fts match ${q.match}`, this.minutes(q, first, last), sql`l.published_at between ${q.lo} and ${q.hi}`, ...q.conditions],
      sql` and `,
    );
  }

  async count(q: TextWindowQuery): Promise<number> {
    const first = ftsKeyMinute(q.lo);
    const last = ftsKeyMinute(q.hi);
    if (q.conditions.length || q.withJobs) {
      const r = await sql<{ n: number }>`select count(*) as n from ${this.from(q)} where ${this.where(q, first, last)}`.execute(this.db);
      return Number(r.rows[0].n);
    }
    if (first === last) return this.countEdge(q, first);
    return (await this.countEdge(q, first)) + (await this.countWhole(q, first + 1, last - 1)) + (await this.countEdge(q, last));
  }

  /** Newest first by (published, id): the ids at [offset, offset + limit). */
  async page(q: TextWindowQuery, offset: number, limit: number): Promise<number[]> {
    const first = ftsKeyMinute(q.lo);
    const last = ftsKeyMinute(q.hi);
    const read = (from: number, to: number, max: number | null) =>
      sql<Candidate>`select l.job_id, l.published_at, ${sql.raw(ftsKeyMinuteSql('jobs_fts.rowid'))} as minute
      from ${this.from(q)} where ${this.where(q, from, to)}
      order by jobs_fts.rowid desc${max === null ? sql`` : sql` limit ${max}`}`.execute(this.db);
    const head = (await read(first, last, offset + limit)).rows;
    const rows = head.map((r) => ({ id: Number(r.job_id), published: Number(r.published_at) }));
    if (head.length === offset + limit) {
      // Every match of the last minute read, so the set is all matches of its minutes.
      const minute = Number(head[head.length - 1].minute);
      const seen = new Set(rows.map((r) => r.id));
      for (const r of (await read(minute, minute, null)).rows)
        if (!seen.has(Number(r.job_id))) rows.push({ id: Number(r.job_id), published: Number(r.published_at) });
    }
    rows.sort((a, b) => b.published - a.published || b.id - a.id);
    return rows.slice(offset, offset + limit).map((r) => r.id);
  }
}
