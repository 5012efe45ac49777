package web

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend/audit"
)

// auditNoteKey holds, in the echo context, the *auditNote of a handler.
const auditNoteKey = "audit-note"

// auditNote is what a handler alone knows about its request and tells the
// audit log: who it turned out to come from (a sign-in), or that it
// failed in a way its status does not say. Empty fields change nothing.
type auditNote struct {
	Action    string
	ActorID   int64
	ActorName string
	Outcome   string
	// Details are added to the request's details: what the handler did
	// that the request does not say (the names of the secrets revealed).
	// Never put a secret value here.
	Details map[string]any
}

// noteAudit records n for the audit event of c's request.
func noteAudit(c echo.Context, n auditNote) { c.Set(auditNoteKey, n) }

// audit records every request with an unsafe method in the audit log once
// its handler returned: who (principalOf, or a handler's auditNote), how
// (browser or token) and from where, the route's action (auditActions),
// the thing it acted on (auditTarget), the form fields or JSON body it
// sent with secrets redacted (audit_details.go), and the outcome: ok below
// status 400, else the status and the error message. A failure to record
// is logged and never changes the answer. It runs after authorize, so
// refused requests are not recorded: they changed nothing.
func (s *Server) audit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		route := r.Method + " " + c.Path()
		if _, known := s.access[route]; !known || !changesState(r.Method) {
			return next(c) // a request that matches no route changes nothing
		}
		var body *bodyCopy
		mediaType := mediaTypeOf(r)
		form := mediaType == echo.MIMEApplicationForm || mediaType == echo.MIMEMultipartForm
		if !form && r.Body != nil && r.Body != http.NoBody {
			body = &bodyCopy{ReadCloser: r.Body}
			r.Body = body
		}
		target := s.auditTarget(c)
		p, signedIn := principalOf(c) // before the handler, which may sign out
		err := next(c)

		if target == "" {
			target = s.createdTarget(c)
		}
		e := audit.Event{Via: audit.ViaAnonymous, Client: s.clientIP(r), Target: target, Outcome: auditOutcome(c, err)}
		if signedIn {
			e.ActorID, e.ActorName, e.Via = p.User.ID, p.User.Name, audit.ViaBrowser
			if p.TokenID != 0 {
				e.Via = audit.ViaToken
			}
		}
		note, _ := c.Get(auditNoteKey).(auditNote)
		finish := auditDetails{route: route, postForm: r.PostForm, form: form, body: body, note: note}.complete
		if rerr := s.deps.Audit.RecordLater(context.WithoutCancel(r.Context()), e, finish); rerr != nil {
			s.deps.Log.Error("could not record an audit event", "route", route, "actor", e.ActorName, "target", e.Target, "err", rerr)
		}
		return err
	}
}

// auditDetails is what an audit event's action and details are made of,
// kept from the request once its handler returned: plain values the
// request no longer touches, never its echo.Context (which echo reuses).
// complete turns them into the event's action and redacted details on the
// audit log's writer, off the request's path.
type auditDetails struct {
	route    string     // "METHOD PATH"
	postForm url.Values // the fields of a form body, not of the query
	form     bool       // the body was a form
	body     *bodyCopy  // the copy of a JSON body, or nil
	note     auditNote
}

// complete sets e's action and details from d, and applies the handler's
// note.
func (d auditDetails) complete(e *audit.Event) {
	var details map[string]any
	switch {
	case d.form:
		details = formDetails(d.postForm)
	case d.body != nil:
		details = jsonBodyDetails(d.body)
	default:
		details = map[string]any{}
	}
	e.Action = auditAction(d.route, details)
	*e = d.note.applyTo(*e)
	maps.Copy(details, d.note.Details)
	e.Details = detailsJSON(details)
}

// changesState reports whether a request with method may change
// something (every method but GET, HEAD and OPTIONS).
func changesState(method string) bool {
	return method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions
}

// applyTo returns e with what the handler noted.
func (n auditNote) applyTo(e audit.Event) audit.Event {
	if n.Action != "" {
		e.Action = n.Action
	}
	if n.ActorName != "" {
		e.ActorID, e.ActorName = n.ActorID, n.ActorName
		if e.Via == audit.ViaAnonymous && n.ActorID != 0 {
			e.Via = audit.ViaBrowser // signed in or set up through the browser
		}
	}
	if n.Outcome != "" {
		e.Outcome = n.Outcome
	}
	return e
}

// auditOutcome is the outcome of a request whose handler returned err.
func auditOutcome(c echo.Context, err error) string {
	if err != nil {
		return fmt.Sprintf("%d %s", statusOf(err), messageOf(err))
	}
	if status := c.Response().Status; status >= http.StatusBadRequest {
		return fmt.Sprintf("%d %s", status, http.StatusText(status))
	}
	return audit.OK
}

// auditNouns name the things a path's :id stands for, by the path's first
// segment (after /api/v1), and the things its other parameters stand for.
var auditNouns = map[string]string{
	"servers": "server", "sessions": "session", "collections": "collection", "users": "user", "frames": "frame",
	"token": "token", "call": "call", "task": "task", "input": "input", "exchange": "exchange",
	"ex": "example", "env": "environment", "run": "run",
}

// auditTarget names what c's request acts on, from its path parameters:
// "server 3 (Demo)", "session 12 (Demo), input 4". Servers, sessions and
// users are named too, looked up before the handler runs (a deleted
// server's name is then still known).
func (s *Server) auditTarget(c echo.Context) string {
	var parts []string
	for i, name := range c.ParamNames() {
		value := c.ParamValues()[i]
		noun := auditNouns[name]
		if name == "id" {
			first, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(c.Path(), "/api/v1"), "/"), "/")
			noun = auditNouns[first]
		}
		if noun == "" {
			noun = name
		}
		part := noun + " " + value
		if name == "id" {
			if label := s.auditName(c.Request().Context(), noun, value); label != "" {
				part += " (" + label + ")"
			}
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}

// createdPath matches the page a create handler redirects to.
var createdPath = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^/(servers|collections)/(\d+)(?:[/?#]|$)`)
})

// createdTarget names what a request without path parameters created,
// from the page its handler redirected to: "server 4 (Demo)".
func (s *Server) createdTarget(c echo.Context) string {
	m := createdPath().FindStringSubmatch(c.Response().Header().Get(echo.HeaderLocation))
	if m == nil {
		return ""
	}
	noun := auditNouns[m[1]]
	if name := s.auditName(c.Request().Context(), noun, m[2]); name != "" {
		return noun + " " + m[2] + " (" + name + ")"
	}
	return noun + " " + m[2]
}

// auditName is the name of the server, session (its server's) or user
// with the id value, or "" when there is none or it cannot be read. value
// names an id as the handlers read it (pathID): in decimal digits.
func (s *Server) auditName(ctx context.Context, noun, value string) string {
	id, err := strconv.ParseInt(value, 10, 64)
	if err != nil || id <= 0 {
		return ""
	}
	switch noun {
	case "server":
		if srv, err := s.deps.Registry.Get(ctx, id); err == nil {
			return srv.Name
		}
	case "session":
		if sess, ok := s.deps.Pool.Open(id); ok { // no database read on the calls' path
			return sess.ServerName
		}
		if sess, err := s.deps.Sessions.GetSession(ctx, id); err == nil {
			return sess.ServerName
		}
	case "user":
		if u, err := s.deps.Accounts.User(ctx, id); err == nil {
			return u.Name
		}
	}
	return ""
}
