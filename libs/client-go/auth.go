package vitalis

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// TokenSource supplies Bearer tokens. The client calls Invalidate after a 401 and retries once.
type TokenSource interface {
	Token(ctx context.Context) (string, error)
	Invalidate()
}

// TokenResponse is the token endpoint's answer.
type TokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	Scope        string `json:"scope"`
	RefreshToken string `json:"refresh_token,omitempty"`
}

// expiryMargin renews a token this long before it really expires.
const expiryMargin = 30 * time.Second

// cachingSource caches one token until shortly before expiry; fetch obtains a new one.
type cachingSource struct {
	mu      sync.Mutex
	token   string
	expires time.Time
	fetch   func(ctx context.Context) (*TokenResponse, error)
}

func (c *cachingSource) Token(ctx context.Context) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.token != "" && time.Now().Before(c.expires) {
		return c.token, nil
	}
	t, err := c.fetch(ctx)
	if err != nil {
		return "", err
	}
	c.token = t.AccessToken
	c.expires = time.Now().Add(time.Duration(t.ExpiresIn)*time.Second - expiryMargin)
	return c.token, nil
}

func (c *cachingSource) Invalidate() {
	c.mu.Lock()
	c.token = ""
	c.mu.Unlock()
}

func postForm(ctx context.Context, hc *http.Client, endpoint string, form url.Values, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	res, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		return errorFromResponse(res)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(res.Body).Decode(out)
}

// ClientCredentials returns a token source for a backend agent (client_credentials grant,
// client_secret_post). scopes may be empty: the client's registered scopes.
func ClientCredentials(baseURL, clientID, clientSecret string, scopes ...string) TokenSource {
	return clientCredentials(http.DefaultClient, baseURL, clientID, clientSecret, scopes)
}

func clientCredentials(hc *http.Client, baseURL, clientID, clientSecret string, scopes []string) TokenSource {
	base := strings.TrimRight(baseURL, "/")
	return &cachingSource{fetch: func(ctx context.Context) (*TokenResponse, error) {
		form := url.Values{"grant_type": {"client_credentials"}, "client_id": {clientID}, "client_secret": {clientSecret}}
		if len(scopes) > 0 {
			form.Set("scope", strings.Join(scopes, " "))
		}
		var t TokenResponse
		return &t, postForm(ctx, hc, base+"/api/auth/oauth2/token", form, &t)
	}}
}

// SandboxCredentials is the sandbox endpoint's answer: a throwaway client and its token.
type SandboxCredentials struct {
	TokenResponse
	ClientID              string `json:"client_id"`
	ClientSecret          string `json:"client_secret"`
	ClientSecretExpiresAt int64  `json:"client_secret_expires_at"`
	TokenEndpoint         string `json:"token_endpoint"`
}

// Sandbox returns a token source using POST /api/v1/sandbox (no registration; rate-limited;
// read-only demo scopes).
func Sandbox(baseURL string) TokenSource {
	base := strings.TrimRight(baseURL, "/")
	return &cachingSource{fetch: func(ctx context.Context) (*TokenResponse, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/v1/sandbox", nil)
		if err != nil {
			return nil, err
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		defer res.Body.Close()
		if res.StatusCode >= 300 {
			return nil, errorFromResponse(res)
		}
		var c SandboxCredentials
		if err := json.NewDecoder(res.Body).Decode(&c); err != nil {
			return nil, err
		}
		return &c.TokenResponse, nil
	}}
}

// RefreshingTokens serves a user's tokens from the authorization code flow and refreshes them
// with the rotating refresh token; onTokens receives every new set (persist it: the old refresh
// token is dead, and presenting it again revokes the whole family).
func RefreshingTokens(baseURL string, initial TokenResponse, clientID, clientSecret string, onTokens func(TokenResponse)) TokenSource {
	base := strings.TrimRight(baseURL, "/")
	current := initial
	first := true
	return &cachingSource{fetch: func(ctx context.Context) (*TokenResponse, error) {
		if first {
			first = false
			t := current
			return &t, nil
		}
		form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {current.RefreshToken}, "client_id": {clientID}}
		if clientSecret != "" {
			form.Set("client_secret", clientSecret)
		}
		var t TokenResponse
		if err := postForm(ctx, http.DefaultClient, base+"/api/auth/oauth2/token", form, &t); err != nil {
			return nil, err
		}
		if t.RefreshToken == "" {
			t.RefreshToken = current.RefreshToken
		}
		current = t
		if onTokens != nil {
			onTokens(t)
		}
		return &t, nil
	}}
}

// StaticToken is a token obtained elsewhere; never renewed.
type StaticToken string

func (s StaticToken) Token(context.Context) (string, error) { return string(s), nil }
func (s StaticToken) Invalidate()                           {}
