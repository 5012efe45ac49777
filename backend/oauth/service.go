// Package oauth is the playground's OAuth client service: it signs people
// in to the authorization servers of OAuth-protected HTTP servers, obtains
// tokens with client credentials, keeps and renews the grants, and records
// every exchange as a checked, redacted step that the debugger shows and
// can re-run. Its wire helpers (discovery, DPoP, client assertions) are in
// mcpclient/oauth; what it needs of the rest of the playground are a Store
// and the Servers it signs in to.
package oauth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/mcp-playground/playground/backend"
)

// Service signs people in to the authorization servers of OAuth-protected
// HTTP servers, keeps what they obtain (grants), renews it, and records
// every exchange as a step of a flow that the debugger shows. It owns the
// sign-ins in progress: each waits at most signInTimeout for the person's
// browser to come back, and Close stops them all.
type Service struct {
	store   Store
	servers Servers
	log     *slog.Logger
	base    http.RoundTripper

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // sign-ins in progress

	mu      sync.Mutex
	pending map[string]*signIn // by the state of their authorization request
}

// signInTimeout bounds how long a sign-in waits for the browser to come
// back from the authorization server.
const signInTimeout = 10 * time.Minute

// exchangeTimeout bounds one HTTP exchange of a flow.
const exchangeTimeout = 30 * time.Second

// ClientName is the name the playground registers its clients under.
const ClientName = "MCP Playground"

// New returns the service. base sends the HTTP requests of servers
// reached directly (nil: http.DefaultTransport); see transportTo.
func New(store Store, servers Servers, log *slog.Logger, base http.RoundTripper) *Service {
	if base == nil {
		base = http.DefaultTransport
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Service{store: store, servers: servers, log: log, base: base, ctx: ctx, cancel: cancel, pending: map[string]*signIn{}}
}

// Close stops the sign-ins in progress and waits for them. It is idempotent.
func (o *Service) Close() {
	o.cancel()
	o.wg.Wait()
}

// signIn is a sign-in waiting for the browser to come back.
type signIn struct {
	flowID, serverID, userID int64
	authURL                  chan string         // the authorization URL, once known
	answer                   chan callbackAnswer // the callback's, at most one
	done                     chan struct{}       // closed when the flow has ended
	reason                   string              // why it failed, set before done is closed
}

type callbackAnswer struct {
	result *auth.AuthorizationResult
	err    error
}

// Started is a sign-in started: its flow, and the authorization
// server's URL to send the browser to ("" when it failed before).
type Started struct {
	FlowID int64
	URL    string
}

// Start begins a sign-in of user to the server's authorization server and
// returns the URL to send their browser to. redirectURL is the dashboard's
// callback, which hands the answer to Complete. The flow's first step is a
// request to the server without credentials, whose refusal names the
// resource metadata; the official SDK's authorization-code handler does
// the rest (discovery, registration, PKCE, the code exchange). When the
// flow fails before the browser is needed, the returned Started still
// names the flow, and the error (EUnavailable) says why.
func (o *Service) Start(ctx context.Context, user backend.User, serverID int64, redirectURL string) (Started, error) {
	srv, err := o.servers.GetServer(ctx, serverID)
	if err != nil {
		return Started{}, err
	}
	if srv.Transport == backend.TransportStdio {
		return Started{}, backend.Errorf(backend.EInvalid, "OAuth sign-in is for HTTP servers; %s runs on this host.", srv.Name)
	}
	settings, err := o.store.OAuthSettings(ctx, serverID)
	if err != nil {
		return Started{}, err
	}
	if settings.Machine() {
		return Started{}, backend.Errorf(backend.EInvalid, "%s obtains its tokens with client credentials when it connects: nobody needs to sign in.", srv.Name)
	}
	flowID, err := o.store.CreateOAuthFlow(ctx, Flow{ServerID: serverID, UserID: user.ID, StartedAt: time.Now()})
	if err != nil {
		return Started{}, err
	}
	start := Started{FlowID: flowID}
	rec := o.recorder(flowID, srv, 0)
	if settings.ClientSecret != "" {
		rec.issuerGuard = func(issuer string) error { return issuerRefusal(srv, settings, issuer) }
	}
	req, resp, err := o.challenge(ctx, rec, srv)
	if err != nil {
		return start, o.fail(flowID, "The server could not be reached: "+err.Error())
	}
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		resp.Body.Close()
		return start, o.fail(flowID, fmt.Sprintf("The server answered HTTP %d to a request without credentials: it does not ask for an OAuth sign-in.", resp.StatusCode))
	}
	s := &signIn{flowID: flowID, serverID: serverID, userID: user.ID, authURL: make(chan string, 1), answer: make(chan callbackAnswer, 1), done: make(chan struct{})}
	var got grantedToken
	h, err := auth.NewAuthorizationCodeHandler(o.handlerConfig(rec, settings, redirectURL, s, &got))
	if err != nil {
		resp.Body.Close()
		return start, o.fail(flowID, "The sign-in could not be set up: "+err.Error())
	}
	o.wg.Add(1)
	go o.run(s, h, req, resp, rec, redirectURL, settings, &got)
	select {
	case u := <-s.authURL:
		start.URL = u
		return start, nil
	case <-s.done:
		return start, backend.Errorf(backend.EUnavailable, "The sign-in failed: %s", s.reason)
	case <-ctx.Done():
		return start, backend.Errorf(backend.EUnavailable, "The sign-in did not reach the authorization server in time: %v", ctx.Err())
	}
}

