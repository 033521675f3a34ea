/**
 * The reconnect hint a live subscriber gets when this gateway shuts down (the hub's 'shutdown'
 * close, after readiness went 503): resume from `last_id` on another instance after `retry_ms`.
 * `last_id` null = nothing was sent on this stream: the id the client resumed with stays valid.
 * The delay is spread (0.5 to 3 s) so thousands of subscribers of one instance do not all land on
 * the others in the same instant.
 */
export interface ReconnectHint {
  last_id: string | null;
  retry_ms: number;
  reason: 'shutdown';
}

export const reconnectHint = (lastId: string | null, random = Math.random): ReconnectHint => ({
  last_id: lastId,
  retry_ms: 500 + Math.floor(random() * 2_500),
  reason: 'shutdown',
});

/** WebSocket close code 1012 (RFC 6455 registry: "Service Restart"): reconnect, possibly elsewhere. */
export const WS_SERVICE_RESTART = 1012;
