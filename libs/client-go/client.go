// Package vitalis is a Go client for the Vitalis gateway: OAuth token handling, typed models and
// errors for the REST API, and a WebSocket listener for live vitals with reconnect and resume.
package vitalis

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Client calls the gateway. Every method takes a context; errors are *ProblemError or *OAuthError
// for answers of the gateway, anything else for transport failures.
type Client struct {
	BaseURL string
	Auth    TokenSource
	HTTP    *http.Client
}

// New returns a client for baseURL authenticating with auth (nil: public routes only).
func New(baseURL string, auth TokenSource) *Client {
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), Auth: auth, HTTP: http.DefaultClient}
}

// NewWithClientCredentials is New with the client_credentials grant.
func NewWithClientCredentials(baseURL, clientID, clientSecret string, scopes ...string) *Client {
	return New(baseURL, ClientCredentials(baseURL, clientID, clientSecret, scopes...))
}

// Do sends one request (JSON body if body != nil) and decodes a JSON answer into out (if non-nil).
// After a 401 it invalidates the token and retries once with a fresh one.
func (c *Client) Do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	target := path
	if !strings.HasPrefix(path, "http://") && !strings.HasPrefix(path, "https://") {
		target = c.BaseURL + path
	}
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return err
		}
	}
	for attempt := 0; ; attempt++ {
		res, err := c.send(ctx, method, target, payload)
		if err != nil {
			return err
		}
		if res.StatusCode == http.StatusUnauthorized && c.Auth != nil && attempt == 0 {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			c.Auth.Invalidate()
			continue
		}
		defer res.Body.Close()
		if res.StatusCode >= 300 {
			return errorFromResponse(res)
		}
		if out == nil || res.StatusCode == http.StatusNoContent {
			return nil
		}
		return json.NewDecoder(res.Body).Decode(out)
	}
}

func (c *Client) send(ctx context.Context, method, target string, payload []byte) (*http.Response, error) {
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if etag, ok := ctx.Value(ifMatchKey{}).(string); ok && etag != "" {
		req.Header.Set("If-Match", etag)
	}
	if err := c.authorize(ctx, req.Header); err != nil {
		return nil, err
	}
	return c.HTTP.Do(req)
}

type ifMatchKey struct{}

// WithIfMatch makes the requests sent with ctx conditional on the resource's version (an ETag,
// e.g. ETagOf(resource)): a concurrent change answers 412.
func WithIfMatch(ctx context.Context, etag string) context.Context {
	return context.WithValue(ctx, ifMatchKey{}, etag)
}

func (c *Client) authorize(ctx context.Context, h http.Header) error {
	if c.Auth == nil {
		return nil
	}
	token, err := c.Auth.Token(ctx)
	if err != nil {
		return fmt.Errorf("vitalis: obtaining a token: %w", err)
	}
	h.Set("Authorization", "Bearer "+token)
	return nil
}

func (c *Client) Health(ctx context.Context) (*Health, error) {
	var h Health
	return &h, c.Do(ctx, http.MethodGet, "/api/v1/health", nil, nil, &h)
}

// Identity is GET /agent/identity: who the token says the caller is.
func (c *Client) Identity(ctx context.Context) (map[string]any, error) {
	var id map[string]any
	return id, c.Do(ctx, http.MethodGet, "/agent/identity", nil, nil, &id)
}

// RevokeToken revokes the current access token (RFC 7009); the next call obtains a new one.
func (c *Client) RevokeToken(ctx context.Context) error {
	if c.Auth == nil {
		return nil
	}
	token, err := c.Auth.Token(ctx)
	if err != nil {
		return err
	}
	err = postForm(ctx, c.HTTP, c.BaseURL+"/api/auth/revoke", url.Values{"token": {token}, "token_type_hint": {"access_token"}}, nil)
	c.Auth.Invalidate()
	return err
}

func (q VitalsQuery) values() url.Values {
	v := url.Values{"patient": {q.Patient}, "from": {q.From}, "to": {q.To}}
	for k, s := range map[string]string{"code": q.Code, "bucket": q.Bucket, "agg": q.Agg, "cursor": q.Cursor} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	return v
}