// grantedToken is what the SDK's handler obtained: the client
// configuration and the first token.
type grantedToken struct {
	cfg *oauth2.Config
	tok *oauth2.Token
}

// handlerConfig configures the SDK's handler for one sign-in: a
// pre-registered client from the server's settings, else dynamic
// registration; the authorization URL is handed to Start and the answer
// awaited from Complete; the token is captured into got.
func (o *Service) handlerConfig(rec *stepRecorder, settings Settings, redirectURL string, s *signIn, got *grantedToken) *auth.AuthorizationCodeHandlerConfig {
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:         redirectURL,
		Client:              &http.Client{Transport: rec, Timeout: exchangeTimeout},
		RequestRefreshToken: true,
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			rec.record(ctx, Step{FlowID: s.flowID, Kind: StepAuthorization, Method: http.MethodGet, URL: args.URL, At: time.Now()}, nil)
			if !IsWebAddress(args.URL) {
				return nil, errors.New("the authorization endpoint is not a web address (http or https); the browser is not sent there")
			}
			o.await(stateOf(args.URL), s)
			s.authURL <- args.URL
			select {
			case a := <-s.answer:
				return a.result, a.err
			case <-ctx.Done():
				return nil, errors.New("the browser did not come back from the authorization server in time")
			}
		},
		NewTokenSource: func(_ context.Context, c *oauth2.Config, t *oauth2.Token) (oauth2.TokenSource, error) {
			got.cfg, got.tok = c, t
			return oauth2.StaticTokenSource(t), nil
		},
	}
	if len(settings.Scopes) > 0 {
		cfg.ScopeFilter = func([]string) []string { return settings.Scopes }
	}
	if settings.ClientID != "" {
		pre := &oauthex.ClientCredentials{ClientID: settings.ClientID}
		if settings.ClientSecret != "" {
			pre.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: settings.ClientSecret}
		}
		cfg.PreregisteredClient = pre
		return cfg
	}
	cfg.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
		ClientName: ClientName, RedirectURIs: []string{redirectURL},
		GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
		TokenEndpointAuthMethod: "none",
	}}
	return cfg
}

// run completes a sign-in in the background: the SDK's Authorize, then the
// grant and the client registration are stored and the flow ended.
func (o *Service) run(s *signIn, h *auth.AuthorizationCodeHandler, req *http.Request, resp *http.Response, rec *stepRecorder,
	redirectURL string, settings Settings, got *grantedToken) {
	defer o.wg.Done()
	defer close(s.done)
	defer o.forget(s)
	ctx, cancel := context.WithTimeout(o.ctx, signInTimeout)
	defer cancel()
	if err := h.Authorize(ctx, req, resp); err != nil {
		s.reason = o.failText(err)
		o.end(s.flowID, FlowFailed, rec.facts.issuer, s.reason)
		return
	}
	if got.tok == nil {
		s.reason = "the authorization server gave no token"
		o.end(s.flowID, FlowFailed, rec.facts.issuer, s.reason)
		return
	}
	method := ClientDynamic
	if settings.ClientID != "" {
		method = ClientPreregistered
	}
	if settings.ClientSecret != "" {
		o.pinIssuer(ctx, s.serverID, &settings, rec.facts.issuer)
	}
	if err := o.keep(ctx, s, rec.facts, redirectURL, method, got); err != nil {
		s.reason = "the sign-in succeeded but could not be stored"
		o.log.Error("storing an OAuth grant", "flow", s.flowID, "err", err)
		o.end(s.flowID, FlowFailed, rec.facts.issuer, s.reason)
		return
	}
	o.end(s.flowID, FlowSucceeded, rec.facts.issuer, "")
}

