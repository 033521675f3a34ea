/**
 * Searching the Groups of patients to export (the table export_groups, migration 0019: a ward or a
 * cohort an operator keeps with `npm run admin -- export-group`), for FHIR Group read and search.
 * Beside jobs.ts's groupMembers (what a Group-level export covers) and saveGroup, over the same rows.
 */
import type { Queryable } from '@vitalis/db';

/** A Group as stored: its id, name and members (patient ids), as FHIR Group read and search show it. */
export interface StoredGroup {
  id: string;
  name: string;
  members: string[];
}

/** What a Group search asks: any of `ids`, a case-insensitive substring of the name, members within `within` (every member one of them), after `after` by id. */
export interface GroupQuery {
  ids?: string[] | undefined;
  name?: string | undefined;
  within?: string[] | undefined;
  after?: string | undefined;
  limit: number;
}

/** The Groups a search matches, by id, one page (`limit`) and whether more follow. */
export async function searchGroups(db: Queryable, q: GroupQuery): Promise<{ groups: StoredGroup[]; more: boolean }> {
  const pattern = q.name === undefined ? null : `%${q.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await db.query<StoredGroup>(
    `SELECT id, name, members FROM export_groups
      WHERE ($1::text[] IS NULL OR id = ANY($1)) AND ($2::text IS NULL OR name ILIKE $2)
        AND ($3::text[] IS NULL OR members <@ $3) AND ($4::text IS NULL OR id > $4)
      ORDER BY id LIMIT $5`,
    [q.ids ?? null, pattern, q.within ?? null, q.after ?? null, q.limit + 1],
  );
  return { groups: rows.slice(0, q.limit), more: rows.length > q.limit };
}
