package vitalis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// DefaultLivePath is the gateway's WebSocket endpoint for live vitals.
const DefaultLivePath = "/api/v1/vitals/ws"

// LiveEvent is one live event: an observation, or (with Listener.Alerts) an alert raised or
// cleared. ID is its resume position.
type LiveEvent struct {
	ID          string
	Type        string // "observation" or "alert"
	Observation Observation
	// Alert is the alarm condition's data for Type "alert": rule, state, priority (high, medium,
	// low), severity (the same, the older field), kind, latching, label, message, value, due_at on
	// a raise, FHIR Flag. Events written before the alarm lifecycle carry severity only.
	Alert map[string]any
	// AlertEvent is the event name of an alert (e.g. VitalsAlertRaised).
	AlertEvent string
}

// Listener receives live vitals of one patient (or a ward) over the gateway's WebSocket and
// survives disconnects: it reconnects with backoff and subscribes again with `after` = the last ID
// it delivered, and the gateway replays what followed, so fn sees every event exactly once, in
// order. Wire protocol (apps/gateway/src/live): the token travels in the upgrade's Authorization
// header; client {"type":"subscribe","sub","patients","codes","alerts","after"}; server "ready",
// "subscribed", "observation"/"alert" {sub,id,data}, "lagged", "closed" {reason}, "error" {status}.
type Listener struct {
	Client *Client
	// Patients to watch (one, or a ward list).
	Patients []string
	Codes    []string
	// Alerts also delivers alert events.
	Alerts bool
	// LastEventID resumes after this event (e.g. persisted from an earlier run); updated as events arrive.
	LastEventID string
	// Path of the endpoint (default DefaultLivePath).
	Path string
	// InitialDelay (default 250ms) doubles per failed attempt up to MaxDelay (default 10s).
	InitialDelay, MaxDelay time.Duration
	// OnConnect is called after every successful subscription; OnDisconnect after every failure.
	OnConnect    func()
	OnDisconnect func(err error, attempt int)
}

const subscriptionName = "vitals"

type clientMessage struct {
	Type     string   `json:"type"`
	Sub      string   `json:"sub"`
	Patients []string `json:"patients"`
	Codes    []string `json:"codes,omitempty"`
	Alerts   bool     `json:"alerts"`
	After    string   `json:"after,omitempty"`
}

type serverMessage struct {
	Type   string          `json:"type"`
	Sub    string          `json:"sub"`
	ID     string          `json:"id"`
	Event  string          `json:"event"`
	Data   json.RawMessage `json:"data"`
	Reason string          `json:"reason"`
	LastID *string         `json:"last_id"`
	// error messages carry a problem
	Status int    `json:"status"`
	Title  string `json:"title"`
	Detail string `json:"detail"`
}

// closedError: the server ended the subscription on purpose (closed with a reason, or lagged); resumable.
type closedError struct{ reason string }

func (c closedError) Error() string {
	return "vitalis: live subscription closed by the server: " + c.reason
}

