package web

import (
	"context"
	"net/http"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// sessionOnceKey holds, in the context of a page request, the *sessionRead
// that sessionOnce shares between the middlewares and the handler.
type sessionOnceKey struct{}

// sessionRead is the session of a page request, once read.
type sessionRead struct {
	mu   sync.Mutex
	id   int64
	sess backend.Session
	read bool
}

// readSessionOnce lets the page of a session (a GET under /sessions/:id,
// not a WebSocket, whose stream lives on while the session changes) read
// the session once however many of its parts ask for it (sessionOnce).
func readSessionOnce(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method == http.MethodGet && strings.HasPrefix(c.Path(), "/sessions/:id") && !isWebSocket(r) {
			c.SetRequest(r.WithContext(context.WithValue(r.Context(), sessionOnceKey{}, &sessionRead{})))
		}
		return next(c)
	}
}

// sessionOnce returns the session id: within a page request that
// readSessionOnce marked, as the first caller read it; otherwise, or when
// the read failed, as the store has it now.
func (s *Server) sessionOnce(ctx context.Context, id int64) (backend.Session, error) {
	memo, ok := ctx.Value(sessionOnceKey{}).(*sessionRead)
	if !ok {
		return s.deps.Sessions.GetSession(ctx, id)
	}
	memo.mu.Lock()
	defer memo.mu.Unlock()
	if memo.read && memo.id == id {
		return memo.sess, nil
	}
	sess, err := s.deps.Sessions.GetSession(ctx, id)
	if err == nil {
		memo.id, memo.sess, memo.read = id, sess, true
	}
	return sess, err
}
