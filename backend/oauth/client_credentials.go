package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
	mcpoauth "github.com/mcp-playground/playground/mcpclient/oauth"
)

// clientCredentials returns the credentials of a connection to a server
// whose settings obtain tokens with the client credentials grant: no
// person signs in. The first request goes without a token; the server's
// refusal starts a flow (userID's, who connects) that discovers the
// authorization server and asks it for a token, each exchange a recorded
// step. The token is kept for the connection only and obtained anew
// shortly before it expires and when the server refuses it. With DPoP the
// token requests carry proofs and a DPoP-bound token is presented with a
// proof per request.
func (o *Service) clientCredentials(srv backend.Server, userID int64, settings Settings) (mcpclient.Credentials, error) {
	auth, err := clientAuthOf(srv, settings)
	if err != nil {
		return nil, err
	}
	h := &clientCredentialsHandler{o: o, srv: srv, userID: userID, settings: settings, auth: auth}
	if !settings.DPoP {
		return mcpclient.OAuthCredentials(h), nil
	}
	p, err := mcpoauth.NewDPoP()
	if err != nil {
		return nil, err
	}
	h.dpop = p
	return p.Credentials(h), nil
}

// clientAuthOf is how the client of the server's settings authenticates
// at the token endpoint. Settings whose secret or key is gone (a change of
// the server's destination removes them) are an EUnavailable *Error that
// asks for them again.
func clientAuthOf(srv backend.Server, settings Settings) (mcpoauth.ClientAuth, error) {
	if settings.ClientSecret == "" && settings.PrivateKeyPEM == "" {
		return mcpoauth.ClientAuth{}, backend.Errorf(backend.EUnavailable, "The OAuth settings of %s hold no client secret or private key (they are removed when the server's destination changes): someone who knows them must enter them again.", srv.Name)
	}
	if settings.ClientAuth != PrivateKeyJWT {
		return mcpoauth.ClientAuth{ClientID: settings.ClientID, ClientSecret: settings.ClientSecret}, nil
	}
	key, err := mcpoauth.ParsePrivateKey(settings.PrivateKeyPEM)
	if err != nil {
		return mcpoauth.ClientAuth{}, backend.Errorf(backend.EInvalid, "The private key in the OAuth settings of %s cannot be used: %v", srv.Name, err)
	}
	return mcpoauth.ClientAuth{ClientID: settings.ClientID, Key: key.Key, Algorithm: key.Algorithm}, nil
}

// learnSettings tells a client credentials flow's facts how the client
// was set up, for the checks of its steps.
func (f *flowFacts) learnSettings(settings Settings) {
	f.grant, f.clientAuth, f.dpop = GrantClientCredentials, settings.ClientAuth, settings.DPoP
}

// rerunClientCredentials sends a recorded client credentials request
// again, for the resource and scopes it named, with the client's current
// authentication (a fresh assertion, or the secret) and, with DPoP, a
// fresh proof. The answer is recorded through rec, a failure included.
func (o *Service) rerunClientCredentials(ctx context.Context, rec *stepRecorder, srv backend.Server, step Step) error {
	settings, err := o.store.OAuthSettings(ctx, srv.ID)
	if err != nil {
		return err
	}
	if !settings.Machine() {
		return backend.Errorf(backend.EConflict, "The OAuth settings of %s no longer use client credentials: the step cannot be re-run.", srv.Name)
	}
	auth, err := clientAuthOf(srv, settings)
	if err != nil {
		return err
	}
	if settings.Issuer == "" || settings.Issuer != rec.facts.issuer {
		return backend.Errorf(backend.EConflict, "This request went to the authorization server %q, but the OAuth client of %s is confirmed for %q: it is not re-run, so that its secret or key goes nowhere else.",
			rec.facts.issuer, srv.Name, settings.Issuer)
	}
	form, _ := url.ParseQuery(step.RequestBody)
	d := &mcpoauth.Discovery{Resource: form.Get("resource"), Scopes: strings.Fields(form.Get("scope")),
		AS: &oauthex.AuthServerMeta{Issuer: rec.facts.issuer, TokenEndpoint: step.URL}}
	rec.facts.learnSettings(settings)
	rec.facts.askedScopes = d.Scopes
	rec.issuerGuard = func(issuer string) error { return issuerRefusal(srv, settings, issuer) }
	var rt http.RoundTripper = rec
	if settings.DPoP {
		p, err := mcpoauth.NewDPoP()
		if err != nil {
			return err
		}
		rt = p.Transport(rec)
	}
	ctx, cancel := context.WithTimeout(ctx, exchangeTimeout)
	defer cancel()
	if _, err := mcpoauth.ClientCredentialsGrant(auth)(ctx, &http.Client{Transport: rt}, d); err != nil {
		o.log.Info("a re-run client credentials grant failed", "server", srv.ID, "err", err)
	}
	return nil
}

// clientCredentialsHandler is the auth.OAuthHandler of a client
// credentials connection. Its exchanges happen one at a time (under mu),
// as the step recorder needs.
type clientCredentialsHandler struct {
	o        *Service
	srv      backend.Server
	userID   int64
	settings Settings
	auth     mcpoauth.ClientAuth
	dpop     *mcpoauth.DPoP // nil without DPoP

	mu        sync.Mutex
	rec       *stepRecorder // of the connection's flow; nil before the first refusal
	discovery *mcpoauth.Discovery
	token     *oauth2.Token
}