// keep stores the grant a sign-in obtained and the client it used.
func (o *Service) keep(ctx context.Context, s *signIn, facts *flowFacts, redirectURL string, method ClientMethod, got *grantedToken) error {
	ctx = context.WithoutCancel(ctx)
	secret := newGrantSecret(got.cfg, got.tok)
	secret.FlowID, secret.Resource = s.flowID, facts.serverURL
	if err := o.saveGrant(ctx, Grant{ServerID: s.serverID, UserID: s.userID, Issuer: facts.issuer}, secret); err != nil {
		return err
	}
	return o.store.SaveOAuthClient(ctx, Client{Issuer: facts.issuer, RedirectURI: redirectURL, ClientID: got.cfg.ClientID,
		ClientSecret: got.cfg.ClientSecret, Method: method})
}

// challenge sends the server, without credentials, the request that opens
// a session (an initialize POST; for HTTP+SSE, the event stream's GET),
// recorded as the flow's first step, and returns it with the answer.
func (o *Service) challenge(ctx context.Context, rec *stepRecorder, srv backend.Server) (*http.Request, *http.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, exchangeTimeout)
	defer cancel()
	method, body := http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-playground","version":"0"}}}`
	if srv.Transport == backend.TransportSSE {
		method, body = http.MethodGet, ""
	}
	req, err := http.NewRequestWithContext(ctx, method, srv.URL, strings.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := rec.RoundTrip(req)
	if err != nil {
		return nil, nil, err
	}
	// Authorize reads only the status and headers: the body can go now,
	// before ctx ends.
	resp.Body.Close()
	resp.Body = http.NoBody
	return req.WithContext(context.Background()), resp, nil
}

// recorder returns the step recorder of a flow of srv, whose requests go
// the way srv's own traffic goes (transportTo).
func (o *Service) recorder(flowID int64, srv backend.Server, rerunOf int64) *stepRecorder {
	return &stepRecorder{base: o.transportTo(srv), store: o.store, log: o.log, flowID: flowID, rerunOf: rerunOf, facts: &flowFacts{serverURL: srv.URL}}
}

// fail ends a flow that failed before it started in the background and
// returns the EUnavailable error that says why.
func (o *Service) fail(flowID int64, reason string) error {
	o.end(flowID, FlowFailed, "", reason)
	return &backend.Error{Code: backend.EUnavailable, Message: reason}
}

// end stores how a flow ended.
func (o *Service) end(flowID int64, status FlowStatus, issuer, reason string) {
	if err := o.store.EndOAuthFlow(context.Background(), flowID, status, issuer, reason, time.Now()); err != nil {
		o.log.Error("ending an OAuth flow", "flow", flowID, "err", err)
	}
}

// failText describes why the SDK's Authorize failed, without secrets.
func (o *Service) failText(err error) string {
	if errors.Is(err, context.Canceled) && o.ctx.Err() != nil {
		return "the playground shut down"
	}
	return redactURLsIn(err.Error())
}

// redactURLsIn redacts the secret query parameters of the URLs quoted in
// text (oauth2 quotes the requests it failed).
func redactURLsIn(text string) string {
	fields := strings.Fields(text)
	for i, f := range fields {
		if strings.Contains(f, "://") && strings.Contains(f, "?") {
			fields[i] = RedactURL(strings.Trim(f, `"'`))
		}
	}
	return strings.Join(fields, " ")
}

// IsWebAddress reports whether u is an absolute http or https URL: the
// only kind the dashboard sends a browser to. The SDK refuses script
// schemes only, and any scheme on a loopback host, which could open an
// application on the person's machine.
func IsWebAddress(u string) bool {
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != ""
}

// stateOf returns the state parameter of an authorization URL.
func stateOf(authURL string) string {
	u, err := url.Parse(authURL)
	if err != nil {
		return ""
	}
	return u.Query().Get("state")
}
