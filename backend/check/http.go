package check

// The checks of the Streamable HTTP transport: probes built as the
// conformance suite's, sent through the client so that they are recorded.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcp-playground/playground/mcpclient"
)

// foreignHost is the host a DNS-rebinding page would send.
const foreignHost = "evil.example.com"

// endpoint returns the client's Streamable HTTP endpoint and session, or
// the reason to skip an HTTP check.
func (r *runner) endpoint() (u *url.URL, session, skip string) {
	raw, session, ok := r.c.HTTPEndpoint()
	if !ok {
		return nil, "", "over Streamable HTTP only; this connection is not"
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, "", "the endpoint URL does not parse: " + err.Error()
	}
	return u, session, ""
}

// isLoopback reports whether host names this machine (localhost or a
// loopback address).
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// probeFailed says why a probe got no HTTP answer.
func probeFailed(what string, err error) (Verdict, string) {
	return Fail, fmt.Sprintf("%s: no HTTP answer: %v", what, err)
}

func checkDNSRebinding(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	u, _, skip := r.endpoint()
	if skip != "" {
		return Skip, skip
	}
	if !isLoopback(u.Hostname()) {
		return Skip, fmt.Sprintf("%s is not a localhost URL: DNS rebinding is an attack on local servers", u.Hostname())
	}
	method := r.probeRequest()
	body, id := r.probeBody(method, nil)
	what := fmt.Sprintf("%s with Host: %s, Origin: http://%s", method, foreignHost, foreignHost)
	pr, err := r.probe(ctx, res, what, id, mcpclient.HTTPProbe{Body: body, Host: foreignHost,
		Header: http.Header{"Origin": {"http://" + foreignHost}}})
	if err != nil {
		return probeFailed(what, err)
	}
	if pr.Status < 400 || pr.Status >= 500 {
		return Fail, fmt.Sprintf("a request with Host: %s and Origin: http://%s was answered HTTP %d, not refused with 4xx: a web page can reach this server through DNS rebinding", foreignHost, foreignHost, pr.Status)
	}
	refused := pr.Status
	body, id = r.probeBody(method, nil)
	what = fmt.Sprintf("%s with Host: %s, Origin: http://%s", method, u.Host, u.Host)
	pr, err = r.probe(ctx, res, what, id, mcpclient.HTTPProbe{Body: body, Header: http.Header{"Origin": {"http://" + u.Host}}})
	if err != nil {
		return probeFailed(what, err)
	}
	if pr.Status/100 != 2 {
		return Fail, fmt.Sprintf("the foreign Host was refused (HTTP %d), but so was the local one (HTTP %d)", refused, pr.Status)
	}
	return Pass, fmt.Sprintf("Host: %s refused with HTTP %d; Host: %s accepted (HTTP %d)", foreignHost, refused, u.Host, pr.Status)
}

func checkOrigin(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	u, _, skip := r.endpoint()
	if skip != "" {
		return Skip, skip
	}
	method := r.probeRequest()
	body, id := r.probeBody(method, nil)
	what := fmt.Sprintf("%s with Origin: http://%s", method, foreignHost)
	pr, err := r.probe(ctx, res, what, id, mcpclient.HTTPProbe{Body: body, Header: http.Header{"Origin": {"http://" + foreignHost}}})
	if err != nil {
		return probeFailed(what, err)
	}
	switch {
	case pr.Status == http.StatusForbidden:
		return Pass, fmt.Sprintf("Origin: http://%s refused with HTTP 403 (Host: %s)", foreignHost, u.Host)
	case pr.Status >= 400 && pr.Status < 500:
		return Pass, fmt.Sprintf("Origin: http://%s refused with HTTP %d (the specification asks for 403)", foreignHost, pr.Status)
	}
	return Fail, fmt.Sprintf("a request with Origin: http://%s was answered HTTP %d: servers must validate Origin and refuse a foreign one with 403", foreignHost, pr.Status)
}

// badVersion is a protocol version no server supports.
const badVersion = "1999-01-01"

func checkVersionHeader(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	if _, _, skip := r.endpoint(); skip != "" {
		return Skip, skip
	}
	if v := r.c.ProtocolVersion(); !r.modern && v < "2025-06-18" {
		return Skip, fmt.Sprintf("the session speaks %s; the MCP-Protocol-Version header came in 2025-06-18", v)
	}
	method := r.probeRequest()
	body, id := r.probeBody(method, nil)
	what := fmt.Sprintf("%s with MCP-Protocol-Version: %s", method, badVersion)
	pr, err := r.probe(ctx, res, what, id, mcpclient.HTTPProbe{Body: body, Header: http.Header{"Mcp-Protocol-Version": {badVersion}}})
	if err != nil {
		return probeFailed(what, err)
	}
	if pr.Status != http.StatusBadRequest {
		return Fail, fmt.Sprintf("a request with MCP-Protocol-Version: %s was answered HTTP %d, not 400 Bad Request", badVersion, pr.Status)
	}
	return Pass, fmt.Sprintf("MCP-Protocol-Version: %s answered HTTP 400", badVersion)
}