// VitalsHistory returns one page of raw observations (q.Bucket must be empty).
func (c *Client) VitalsHistory(ctx context.Context, q VitalsQuery) (*VitalsPage, error) {
	var p VitalsPage
	return &p, c.Do(ctx, http.MethodGet, "/api/v1/vitals", q.values(), nil, &p)
}

// VitalsBuckets returns aggregated history (q.Bucket set).
func (c *Client) VitalsBuckets(ctx context.Context, q VitalsQuery) (*BucketPage, error) {
	var p BucketPage
	return &p, c.Do(ctx, http.MethodGet, "/api/v1/vitals", q.values(), nil, &p)
}

// EachVital calls fn for every raw observation in [From, To), following the next links.
func (c *Client) EachVital(ctx context.Context, q VitalsQuery, fn func(Observation) error) error {
	page, err := c.VitalsHistory(ctx, q)
	for ; err == nil; err = c.Do(ctx, http.MethodGet, *page.Next, nil, nil, page) {
		for _, o := range page.Data {
			if err := fn(o); err != nil {
				return err
			}
		}
		if page.Next == nil {
			return nil
		}
	}
	return err
}

func (c *Client) LatestVitals(ctx context.Context, patientID string) (*LatestVitals, error) {
	var l LatestVitals
	return &l, c.Do(ctx, http.MethodGet, "/api/v1/vitals/latest", url.Values{"patient": {patientID}}, nil, &l)
}

// PublishVitals posts a batch of observations (write:vitals); all-or-nothing validation, 202 once Kafka has it.
func (c *Client) PublishVitals(ctx context.Context, observations []Observation) (*PublishResult, error) {
	return c.PublishVitalsBatch(ctx, VitalsBatch{Observations: observations})
}

// PublishVitalsBatch posts observations and/or device frames in one all-or-nothing batch
// (write:vitals); a frame is one Kafka record. 202 once Kafka has it.
func (c *Client) PublishVitalsBatch(ctx context.Context, batch VitalsBatch) (*PublishResult, error) {
	var r PublishResult
	return &r, c.Do(ctx, http.MethodPost, "/api/v1/vitals", nil, batch, &r)
}

// GetPatient reads a patient's record: the FHIR Patient, and what else the caller may see.
func (c *Client) GetPatient(ctx context.Context, id string) (*PatientRecord, error) {
	var r PatientRecord
	return &r, c.Do(ctx, http.MethodGet, "/api/v1/patients/"+url.PathEscape(id), nil, nil, &r)
}

// RegisterPatient posts a FHIR Patient (write:patients); the id is minted by the server.
func (c *Client) RegisterPatient(ctx context.Context, patient map[string]any) (*Patient, error) {
	var p Patient
	return &p, c.Do(ctx, http.MethodPost, "/api/v1/patients", nil, patient, &p)
}

// SearchPatients: name, birthdate, identifier (system|value), cursor.
func (c *Client) SearchPatients(ctx context.Context, query url.Values) (*Bundle, error) {
	var b Bundle
	return &b, c.Do(ctx, http.MethodGet, "/api/v1/patients", query, nil, &b)
}

// ListAppointments returns slots (and booked appointments): clinician, patient, from, to, status, cursor.
func (c *Client) ListAppointments(ctx context.Context, query url.Values) (*Bundle, error) {
	var b Bundle
	return &b, c.Do(ctx, http.MethodGet, "/api/v1/appointments", query, nil, &b)
}

func (c *Client) BookAppointment(ctx context.Context, b Booking) (*Appointment, error) {
	var a Appointment
	return &a, c.Do(ctx, http.MethodPost, "/api/v1/appointments", nil, b, &a)
}

func (c *Client) CancelAppointment(ctx context.Context, id, reason string) (*Appointment, error) {
	var a Appointment
	body := map[string]string{}
	if reason != "" {
		body["reason"] = reason
	}
	return &a, c.Do(ctx, http.MethodPost, "/api/v1/appointments/"+url.PathEscape(id)+"/cancel", nil, body, &a)
}

// RescheduleAppointment moves an appointment to another free slot, atomically.
func (c *Client) RescheduleAppointment(ctx context.Context, id, slotID string) (*Appointment, error) {
	var a Appointment
	return &a, c.Do(ctx, http.MethodPost, "/api/v1/appointments/"+url.PathEscape(id)+"/reschedule", nil, map[string]string{"slot_id": slotID}, &a)
}
