package web

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/oauth"
	"github.com/mcp-playground/playground/backend/schemaform"
	"github.com/mcp-playground/playground/views"
)

const (
	connectTimeout   = 30 * time.Second
	listToolsTimeout = 10 * time.Second
	recentSessions   = 20
)

// explorerPage renders a section of a server's page: the server, its
// connection and, while connected, the waiting requests and the traffic
// around the section's body. body builds the section for the live session,
// or for none (live nil); a section that needs a session may return
// views.NotConnected.
func (s *Server) explorerPage(c echo.Context, section views.Section, body func(srv backend.Server, live *backend.Session) (templ.Component, error)) error {
	return s.explorerPageWith(c, http.StatusOK, section, body)
}

// explorerPageWith is explorerPage answered with status.
func (s *Server) explorerPageWith(c echo.Context, status int, section views.Section, body func(srv backend.Server, live *backend.Session) (templ.Component, error)) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	srv, err := s.deps.Registry.Get(ctx, id)
	if err != nil {
		return err
	}
	d := views.ExplorerData{Server: srv.Redacted(), Section: section}
	d.Split = c.QueryParam("split") == "1" && srv.Transport == backend.TransportStdio && len(srv.Args) > 0
	d.Moved = takeDestinationNotice(c, srv.ID)
	if d.ConnectError, d.Diagnosis, err = s.connectFailure(c, srv.ID); err != nil {
		return err
	}
	if live, ok := s.deps.Pool.LiveSession(id); ok {
		d.Live = &live
		d.Inputs = s.inputViews(live.ID)
		if d.Frames, err = s.framePage(ctx, live.ID, 0, backend.FrameFilter{}); err != nil {
			return err
		}
	}
	comp, err := body(d.Server, d.Live)
	if err != nil {
		return err
	}
	return render(c, status, views.Explorer(page(c, srv.Name), d, comp))
}

// showServer is a server's Overview: what the live session knows of the
// server, what changed in its interface, and the server's recent sessions.
func (s *Server) showServer(c echo.Context) error {
	return s.overviewPage(c, http.StatusOK, nil)
}

// overviewPage is the Overview answered with status; refused, when set,
// is OAuth settings a save refused, shown with their errors.
func (s *Server) overviewPage(c echo.Context, status int, refused *views.OAuthSettingsForm) error {
	return s.explorerPageWith(c, status, views.SectionOverview, func(srv backend.Server, live *backend.Session) (templ.Component, error) {
		var v views.OverviewSectionView
		if live != nil {
			if o, err := s.deps.Pool.Overview(live.ID); err == nil {
				v.Overview = &o
			}
		}
		var err error
		if v.Drift, err = s.driftView(c.Request().Context(), srv.ID, live); err != nil {
			return nil, err
		}
		if v.OAuth, err = s.oauthCard(c, srv, refused); err != nil {
			return nil, err
		}
		if v.Sessions, err = s.deps.Sessions.ListSessions(c.Request().Context(), srv.ID, 0, recentSessions); err != nil {
			return nil, err
		}
		v.Findings, err = s.deps.Frames.CountFindings(c.Request().Context(), sessionIDs(v.Sessions)...)
		return views.OverviewSection(v), err
	})
}

// showConsole is a server's Console section.
func (s *Server) showConsole(c echo.Context) error {
	return s.explorerPage(c, views.SectionConsole, func(srv backend.Server, live *backend.Session) (templ.Component, error) {
		if live == nil {
			return views.NotConnected(page(c, ""), srv.ID, "console"), nil
		}
		return views.ConsoleCard(live.ID, views.ConsoleView{Methods: backend.ConsoleMethods(live.Era)}), nil
	})
}

// pingTimeout bounds how long the Ping button waits for the server.
const pingTimeout = 10 * time.Second

// pingSession sends ping on a live session and answers with the Ping
// control, showing the round trip or why there was none.
func (s *Server) pingSession(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), pingTimeout)
	defer cancel()
	v := views.PingView{Sent: true}
	if v.Latency, err = s.deps.Pool.Ping(ctx, id); err != nil {
		v.Error = backend.ErrorMessageOf(err)
	}
	return render(c, http.StatusOK, views.PingControl(id, v))
}

// connectServer opens a session and returns to the server page, naming
// the session when the connection failed (see connectFailure); or, when
// the form names a local page to return to (returnPath), to that page,
// which shows a failure itself (the servers list does, on the server's row).
func (s *Server) connectServer(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	return s.connectAndReturn(c, id)
}

