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

// LiveEvent is one live observation; ID is its resume position.
type LiveEvent struct {
	ID          string
	Observation Observation
}

// Listener receives live vitals of one patient over a WebSocket and survives disconnects: it
// reconnects with backoff and subscribes again with last_event_id = the last ID it delivered, and
// the gateway replays what followed, so fn sees every observation exactly once, in order.
type Listener struct {
	Client  *Client
	Patient string
	Codes   []string
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

// wire messages (client → server: subscribe/unsubscribe; server → client: observation, subscribed, error)
type clientMessage struct {
	Type        string   `json:"type"`
	Patient     string   `json:"patient"`
	Codes       []string `json:"codes,omitempty"`
	LastEventID string   `json:"last_event_id,omitempty"`
}

type serverMessage struct {
	Type        string          `json:"type"`
	ID          string          `json:"id"`
	Observation json.RawMessage `json:"observation"`
	Data        json.RawMessage `json:"data"`
	// error messages carry a problem
	Status int    `json:"status"`
	Title  string `json:"title"`
	Detail string `json:"detail"`
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
			perr := errorFromResponse(res)
			if res.StatusCode == http.StatusUnauthorized && l.Client.Auth != nil {
				l.Client.Auth.Invalidate()
			}
			return perr
		}
		return err
	}
	defer conn.CloseNow()
	conn.SetReadLimit(4 << 20)
	sub, _ := json.Marshal(clientMessage{Type: "subscribe", Patient: l.Patient, Codes: l.Codes, LastEventID: l.LastEventID})
	if err := conn.Write(ctx, websocket.MessageText, sub); err != nil {
		return err
	}
	connectedOnce := false
	for {
		_, raw, err := conn.Read(ctx)
		if err != nil {
			return err
		}
		var msg serverMessage
		if err := json.Unmarshal(raw, &msg); err != nil {
			return fmt.Errorf("vitalis: malformed live message: %w", err)
		}
		switch msg.Type {
		case "error":
			return &ProblemError{Status: msg.Status, Title: msg.Title, Detail: msg.Detail, Kind: "live-stream", Body: map[string]any{"status": msg.Status, "title": msg.Title, "detail": msg.Detail}, Header: http.Header{}}
		case "observation", "vitals", "":
			body := msg.Observation
			if len(body) == 0 {
				body = msg.Data
			}
			if msg.ID == "" || len(body) == 0 {
				continue
			}
			var o Observation
			if err := json.Unmarshal(body, &o); err != nil {
				return fmt.Errorf("vitalis: malformed observation: %w", err)
			}
			if !connectedOnce {
				connectedOnce = true
			}
			l.LastEventID = msg.ID
			if err := fn(LiveEvent{ID: msg.ID, Observation: o}); err != nil {
				conn.Close(websocket.StatusNormalClosure, "")
				return stopError{err}
			}
		case "subscribed":
			connected()
			if l.OnConnect != nil {
				l.OnConnect()
			}
		}
	}
}
