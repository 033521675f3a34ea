package vitalis

// Diagnostic workflows (docs/diagnostics.md): doctors order and acknowledge critical results, the
// lab role posts results, nurses read; a patient user reads its own final reports. An illegal
// transition is a 409 *ProblemError whose Body["current_status"] names the state; a stale
// WithIfMatch is a 412.

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
)

// Resource is a FHIR R4 resource: the fields every caller needs, the rest kept raw in Fields.
type Resource struct {
	ResourceType string                     `json:"resourceType"`
	ID           string                     `json:"id"`
	Status       string                     `json:"status"`
	VersionID    string                     `json:"-"`
	Fields       map[string]json.RawMessage `json:"-"`
}

func (r *Resource) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &r.Fields); err != nil {
		return err
	}
	var v struct {
		ResourceType string `json:"resourceType"`
		ID           string `json:"id"`
		Status       string `json:"status"`
		Meta         struct {
			VersionID string `json:"versionId"`
		} `json:"meta"`
	}
	err := json.Unmarshal(b, &v)
	r.ResourceType, r.ID, r.Status, r.VersionID = v.ResourceType, v.ID, v.Status, v.Meta.VersionID
	return err
}

// ETagOf is the If-Match value of a resource read before (its meta.versionId).
func ETagOf(r *Resource) string { return `"` + r.VersionID + `"` }

// OrderRequest is what a clinician orders; OrderDiagnosticTest turns it into a FHIR ServiceRequest.
type OrderRequest struct {
	PatientID string
	Code      string // LOINC, from GET /api/v1/diagnostics/catalog
	Priority  string // routine | urgent | asap | stat (default routine)
	Intent    string // order (default) | proposal
	Reason    string
}

// CriticalResult is a report's critical result: open, escalated or acknowledged (who, when).
type CriticalResult struct {
	CriticalID     string           `json:"critical_id"`
	ReportID       string           `json:"report_id"`
	PatientID      string           `json:"patient_id"`
	Code           string           `json:"code"`
	State          string           `json:"state"`
	Results        []map[string]any `json:"results"`
	RaisedAt       string           `json:"raised_at"`
	DueAt          string           `json:"due_at"`
	EscalatedAt    *string          `json:"escalated_at"`
	AcknowledgedAt *string          `json:"acknowledged_at"`
	AcknowledgedBy *string          `json:"acknowledged_by"`
	Note           *string          `json:"note"`
}

// ReportRevision is one revision of a report's history.
type ReportRevision struct {
	Revision int      `json:"revision"`
	Status   string   `json:"status"`
	At       string   `json:"at"`
	By       *string  `json:"by"`
	Reason   *string  `json:"reason"`
	Report   Resource `json:"report"`
}

const diagnostics = "/api/v1/diagnostics"

func (c *Client) OrderDiagnosticTest(ctx context.Context, o OrderRequest) (*Resource, error) {
	body := map[string]any{
		"resourceType": "ServiceRequest", "intent": orDefault(o.Intent, "order"), "priority": orDefault(o.Priority, "routine"),
		"subject": map[string]string{"reference": "Patient/" + o.PatientID},
		"code":    map[string]any{"coding": []map[string]string{{"system": "http://loinc.org", "code": o.Code}}},
	}
	if o.Reason != "" {
		body["reasonCode"] = []map[string]string{{"text": o.Reason}}
	}
	var r Resource
	return &r, c.Do(ctx, http.MethodPost, diagnostics+"/orders", nil, body, &r)
}

// ListDiagnosticOrders: patient, status (comma-separated), limit.
func (c *Client) ListDiagnosticOrders(ctx context.Context, query url.Values) (*Bundle, error) {
	var b Bundle
	return &b, c.Do(ctx, http.MethodGet, diagnostics+"/orders", query, nil, &b)
}

func (c *Client) GetDiagnosticOrder(ctx context.Context, id string) (*Resource, error) {
	var r Resource
	return &r, c.Do(ctx, http.MethodGet, diagnostics+"/orders/"+url.PathEscape(id), nil, nil, &r)
}

// ChangeDiagnosticOrder: action cancel | activate | hold | entered-in-error (WithIfMatch optional).
func (c *Client) ChangeDiagnosticOrder(ctx context.Context, id, action, reason string) (*Resource, error) {
	var r Resource
	return &r, c.Do(ctx, http.MethodPost, diagnostics+"/orders/"+url.PathEscape(id)+"/"+url.PathEscape(action), nil, reasonBody("reason", reason), &r)
}

// PostDiagnosticReport posts a FHIR DiagnosticReport basedOn an active order (the lab role).
func (c *Client) PostDiagnosticReport(ctx context.Context, report map[string]any) (*Resource, error) {
	var r Resource
	return &r, c.Do(ctx, http.MethodPost, diagnostics+"/reports", nil, report, &r)
}

// UpdateDiagnosticReport moves a report on (partial, preliminary, final); ctx must carry WithIfMatch.
func (c *Client) UpdateDiagnosticReport(ctx context.Context, id string, report map[string]any) (*Resource, error) {
	var r Resource
	return &r, c.Do(ctx, http.MethodPut, diagnostics+"/reports/"+url.PathEscape(id), nil, report, &r)
}

// AmendDiagnosticReport amends or corrects a final report: {status, reason, contained, conclusion}.
func (c *Client) AmendDiagnosticReport(ctx context.Context, id string, amendment map[string]any) (*Resource, error) {
	var r Resource
	return &r, c.Do(ctx, http.MethodPost, diagnostics+"/reports/"+url.PathEscape(id)+"/amend", nil, amendment, &r)
}

// ListDiagnosticReports: patient, order, limit.
func (c *Client) ListDiagnosticReports(ctx context.Context, query url.Values) (*Bundle, error) {
	var b Bundle
	return &b, c.Do(ctx, http.MethodGet, diagnostics+"/reports", query, nil, &b)
}

func (c *Client) GetDiagnosticReport(ctx context.Context, id string) (*Resource, error) {
	var r Resource
	return &r, c.Do(ctx, http.MethodGet, diagnostics+"/reports/"+url.PathEscape(id), nil, nil, &r)
}

func (c *Client) DiagnosticReportHistory(ctx context.Context, id string) ([]ReportRevision, error) {
	var h struct {
		Revisions []ReportRevision `json:"revisions"`
	}
	return h.Revisions, c.Do(ctx, http.MethodGet, diagnostics+"/reports/"+url.PathEscape(id)+"/history", nil, nil, &h)
}

// AcknowledgeCriticalResult records that a doctor has seen the report's critical result.
func (c *Client) AcknowledgeCriticalResult(ctx context.Context, id, note string) (*CriticalResult, error) {
	var cr CriticalResult
	return &cr, c.Do(ctx, http.MethodPost, diagnostics+"/reports/"+url.PathEscape(id)+"/acknowledge", nil, reasonBody("note", note), &cr)
}

// CriticalResults lists the unacknowledged critical results (of one patient when patientID != "").
func (c *Client) CriticalResults(ctx context.Context, patientID string) ([]CriticalResult, error) {
	var out struct {
		CriticalResults []CriticalResult `json:"critical_results"`
	}
	q := url.Values{}
	if patientID != "" {
		q.Set("patient", patientID)
	}
	return out.CriticalResults, c.Do(ctx, http.MethodGet, diagnostics+"/critical-results", q, nil, &out)
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

func reasonBody(key, value string) map[string]string {
	body := map[string]string{}
	if value != "" {
		body[key] = value
	}
	return body
}