// unknownSession is a session id no server handed out.
const unknownSession = "playground-check-no-such-session"

// checkSessionLifecycle sends a request with a session id the server
// never gave, then starts a session of its own (initialize,
// notifications/initialized), ends it with DELETE and sends a request
// with its id: both requests must be answered 404.
func checkSessionLifecycle(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	if _, _, skip := r.endpoint(); skip != "" {
		return Skip, skip
	}
	if r.modern {
		return Skip, "2026-07-28 has no sessions"
	}
	_, session, _ := r.endpoint()
	if session == "" {
		return Skip, "the server keeps no sessions (its initialize answer had no Mcp-Session-Id)"
	}
	var steps []string
	failed := false
	body, id := r.probeBody("ping", nil)
	what := "ping with Mcp-Session-Id: " + unknownSession
	pr, err := r.probe(ctx, res, what, id, mcpclient.HTTPProbe{Body: body, Header: http.Header{"Mcp-Session-Id": {unknownSession}}})
	if err != nil {
		return probeFailed(what, err)
	}
	steps = append(steps, fmt.Sprintf("unknown session: HTTP %d", pr.Status))
	if pr.Status != http.StatusNotFound {
		failed = true
		steps[len(steps)-1] += " (want 404)"
	}

	body, id = r.probeBody("initialize", map[string]any{"protocolVersion": r.c.ProtocolVersion(), "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "mcp-playground-check", "version": "1"}})
	what = "initialize of a new session"
	pr, err = r.probe(ctx, res, what, id, mcpclient.HTTPProbe{Body: body, Header: http.Header{"Mcp-Session-Id": {""}, "Mcp-Protocol-Version": {""}}})
	if err != nil {
		return probeFailed(what, err)
	}
	own := pr.Header.Get("Mcp-Session-Id")
	if pr.Status/100 != 2 || own == "" {
		steps = append(steps, fmt.Sprintf("a new session: HTTP %d, Mcp-Session-Id %q", pr.Status, own))
		return Fail, strings.Join(steps, "; ")
	}
	mark := func(v string) http.Header { return http.Header{"Mcp-Session-Id": {v}} }
	what = "notifications/initialized on the new session"
	pr, err = r.probe(ctx, res, what, "", mcpclient.HTTPProbe{Body: []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), Header: mark(own)})
	if err != nil {
		return probeFailed(what, err)
	}
	if pr.Status/100 != 2 {
		steps = append(steps, fmt.Sprintf("notifications/initialized on a new session: HTTP %d (want 2xx)", pr.Status))
		return Fail, strings.Join(steps, "; ")
	}
	what = "DELETE of the new session"
	pr, err = r.probe(ctx, res, what, "", mcpclient.HTTPProbe{Method: http.MethodDelete, Header: mark(own)})
	if err != nil {
		return probeFailed(what, err)
	}
	switch {
	case pr.Status == http.StatusMethodNotAllowed:
		steps = append(steps, "DELETE: HTTP 405 (the server does not let clients end sessions)")
		if failed {
			return Fail, strings.Join(steps, "; ")
		}
		return Pass, strings.Join(steps, "; ")
	case pr.Status/100 != 2:
		steps = append(steps, fmt.Sprintf("DELETE: HTTP %d (want 2xx, or 405)", pr.Status))
		return Fail, strings.Join(steps, "; ")
	}
	steps = append(steps, fmt.Sprintf("DELETE: HTTP %d", pr.Status))
	body, id = r.probeBody("ping", nil)
	what = "ping on the ended session"
	pr, err = r.probe(ctx, res, what, id, mcpclient.HTTPProbe{Body: body, Header: mark(own)})
	if err != nil {
		return probeFailed(what, err)
	}
	steps = append(steps, fmt.Sprintf("ended session: HTTP %d", pr.Status))
	if pr.Status != http.StatusNotFound {
		failed = true
		steps[len(steps)-1] += " (want 404)"
	}
	if failed {
		return Fail, strings.Join(steps, "; ")
	}
	return Pass, strings.Join(steps, "; ")
}