// TokenSource is nil before the first token: the request goes unsigned,
// and the server's refusal leads to Authorize.
func (h *clientCredentialsHandler) TokenSource(context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.token == nil {
		return nil, nil
	}
	return h, nil
}

// Token returns the current token, obtained anew when it is about to
// expire. A renewal that fails keeps the old token: the server's refusal
// of it leads to Authorize, whose error the connection reports.
func (h *clientCredentialsHandler) Token() (*oauth2.Token, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	tok := h.token
	if tok.Expiry.IsZero() || time.Until(tok.Expiry) > earlyExpiry(tok) {
		return tok, nil
	}
	fresh, err := h.obtain(h.o.ctx, nil)
	if err != nil {
		h.o.log.Info("renewing a client credentials token", "server", h.srv.ID, "err", err)
		return tok, nil
	}
	return fresh, nil
}

// Authorize answers the server's refusal: the refusal is recorded (the
// first one starts the flow), the authorization server discovered once,
// and a token obtained.
func (h *clientCredentialsHandler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
	h.mu.Lock()
	defer h.mu.Unlock()
	first := h.rec == nil
	if first {
		if err := h.start(ctx); err != nil {
			return err
		}
	}
	h.rec.record(ctx, Step{FlowID: h.rec.flowID, Kind: StepChallenge, Method: req.Method, URL: redactParsedURL(req.URL),
		RequestHeader: redactHeader(req.Header), Status: resp.StatusCode, ResponseHeader: redactHeader(resp.Header), At: time.Now()}, nil)
	_, err := h.obtain(ctx, resp)
	if first && h.rec.flowID != 0 {
		status, reason := FlowSucceeded, ""
		if err != nil {
			status, reason = FlowFailed, err.Error()
		}
		h.o.end(h.rec.flowID, status, h.rec.facts.issuer, reason)
	}
	return err
}

// start begins the connection's flow. A connection that names nobody
// (flow 0) has its exchanges checked but not stored.
func (h *clientCredentialsHandler) start(ctx context.Context) error {
	var flowID int64
	if h.userID != 0 {
		var err error
		if flowID, err = h.o.store.CreateOAuthFlow(ctx, Flow{ServerID: h.srv.ID, UserID: h.userID, StartedAt: time.Now()}); err != nil {
			return err
		}
	}
	h.rec = h.o.recorder(flowID, h.srv, 0)
	h.rec.facts.learnSettings(h.settings)
	h.rec.issuerGuard = func(issuer string) error { return issuerRefusal(h.srv, h.settings, issuer) } // under mu, as obtain
	return nil
}

// obtain discovers the authorization server (once, from refusal: the
// server's answer that named it) and runs the client credentials grant;
// mu is held. Its errors are plain sentences without secrets: the
// transport quotes them in the connection's error.
func (h *clientCredentialsHandler) obtain(ctx context.Context, refusal *http.Response) (*oauth2.Token, error) {
	ctx, cancel := context.WithTimeout(ctx, exchangeTimeout)
	defer cancel()
	// DPoP proofs are added outside the recorder, so that its steps show
	// them (redacted) and each retry with a nonce is a step of its own.
	var rt http.RoundTripper = h.rec
	if h.dpop != nil {
		rt = h.dpop.Transport(h.rec)
	}
	client := &http.Client{Transport: rt}
	if h.discovery == nil {
		d, err := mcpoauth.Discover(ctx, client, h.srv.URL, refusal)
		if err != nil {
			return nil, fmt.Errorf("the authorization server could not be found: %s", redactURLsIn(err.Error()))
		}
		if len(h.settings.Scopes) > 0 {
			d.Scopes = h.settings.Scopes
		}
		if err := issuerRefusal(h.srv, h.settings, d.AS.Issuer); err != nil {
			return nil, err
		}
		h.discovery = d
	}
	h.rec.facts.askedScopes = h.discovery.Scopes
	tok, err := mcpoauth.ClientCredentialsGrant(h.auth)(ctx, client, h.discovery)
	if err != nil {
		return nil, fmt.Errorf("the client credentials grant failed: %s", redactURLsIn(err.Error()))
	}
	if tok.AccessToken == "" {
		return nil, errors.New("the authorization server's answer holds no access token")
	}
	h.o.pinIssuer(ctx, h.srv.ID, &h.settings, h.discovery.AS.Issuer)
	if lifetime, ok := tok.Extra("expires_in").(float64); ok {
		tok.ExpiresIn = int64(lifetime) // so that earlyExpiry scales to short-lived tokens
	}
	h.token = tok
	return tok, nil
}

// ClientCredentialsDiagnosis returns d, the doctor's diagnosis of a failed
// connect to a server whose tokens come from client credentials, without
// its offer to sign in: nobody signs in to such a server; the token
// requests and their checks say what went wrong.
func ClientCredentialsDiagnosis(d backend.Diagnosis) backend.Diagnosis {
	kept := d.Suggestions[:0:0]
	signIn := false
	for _, s := range d.Suggestions {
		if s.SignIn {
			signIn = true
			continue
		}
		kept = append(kept, s)
	}
	if !signIn {
		return d
	}
	d.Summary = "The server refused the request, and the playground's client credentials obtained no token it accepts."
	d.Suggestions = append([]backend.Suggestion{{Text: "Open the debugger of the latest token request (Authorization card) to see what the authorization server answered, and check the client settings."}}, kept...)
	return d
}