// connectAndReturn is connectServer for server id.
func (s *Server) connectAndReturn(c echo.Context, id int64) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), connectTimeout)
	defer cancel()
	target, back := returnPath(c)
	if !back {
		target = "/servers/" + itoa(id)
	}
	if _, live := s.deps.Pool.LiveSession(id); live {
		return c.Redirect(http.StatusSeeOther, target)
	}
	if sess, err := s.deps.Pool.Connect(connectingAs(ctx, c), id); err != nil {
		if backend.ErrorCodeOf(err) != backend.EUnavailable {
			return err
		}
		// Without a session (recording fails), the page's banner says why.
		if sess.ID != 0 && !back {
			target += "?failed=" + itoa(sess.ID)
		}
	}
	return c.Redirect(http.StatusSeeOther, target)
}

// connectFailure returns why the session that ?failed= names failed to
// connect, read from the database (a link cannot make the page say
// anything else), and the connection doctor's diagnosis while the pool
// keeps it. Without the parameter it is the server's newest session that
// it returns when that one failed, so the page says why until a connect
// succeeds (or the session is closed). It is "" when that session is not
// a failed session of this server.
func (s *Server) connectFailure(c echo.Context, serverID int64) (string, *backend.Diagnosis, error) {
	id, err := queryInt[int64](c, "failed", 0)
	if err != nil {
		return "", nil, err
	}
	if id == 0 {
		newest, err := s.deps.Sessions.ListSessions(c.Request().Context(), serverID, 0, 1)
		if err != nil || len(newest) == 0 {
			return "", nil, err
		}
		id = newest[0].ID
	}
	sess, err := s.deps.Sessions.GetSession(c.Request().Context(), id)
	if backend.ErrorCodeOf(err) == backend.ENotFound || (err == nil && (sess.ServerID != serverID || sess.Status != backend.SessionFailed)) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	d, ok, err := s.deps.Sessions.Diagnosis(c.Request().Context(), id)
	if err != nil {
		return "", nil, err
	}
	if ok {
		if s.deps.OAuth != nil {
			settings, err := s.deps.OAuth.Settings(c.Request().Context(), serverID)
			if err != nil {
				return "", nil, err
			}
			if settings.Machine() {
				d = oauth.ClientCredentialsDiagnosis(d)
			}
		}
		return sess.CloseReason, &d, nil
	}
	return sess.CloseReason, nil, nil
}

func (s *Server) disconnectSession(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	sess, err := s.deps.Sessions.GetSession(c.Request().Context(), id)
	if err != nil {
		return err
	}
	if err := s.deps.Pool.Disconnect(c.Request().Context(), id); err != nil && backend.ErrorCodeOf(err) != backend.EConflict {
		return err
	}
	if target, ok := returnPath(c); ok {
		return c.Redirect(http.StatusSeeOther, target)
	}
	if sess.ServerID == 0 {
		return c.Redirect(http.StatusSeeOther, "/sessions/"+itoa(id))
	}
	return c.Redirect(http.StatusSeeOther, "/servers/"+itoa(sess.ServerID))
}

// toolViewCache keeps, for each live session, the views of the tool list
// the pool last returned: building a tool's form parses its schema, which
// for a server with hundreds of tools costs more than rendering the page.
// The pool returns the same slice until it lists the tools again.
type toolViewCache struct {
	mu      sync.Mutex
	entries map[int64]cachedToolViews // by session
}

type cachedToolViews struct {
	tools []backend.Tool
	views []views.ToolView
}

// get returns the views of tools, the session's tool list; callers must
// not modify them. Entries of sessions that live reports ended are dropped
// whenever a list is added.
func (c *toolViewCache) get(sessionID int64, tools []backend.Tool, live func(sessionID int64) bool) []views.ToolView {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[sessionID]; ok && sameSlice(e.tools, tools) {
		return e.views
	}
	out := make([]views.ToolView, len(tools))
	for i, t := range tools {
		out[i] = toolView(t)
	}
	if c.entries == nil {
		c.entries = map[int64]cachedToolViews{}
	}
	for id := range c.entries {
		if id != sessionID && !live(id) {
			delete(c.entries, id)
		}
	}
	c.entries[sessionID] = cachedToolViews{tools: tools, views: out}
	return out
}

// sameSlice reports whether a and b are the same slice: the same elements
// in the same memory.
func sameSlice(a, b []backend.Tool) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// toolView is a tool's card before anyone fills it in: its fields hold
// the schema's defaults.
func toolView(t backend.Tool) views.ToolView {
	form := schemaform.Parse(t.InputSchema)
	hints := parseToolHints(t.Annotations)
	return views.ToolView{
		Name: t.Name, Title: t.Title, Description: t.Description, Badges: toolBadges(hints),
		InputSchema: prettyJSON(t.InputSchema), Form: form, Values: form.Defaults(),
		TaskSupport: t.TaskSupport(), Destructive: hints.destructive(),
	}
}

func prettyJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	out, err := json.MarshalIndent(raw, "", "  ")
	if err != nil {
		return string(raw)
	}
	return string(out)
}
