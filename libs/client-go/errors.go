package vitalis

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// ProblemError is an RFC 9457 problem answered by the gateway (every non-OAuth error). Kind is
// the last segment of Type (`unauthorized`, `insufficient-scope`, `validation-error`, ...).
type ProblemError struct {
	Status int
	Type   string
	Title  string
	Detail string
	Kind   string
	// Body is the whole problem, extensions included (e.g. `errors` of a validation failure).
	Body   map[string]any
	Header http.Header
}

func (e *ProblemError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Status, e.Title, e.Detail)
}

// Challenge is the WWW-Authenticate header of a 401/403.
func (e *ProblemError) Challenge() string { return e.Header.Get("WWW-Authenticate") }

// OAuthError is an RFC 6749 error answered by the token, registration or revocation endpoints.
type OAuthError struct {
	Status      int
	Code        string
	Description string
}

func (e *OAuthError) Error() string {
	if e.Description == "" {
		return fmt.Sprintf("%d %s", e.Status, e.Code)
	}
	return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Description)
}

// AsProblem returns the ProblemError in err's chain, if any.
func AsProblem(err error) (*ProblemError, bool) {
	var p *ProblemError
	ok := errors.As(err, &p)
	return p, ok
}

func hasStatus(err error, statuses ...int) bool {
	p, ok := AsProblem(err)
	if !ok {
		return false
	}
	for _, s := range statuses {
		if p.Status == s {
			return true
		}
	}
	return false
}

func IsUnauthorized(err error) bool { return hasStatus(err, http.StatusUnauthorized) }
func IsForbidden(err error) bool    { return hasStatus(err, http.StatusForbidden) }
func IsNotFound(err error) bool     { return hasStatus(err, http.StatusNotFound) }
func IsValidation(err error) bool {
	return hasStatus(err, http.StatusBadRequest, http.StatusUnprocessableEntity)
}
func IsConflict(err error) bool {
	return hasStatus(err, http.StatusConflict, http.StatusPreconditionFailed)
}
func IsRateLimited(err error) bool { return hasStatus(err, http.StatusTooManyRequests) }

// errorFromResponse reads a failed response's body into the matching typed error.
func errorFromResponse(res *http.Response) error {
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	if code, ok := body["error"].(string); ok && body["type"] == nil {
		desc, _ := body["error_description"].(string)
		return &OAuthError{Status: res.StatusCode, Code: code, Description: desc}
	}
	typ, ok := body["type"].(string)
	if !ok {
		detail := string(raw)
		if len(detail) > 500 {
			detail = detail[:500]
		}
		body = map[string]any{"type": "about:blank", "title": http.StatusText(res.StatusCode), "status": res.StatusCode, "detail": detail}
		typ = "about:blank"
	}
	title, _ := body["title"].(string)
	detail, _ := body["detail"].(string)
	return &ProblemError{
		Status: res.StatusCode, Type: typ, Title: title, Detail: detail,
		Kind: typ[strings.LastIndex(typ, "/")+1:], Body: body, Header: res.Header,
	}
}
