package doctor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcp-playground/playground/mcpclient"
)

// diagnoseHTTP explains a failed connect over Streamable HTTP or HTTP+SSE:
// the network (checkNetwork), then the era, the authorization, the HTTP
// status and the transport the server speaks at that URL.
func diagnoseHTTP(ctx context.Context, d *Diagnosis, target mcpclient.Target, era mcpclient.Era, err error) {
	cfg := target.HTTP
	u, perr := url.Parse(cfg.URL)
	if perr != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		d.Summary = "The server URL is not valid: it must start with http:// or https:// and name a host."
		d.suggest("Fix the URL, such as http://127.0.0.1:3001/mcp.", nil)
		return
	}
	d.find("URL", fmt.Sprintf("%s (%s, era %s)", urlText(u), transportName(target.Transport), era))
	p, tr, perr := newProber(cfg)
	if perr != nil {
		d.Summary = "The server's connection settings are not valid: " + perr.Error()
		return
	}
	if !checkNetwork(ctx, d, u, tr, cfg) || eraMismatch(d, era, err) {
		return
	}
	var auth *mcpclient.AuthError
	var status *mcpclient.HTTPStatusError
	var content *mcpclient.ContentTypeError
	switch {
	case errors.As(err, &content) && target.Transport == mcpclient.TransportSSE:
		d.find("HTTP", contentText(content))
		notSSE(ctx, d, p, u, content.Body)
	case errors.As(err, &content):
		notMCP(ctx, d, p, u, content, era)
	case errors.As(err, &auth):
		refused(ctx, d, p, u, auth.Status, auth.Challenge)
	case errors.As(err, &status) && (status.Status == http.StatusUnauthorized || status.Status == http.StatusForbidden):
		refused(ctx, d, p, u, status.Status, "")
	case errors.As(err, &status):
		d.find("HTTP", statusText(status.Text, "", []byte(status.Body)))
		switch {
		case target.Transport == mcpclient.TransportHTTP && isEndpointRefusal(status.Status):
			notStreamable(ctx, d, p, u, status.Text, era)
		case target.Transport == mcpclient.TransportSSE && status.Status/100 == 4:
			notSSE(ctx, d, p, u, status.Text)
		default:
			d.Summary = fmt.Sprintf("The server answered HTTP %s instead of an MCP reply.", status.Text)
			if status.Status/100 == 5 {
				d.suggest("The server failed on its side: its own logs say why. Try again once it is fixed or restarted.", nil)
			}
		}
	case target.Transport == mcpclient.TransportSSE && strings.Contains(err.Error(), "no endpoint event"):
		d.find("Event stream", err.Error())
		notSSE(ctx, d, p, u, "an event stream without an endpoint event")
	case isTimeout(err):
		d.Summary = "The server accepted the connection but did not answer in time."
		d.find("Connect", err.Error())
		timeoutEras(d, era)
	}
}

// isEndpointRefusal reports whether status is how a server refuses a POST
// to a URL that is not its Streamable HTTP endpoint.
func isEndpointRefusal(status int) bool {
	return status == http.StatusBadRequest || status == http.StatusNotFound || status == http.StatusMethodNotAllowed
}

// notStreamable explains a Streamable HTTP connect that the URL refused:
// an HTTP+SSE server there (it sends an endpoint event), or an MCP
// endpoint at another path (/mcp, /sse), or nothing.
func notStreamable(ctx context.Context, d *Diagnosis, p prober, u *url.URL, statusText string, era mcpclient.Era) {
	if p.endpointEvent(ctx, d, u.String()) {
		d.Summary = "This URL is an HTTP+SSE server (the deprecated transport): it sent an endpoint event, but the connection used Streamable HTTP."
		d.suggest("Connect with the HTTP+SSE transport.", &Change{Transport: mcpclient.TransportSSE, Era: legacyFor(era)})
		d.suggest("Or let the playground probe (era auto falls back to HTTP+SSE).", &Change{Era: mcpclient.EraAuto})
		return
	}
	d.Summary = fmt.Sprintf("The server answered HTTP %s at this URL: no Streamable HTTP endpoint is there.", statusText)
	otherPaths(ctx, d, p, u, era)
}

// notMCP explains a 2xx answer that is neither JSON nor an event stream:
// whatever answers at this URL (a web site, a proxy's page) is not an MCP
// server; one may be at /mcp or /sse.
func notMCP(ctx context.Context, d *Diagnosis, p prober, u *url.URL, content *mcpclient.ContentTypeError, era mcpclient.Era) {
	d.find("HTTP", contentText(content))
	what := content.Body
	switch {
	case strings.HasPrefix(what, "a web page"):
	case what != "nothing":
		what = "a body of type " + orNone(content.ContentType) + " (" + what + ")"
	default:
		what = "nothing recognisable (an empty body"
		if content.ContentType == "" {
			what += " without a Content-Type"
		}
		what += ")"
	}
	d.Summary = fmt.Sprintf("This URL is not an MCP endpoint: it answered HTTP %d with %s, where an MCP server answers JSON or an event stream.", content.Status, what)
	otherPaths(ctx, d, p, u, era)
}

// contentText describes an answer of the wrong kind for a finding.
func contentText(content *mcpclient.ContentTypeError) string {
	return fmt.Sprintf("HTTP %d, Content-Type %s: %s", content.Status, orNone(content.ContentType), content.Body)
}

