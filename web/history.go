package web

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// HistoryPageSize is how many exchanges a history page lists.
const HistoryPageSize = 50

// searchHistory lists the exchanges that the search box's query
// (backend.ParseHistoryQuery) and the server and outcome selects choose,
// newest first, a page at a time: ?before= names the exchange the page
// starts below. A malformed query is shown at the search box, with status 400.
func (s *Server) searchHistory(c echo.Context) error {
	before, err := queryInt[int64](c, "before", 0)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	d := views.HistoryPageData{Query: c.QueryParam("q"), Server: c.QueryParam("server"), Outcome: c.QueryParam("outcome"), Paged: before != 0}
	servers, err := s.deps.Registry.List(ctx)
	if err != nil {
		return err
	}
	for _, sv := range servers {
		d.Servers = append(d.Servers, sv.Name)
	}
	q, err := historyQueryOf(d)
	if err != nil {
		if backend.ErrorCodeOf(err) != backend.EInvalid {
			return err
		}
		d.Error = backend.ErrorMessageOf(err)
		return render(c, http.StatusBadRequest, views.HistoryPage(page(c, "History"), d))
	}
	d.Terms = q.Text
	if d.Entries, err = s.deps.History.SearchHistory(ctx, q, before, HistoryPageSize+1); err != nil {
		return err
	}
	if len(d.Entries) > HistoryPageSize {
		d.Entries = d.Entries[:HistoryPageSize]
		d.OlderURL = views.HistoryURL(d.Query, d.Server, d.Outcome, d.Entries[HistoryPageSize-1].ExchangeID())
	}
	return render(c, http.StatusOK, views.HistoryPage(page(c, "History"), d))
}

// historyQueryOf parses the search box and lets the selects, when set,
// choose the server and the outcome.
func historyQueryOf(d views.HistoryPageData) (backend.HistoryQuery, error) {
	q, err := backend.ParseHistoryQuery(d.Query, time.Now())
	if err != nil {
		return q, err
	}
	if d.Server != "" {
		q.Server = d.Server
	}
	if d.Outcome != "" {
		if q.Outcome, err = backend.ParseOutcome(d.Outcome); err != nil {
			return q, err
		}
	}
	return q, nil
}

// pathExchange reads the exchange that the :id (session) and :exchange
// (its request frame) path parameters name.
func (s *Server) pathExchange(c echo.Context) (backend.HistoryEntry, error) {
	sessionID, err := idParam(c)
	if err != nil {
		return backend.HistoryEntry{}, err
	}
	requestID, err := pathID(c, "exchange")
	if err != nil {
		return backend.HistoryEntry{}, err
	}
	return s.deps.History.GetExchange(c.Request().Context(), sessionID, requestID)
}

// showExchange is an exchange's permalink page: /sessions/:id/exchanges/:exchange,
// the exchange named by its request frame's id.
func (s *Server) showExchange(c echo.Context) error {
	e, err := s.pathExchange(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	var server *backend.Server
	if e.Session.ServerID != 0 {
		sv, err := s.deps.Registry.Get(ctx, e.Session.ServerID)
		switch {
		case err == nil:
			server = &sv
		case backend.ErrorCodeOf(err) != backend.ENotFound:
			return err
		}
	}
	d := views.ExchangePageData{Entry: e, Copies: exchangeCopies(e, server), Live: s.deps.Pool.LiveSessions()}
	if d.Idle, err = s.idleServers(ctx, d.Live); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ExchangePage(page(c, e.Request.Method+" · exchange "+itoa(e.ExchangeID())), d))
}

// replayTarget is the live session a replay form names: "ID" of a live
// session, or "server:ID" of a registered server, connected for it.
func (s *Server) replayTarget(ctx context.Context, value string) (int64, error) {
	if id, ok := strings.CutPrefix(value, "server:"); ok {
		serverID, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			return 0, backend.Errorf(backend.EInvalid, "Choose a server or a connected session to send the request on.")
		}
		sess, err := s.deps.Pool.Connect(ctx, serverID)
		if err != nil {
			return 0, backend.Errorf(backend.EUnavailable, "The server could not be connected: %s", backend.ErrorMessageOf(err))
		}
		return sess.ID, nil
	}
	sessionID, err := strconv.ParseInt(value, 10, 64)
	if err != nil {
		return 0, backend.Errorf(backend.EInvalid, "Choose a server or a connected session to send the request on.")
	}
	return sessionID, nil
}

// idleServers are the registered servers without one of the live sessions.
func (s *Server) idleServers(ctx context.Context, live []backend.Session) ([]backend.Server, error) {
	servers, err := s.deps.Registry.List(ctx)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(servers, func(srv backend.Server) bool {
		return slices.ContainsFunc(live, func(l backend.Session) bool { return l.ServerID == srv.ID })
	}), nil
}

// replayExchange sends an exchange's request again on the live session the
// form names and answers with the new answer judged against the recorded
// one, or with why nothing was sent.
func (s *Server) replayExchange(c echo.Context) error {
	e, err := s.pathExchange(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if e.Response.ID == 0 {
		return render(c, http.StatusOK, views.ReplayFailed("This request got no answer to compare with."))
	}
	target, err := s.replayTarget(connectingAs(ctx, c), c.FormValue("session"))
	if err != nil {
		return render(c, http.StatusOK, views.ReplayFailed(backend.ErrorMessageOf(err)))
	}
	r, err := s.deps.Collections.Replay(ctx, e.Response.ID, target)
	if err != nil {
		return render(c, http.StatusOK, views.ReplayFailed(backend.ErrorMessageOf(err)))
	}
	return render(c, http.StatusOK, views.RunResultCard(r))
}
