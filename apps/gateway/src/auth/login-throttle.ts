/**
 * Sign-in throttling at the login form, shared by every gateway instance (Redis), in two parts
 * (OWASP ASVS V2.2.1: soft lock-outs, ever increasing delays, per-address limits; never a lock
 * anyone else can trigger):
 *
 *  - per (username, client address), an exponential back-off: after LOGIN_USER_FREE_FAILURES
 *    failures of that username from that address, each further attempt from there must wait
 *    LOGIN_USER_DELAY_SECONDS, doubling with every failure up to LOGIN_USER_MAX_DELAY_SECONDS, and
 *    the page says how long. The count lives until LOGIN_FAILURE_WINDOW_SECONDS after the latest
 *    failure; a successful sign-in clears it. Failures from one address never slow the same user
 *    down at another address (nobody can lock a user out by failing their username), and one
 *    user's failures never slow another user at the same address.
 *  - per client address, a ceiling: at most LOGIN_ADDRESS_MAX_FAILURES failed sign-ins per
 *    LOGIN_FAILURE_WINDOW_SECONDS (fixed window from the first failure), for every username
 *    together; past it the address is refused until the window ends. One address cannot guess many
 *    passwords, for one user or many; set it high enough for a ward behind one NAT (every user's
 *    typos from that address count towards it).
 *
 * The cost, and why it is acceptable: a guessing run spread over many addresses gets, per address,
 * LOGIN_USER_FREE_FAILURES guesses and then one per growing wait for each username, within the
 * address ceiling; the per-address ceiling and the back-off bound each address, not the sum.
 *
 * Atomic: one Lua script checks both gates and, when the attempt may go ahead, counts it as a
 * failure BEFORE the password is checked (on the address and on the username at that address).
 * Parallel guesses are therefore counted before any of them is checked: of 30 sent at once, at most
 * the remaining budget are checked. A correct password then gives its reservation back
 * (`succeeded`), so only failures use up an address's budget (a shared address of many honest
 * users is not throttled by their successful sign-ins, and an attacker cannot reset the count by
 * signing into an account of its own: that only returns its own reservation).
 *
 * Refusals during one throttle episode (an address's window, a username's wait) are reported as
 * `first: true` once, so the caller audits an episode with one row instead of one per request.
 * Keys: `vitalis:login:addr:<address>`, `vitalis:login:user:<sha256(lower-cased username, address)>`
 * (the typed username is never stored: people type passwords there) and their `:noted` markers.
 */
import { createHash } from 'node:crypto';
import type { Redis } from '@vitalis/redis';

export interface LoginThrottleSettings {
  addressMaxFailures: number;
  windowSeconds: number;
  userFreeFailures: number;
  userDelaySeconds: number;
  userMaxDelaySeconds: number;
}

export type LoginVerdict =
  | { allowed: true }
  /** `by`: which limit refused; `retryAfter` in whole seconds; `first`: the first refusal of this throttle episode. */
  | { allowed: false; by: 'address' | 'username'; retryAfter: number; first: boolean };

/**
 * KEYS: address counter, username state (hash: failures, next), address refusal marker, username refusal marker.
 * ARGV: now (ms), address max failures, window (ms), username free failures, first wait (ms), longest wait (ms).
 * Returns {'ok'} or {'address'|'username', wait ms, first refusal 1|0}.
 */
const BEGIN = `
local now = tonumber(ARGV[1])
local failures = tonumber(redis.call('GET', KEYS[1]) or '0')
if failures >= tonumber(ARGV[2]) then
  local wait = redis.call('PTTL', KEYS[1])
  if wait < 1 then wait = 1 end
  local first = redis.call('SET', KEYS[3], '1', 'NX', 'PX', wait) and 1 or 0
  return {'address', wait, first}
end
local nextAt = tonumber(redis.call('HGET', KEYS[2], 'next') or '0')
if nextAt > now then
  local wait = nextAt - now
  local first = redis.call('SET', KEYS[4], '1', 'NX', 'PX', wait) and 1 or 0
  return {'username', wait, first}
end
if redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
local f = redis.call('HINCRBY', KEYS[2], 'failures', 1)
local free = tonumber(ARGV[4])
local wait = 0
if f >= free then wait = math.min(tonumber(ARGV[5]) * 2 ^ (f - free), tonumber(ARGV[6])) end
redis.call('HSET', KEYS[2], 'next', now + wait)
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return {'ok', 0, 0}`;

/** KEYS: address counter, username state. The attempt was no failure: give the address its reservation back, clear the username. */
const SUCCEEDED = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
redis.call('DEL', KEYS[2])
return 1`;

/** The back-off's key: the username at one client address (so neither another address nor another user shares it). */
const usernameKey = (username: string, address: string) =>
  `vitalis:login:user:${createHash('sha256').update(`${username.trim().toLowerCase()}\u0000${address}`).digest('base64url')}`;
const addressKey = (address: string) => `vitalis:login:addr:${address}`;

export class LoginThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly settings: LoginThrottleSettings,
  ) {}

  /** Before the password is checked: may this attempt go ahead? If so it is already counted as a failure. */
  async begin(address: string, username: string, nowMs = Date.now()): Promise<LoginVerdict> {
    const s = this.settings;
    const user = usernameKey(username, address);
    const addr = addressKey(address);
    const [kind, waitMs, first] = (await this.redis.eval(
      BEGIN,
      4,
      addr,
      user,
      `${addr}:noted`,
      `${user}:noted`,
      String(nowMs),
      String(s.addressMaxFailures),
      String(s.windowSeconds * 1000),
      String(s.userFreeFailures),
      String(s.userDelaySeconds * 1000),
      String(s.userMaxDelaySeconds * 1000),
    )) as [string, number, number];
    if (kind === 'ok') return { allowed: true };
    return {
      allowed: false,
      by: kind === 'address' ? 'address' : 'username',
      retryAfter: Math.max(1, Math.ceil(Number(waitMs) / 1000)),
      first: Number(first) === 1,
    };
  }

  /** The password was right: the attempt was no failure. */
  async succeeded(address: string, username: string): Promise<void> {
    await this.redis.eval(SUCCEEDED, 2, addressKey(address), usernameKey(username, address));
  }
}

/** "42 seconds", "15 minutes": how long the login page tells the user to wait. */
export function waitText(seconds: number): string {
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}