// otherPaths looks for an MCP endpoint at the usual paths of the same
// server (/mcp for Streamable HTTP, /sse for HTTP+SSE) and suggests what it
// finds, or checking the path.
func otherPaths(ctx context.Context, d *Diagnosis, p prober, u *url.URL, era mcpclient.Era) {
	if strings.HasSuffix(u.Path, "/sse") {
		d.suggest("The path ends in /sse, the usual HTTP+SSE endpoint: try the HTTP+SSE transport.", &Change{Transport: mcpclient.TransportSSE, Era: legacyFor(era)})
	}
	if u.Path != "/mcp" && p.initializes(ctx, d, WithPath(u.String(), "/mcp")) {
		d.Summary += " But /mcp on the same server is one."
		d.suggest("Use the path /mcp.", &Change{Path: "/mcp"})
		return
	}
	if u.Path != "/sse" && p.endpointEvent(ctx, d, WithPath(u.String(), "/sse")) {
		d.Summary += " But /sse on the same server is an HTTP+SSE endpoint."
		d.suggest("Use HTTP+SSE at /sse.", &Change{Transport: mcpclient.TransportSSE, Path: "/sse", Era: legacyFor(era)})
		return
	}
	d.suggest("Check the path in the URL: Streamable HTTP servers often serve /mcp, HTTP+SSE servers /sse.", nil)
}

// notSSE explains an HTTP+SSE connect that got no event stream: a
// Streamable HTTP endpoint at this URL or at /mcp, or nothing.
func notSSE(ctx context.Context, d *Diagnosis, p prober, u *url.URL, got string) {
	if p.initializes(ctx, d, u.String()) {
		d.Summary = "This URL is a Streamable HTTP endpoint, but the connection used the deprecated HTTP+SSE transport (it got " + got + ")."
		d.suggest("Connect with the Streamable HTTP transport.", &Change{Transport: mcpclient.TransportHTTP})
		return
	}
	d.Summary = "No HTTP+SSE event stream is at this URL (it got " + got + ")."
	if u.Path != "/mcp" && p.initializes(ctx, d, WithPath(u.String(), "/mcp")) {
		d.Summary += " But /mcp on the same server is a Streamable HTTP endpoint."
		d.suggest("Use Streamable HTTP at /mcp.", &Change{Transport: mcpclient.TransportHTTP, Path: "/mcp"})
		return
	}
	d.suggest("Check the path in the URL: HTTP+SSE servers usually serve their event stream at /sse.", nil)
}

// refused explains a 401 or 403 with its WWW-Authenticate challenge
// (probed when the error does not carry it).
func refused(ctx context.Context, d *Diagnosis, p prober, u *url.URL, status int, challenge string) {
	if challenge == "" {
		r := p.post(ctx, u.String(), initializeBody)
		challenge = r.header.Get("WWW-Authenticate")
		d.find("POST initialize", rawText(u.String())+" → "+r.text())
	}
	d.find("WWW-Authenticate", orNone(challenge))
	scheme, _, _ := strings.Cut(strings.TrimSpace(challenge), " ")
	meta := challengeParam(challenge, "resource_metadata")
	if meta != "" {
		d.find("Resource metadata", meta)
	}
	switch {
	case status == http.StatusForbidden && challengeParam(challenge, "error") == "insufficient_scope":
		d.Summary = "The server refused access (403): the credentials lack a scope it needs (" + orNone(challengeParam(challenge, "scope")) + ")."
		d.suggest("Sign in again asking for the scopes the challenge names.", nil)
	case strings.EqualFold(scheme, "Bearer") || meta != "":
		d.Summary = fmt.Sprintf("This server needs OAuth sign-in: it refused the request with HTTP %d %s and a Bearer challenge.", status, http.StatusText(status))
		d.Suggestions = append(d.Suggestions, Suggestion{Text: "Sign in with OAuth.", SignIn: true})
		d.suggest("Or, with a token you already have, add the header Authorization: Bearer TOKEN.", nil)
	case strings.EqualFold(scheme, "Basic"):
		d.Summary = "This server needs a user name and password (HTTP Basic authentication)."
		d.suggest("Add the header Authorization: Basic with the base64 of NAME:PASSWORD.", nil)
	default:
		d.Summary = fmt.Sprintf("The server refused the request with HTTP %d %s.", status, http.StatusText(status))
		d.suggest("Check the credentials in the server's headers (such as Authorization or an API key header).", nil)
	}
}

// challengeParam returns the value of name in a WWW-Authenticate
// challenge of one scheme, such as resource_metadata="https://…".
func challengeParam(challenge, name string) string {
	_, params, _ := strings.Cut(strings.TrimSpace(challenge), " ")
	for _, part := range strings.Split(params, ",") {
		k, v, ok := strings.Cut(part, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), name) {
			return strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return ""
}

// legacyFor is the era change HTTP+SSE needs: legacy from modern (HTTP+SSE
// has no modern era), none from legacy or auto.
func legacyFor(era mcpclient.Era) mcpclient.Era {
	if era == mcpclient.EraModern {
		return mcpclient.EraLegacy
	}
	return ""
}

func transportName(t mcpclient.Transport) string {
	if t == mcpclient.TransportSSE {
		return "HTTP+SSE"
	}
	return "Streamable HTTP"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// statusText is "HTTP STATUS: what the body holds" (mcpclient.BodySummary),
// without the body when it is empty.
func statusText(status, contentType string, body []byte) string {
	s := "HTTP " + status
	if len(bytes.TrimSpace(body)) > 0 {
		s += ": " + mcpclient.BodySummary(contentType, body)
	}
	return s
}
