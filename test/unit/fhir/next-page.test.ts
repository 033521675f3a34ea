/**
 * The one next-page builder (libs/http fhir-reply.ts `nextPageUrl`, issue 32 item 1) with the REST
 * v1 listings' cursor name: the same link the four copies it replaced built (patients, appointments,
 * audit, vitals: the query as given, undefined dropped, `cursor` replaced and last).
 */
import { describe, expect, it } from 'vitest';
import { nextPageUrl } from '@vitalis/http';

/** What each REST listing built inline before (patients/routes.ts, as it stood). */
function copiedBuilder(url: string, q: Record<string, unknown>, next: string): string {
  const given = Object.entries(q).filter(([k, v]) => k !== 'cursor' && v !== undefined);
  const params = new URLSearchParams(given.map(([k, v]) => [k, String(v)] as [string, string]));
  params.set('cursor', next);
  return `${url}?${params}`;
}

describe('nextPageUrl with the REST cursor name', () => {
  it('keeps the query as given, drops undefined, replaces the cursor and puts it last', () => {
    const q = { cursor: 'old', name: 'Ada Lovelace', birthdate: undefined, limit: 20, status: 'free' };
    const url = nextPageUrl('http://x/api/v1/patients', q, 'new', 'cursor');
    expect(url).toBe('http://x/api/v1/patients?name=Ada+Lovelace&limit=20&status=free&cursor=new');
    expect(url).toBe(copiedBuilder('http://x/api/v1/patients', q, 'new'));
  });

  it('leaves a parameter named like the other convention alone', () => {
    const url = new URL(nextPageUrl('http://x/api/v1/audit', { _cursor: 'kept', limit: 5 }, 'next', 'cursor'));
    expect([...url.searchParams]).toEqual([
      ['_cursor', 'kept'],
      ['limit', '5'],
      ['cursor', 'next'],
    ]);
  });
});
