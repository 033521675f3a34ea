/**
 * Where a live vitals subscription starts (`startVitalsStream`): the resume id checked against the
 * log and bounded to LIVE_REPLAY_WINDOW_SECONDS (resume.ts), and each replay audited.
 */
import { must } from '@vitalis/runtime';
import type { Pool } from '@vitalis/db';
import { badRequest } from '@vitalis/http';
import { decodeCursor as decodeLiveId, type Cursor as LivePosition } from '@vitalis/live';
import type { GatewayDeps } from '../deps';
import type { ReplaySummary } from './hub';
import { planResume, UnissuedPosition, type ReplayTruncated } from './resume';
import { type Caller } from '../access/caller';
import { dataSourceOf } from '../access/sandbox';
import { planSyntheticResume } from './synthetic-live';
import { type VitalsChannel, assertMayAccessVitals, requireVitalsAccess, auditVitals } from './access';

// ---------------------------------------------------------------------------------------------
// Live streams

/** What the stream functions need: the pool, the topic the live streams serve, the replay window. */
export interface LiveStreamDeps {
  pool: Pool;
  topic: string;
  replayWindowSeconds: number;
}

export const liveStreamDeps = (deps: GatewayDeps): LiveStreamDeps => ({
  pool: deps.pool,
  topic: deps.config.LIVE_TOPIC,
  replayWindowSeconds: deps.config.LIVE_REPLAY_WINDOW_SECONDS,
});

export interface StreamRequest {
  patients: string[];
  codes?: string[] | undefined;
  /** The client's resume id (Last-Event-ID, `last_event_id`, a WebSocket `after`). */
  resumeId?: string | undefined;
}

/** What the hub subscription starts from (the hub's SubscribeOptions `after`, `notice`, `onReplayed`). */
export interface StreamStart {
  /** Resume after this position; absent = from now. */
  after?: LivePosition;
  /** The client's id was older than the replay window: told first, with the gaps to read through REST. */
  notice?: ReplayTruncated;
  /** The replay's audit (one `vitals.replay` row per patient), written before the subscription goes live. */
  onReplayed?: (summary: ReplaySummary) => Promise<void>;
}

/** A resume id as the position it names; 400 when it is not an id this stream could have issued. */
export function parseResumeId(id: string | undefined): LivePosition | undefined {
  if (id === undefined || id === '') return undefined;
  const cursor = decodeLiveId(id);
  if (!cursor) throw badRequest('Last-Event-ID is not an id this stream issued (expected e.g. "3-1042" or "3-1042.1_7-88").');
  return cursor;
}

/**
 * Where a resumed stream starts (throws UnissuedPosition), and the audit of its replay. The plan is
 * the append log's (resume.ts) or, for synthetic sandbox patients, the generator's
 * (synthetic-live.ts): same window, same notice.
 */
async function resumeFrom(
  d: LiveStreamDeps,
  caller: Caller,
  patients: string[],
  resumeId: string,
  position: LivePosition,
  via: VitalsChannel,
): Promise<StreamStart> {
  const question = { patients, after: position, lastEventId: resumeId, windowSeconds: d.replayWindowSeconds };
  const plan =
    dataSourceOf(patients) === 'synthetic' ? planSyntheticResume(question) : await planResume(d.pool, { topic: d.topic, ...question });
  const gapped = new Set(plan.truncated?.gaps.map((g) => g.patient_id));
  const onReplayed = async (summary: ReplaySummary) => {
    await Promise.all(
      [...new Set(patients)].map((patientId) =>
        auditVitals(d.pool, caller, {
          action: 'vitals.replay',
          patientId,
          detail: {
            via,
            from_id: resumeId,
            events: summary.byPatient.get(patientId) ?? 0,
            truncated: gapped.has(patientId),
            window_seconds: d.replayWindowSeconds,
            ...(plan.truncated ? { resume_id: plan.truncated.resume_id } : {}),
          },
        }),
      ),
    );
  };
  return { after: plan.after, ...(plan.truncated ? { notice: plan.truncated } : {}), onReplayed };
}

/**
 * Everything before a live subscription opens, for SSE, WebSocket and MCP alike: the access rule
 * (audited refusal, 403), one source per subscription (synthetic `sbx-` patients and real ones
 * mixed: 400), the resume id (400 when malformed or never issued; bounded to the replay window),
 * then one `action` row per patient (default `vitals.stream`). Any of these failing
 * refuses the subscription before anything is streamed (an audit row that cannot be written: 503).
 * A resumed subscription's replay is audited too (`onReplayed`, for the hub).
 */
export async function startVitalsStream(
  d: LiveStreamDeps,
  caller: Caller,
  req: StreamRequest,
  opts: { via: VitalsChannel; action?: string; detail?: Record<string, unknown> },
): Promise<StreamStart> {
  const action = opts.action ?? 'vitals.stream';
  await requireVitalsAccess(d.pool, caller, req.patients, { action, via: opts.via });
  dataSourceOf(req.patients);
  const position = parseResumeId(req.resumeId);
  let start: StreamStart = {};
  if (position) {
    try {
      start = await resumeFrom(d, caller, req.patients, must(req.resumeId, 'the resume id the position was read from'), position, opts.via);
    } catch (err) {
      if (err instanceof UnissuedPosition) throw badRequest(err.message);
      throw err;
    }
  }
  await Promise.all(
    [...new Set(req.patients)].map((patientId) =>
      auditVitals(d.pool, caller, {
        action,
        patientId,
        detail: { via: opts.via, resume: position !== undefined, codes: req.codes ?? null, ...opts.detail },
      }),
    ),
  );
  return start;
}

/**
 * A subscription reopened on another instance (MCP session takeover) after the last event the
 * previous one sent (a server-held id): the access rule, and the same window and replay audit as a
 * client's resume. An id the log cannot place starts from now.
 */
export async function restoreVitalsStream(
  d: LiveStreamDeps,
  caller: Caller,
  patients: string[],
  resumeId: string | undefined,
  via: VitalsChannel,
): Promise<StreamStart> {
  assertMayAccessVitals(caller.principal, patients);
  const position = resumeId === undefined ? undefined : decodeLiveId(resumeId);
  if (!position) return {};
  try {
    return await resumeFrom(d, caller, patients, must(resumeId, 'the resume id the position was read from'), position, via);
  } catch (err) {
    if (err instanceof UnissuedPosition) return {};
    throw err;
  }
}