// Listen blocks, calling fn for every live observation, until ctx ends (returns ctx.Err()), fn
// returns an error (returned), or the gateway refuses the subscription for good (a 4xx other
// than 401/408/429: returned as *ProblemError).
func (l *Listener) Listen(ctx context.Context, fn func(LiveEvent) error) error {
	delay := l.initialDelay()
	for attempt := 0; ; {
		err := l.session(ctx, fn, func() { attempt, delay = 0, l.initialDelay() })
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var stop stopError
		if errors.As(err, &stop) {
			return stop.err
		}
		if fatal(err) {
			return err
		}
		attempt++
		if l.OnDisconnect != nil {
			l.OnDisconnect(err, attempt)
		}
		wait := delay
		if attempt == 1 {
			wait = min(delay, l.initialDelay())
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		delay = min(delay*2, l.maxDelay())
	}
}

// stopError wraps an error returned by the caller's fn: it ends Listen, never retried.
type stopError struct{ err error }

func (s stopError) Error() string { return s.err.Error() }

func fatal(err error) bool {
	p, ok := AsProblem(err)
	return ok && p.Status >= 400 && p.Status < 500 && p.Status != 401 && p.Status != 408 && p.Status != 429
}

func (l *Listener) initialDelay() time.Duration {
	if l.InitialDelay > 0 {
		return l.InitialDelay
	}
	return 250 * time.Millisecond
}

func (l *Listener) maxDelay() time.Duration {
	if l.MaxDelay > 0 {
		return l.MaxDelay
	}
	return 10 * time.Second
}

func (l *Listener) url() string {
	path := l.Path
	if path == "" {
		path = DefaultLivePath
	}
	base := l.Client.BaseURL
	switch {
	case strings.HasPrefix(base, "https://"):
		base = "wss://" + strings.TrimPrefix(base, "https://")
	case strings.HasPrefix(base, "http://"):
		base = "ws://" + strings.TrimPrefix(base, "http://")
	}
	return base + path
}

// session is one connection: dial, subscribe, read until it breaks.
func (l *Listener) session(ctx context.Context, fn func(LiveEvent) error, connected func()) error {
	h := http.Header{}
	if err := l.Client.authorize(ctx, h); err != nil {
		return err
	}
	conn, res, err := websocket.Dial(ctx, l.url(), &websocket.DialOptions{HTTPHeader: h, HTTPClient: l.Client.HTTP})
	if err != nil {
		if res != nil && res.StatusCode >= 300 {
			if res.StatusCode == http.StatusUnauthorized && l.Client.Auth != nil {
				l.Client.Auth.Invalidate()
			}
			return errorFromResponse(res)
		}
		return err
	}
	defer conn.CloseNow()
	conn.SetReadLimit(4 << 20)
	sub, _ := json.Marshal(clientMessage{Type: "subscribe", Sub: subscriptionName, Patients: l.Patients, Codes: l.Codes, Alerts: l.Alerts, After: l.LastEventID})
	if err := conn.Write(ctx, websocket.MessageText, sub); err != nil {
		return err
	}
	for {
		_, raw, err := conn.Read(ctx)
		if err != nil {
			switch websocket.CloseStatus(err) {
			case 4401: // token revoked or expired: a fresh one on the next attempt
				if l.Client.Auth != nil {
					l.Client.Auth.Invalidate()
				}
			case 4403:
				return &ProblemError{Status: 403, Title: "Forbidden", Detail: err.Error(), Kind: "forbidden", Header: http.Header{}}
			}
			return err
		}
		var msg serverMessage
		if err := json.Unmarshal(raw, &msg); err != nil {
			return fmt.Errorf("vitalis: malformed live message: %w", err)
		}
		switch msg.Type {
		case "error":
			return &ProblemError{Status: msg.Status, Title: msg.Title, Detail: msg.Detail, Kind: "live-stream", Body: map[string]any{"status": msg.Status, "title": msg.Title, "detail": msg.Detail}, Header: http.Header{}}
		case "subscribed":
			connected()
			if l.OnConnect != nil {
				l.OnConnect()
			}
		case "lagged":
			return closedError{"lagged"}
		case "closed":
			if (msg.Reason == "revoked" || msg.Reason == "expired") && l.Client.Auth != nil {
				l.Client.Auth.Invalidate()
			}
			return closedError{msg.Reason}
		case "observation", "alert":
			e := LiveEvent{ID: msg.ID, Type: msg.Type, AlertEvent: msg.Event}
			var err error
			if msg.Type == "observation" {
				err = json.Unmarshal(msg.Data, &e.Observation)
			} else {
				err = json.Unmarshal(msg.Data, &e.Alert)
			}
			if err != nil {
				return fmt.Errorf("vitalis: malformed %s: %w", msg.Type, err)
			}
			l.LastEventID = msg.ID
			if err := fn(e); err != nil {
				conn.Close(websocket.StatusNormalClosure, "")
				return stopError{err}
			}
		}
	}
}
