package web

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// The API's sessions: /api/v1/servers/:id/sessions and /api/v1/sessions/:id.

type apiSession struct {
	ID              int64      `json:"id"`
	ServerID        int64      `json:"serverId,omitempty"`
	ServerName      string     `json:"serverName"`
	Status          string     `json:"status"`
	CloseReason     string     `json:"closeReason,omitempty"`
	Era             string     `json:"era,omitempty"`
	ProtocolVersion string     `json:"protocolVersion,omitempty"`
	PeerName        string     `json:"peerName,omitempty"`
	PeerVersion     string     `json:"peerVersion,omitempty"`
	StartedAt       time.Time  `json:"startedAt"`
	EndedAt         *time.Time `json:"endedAt,omitempty"`
	// ImportedFrom is the file an imported, read-only session came from.
	ImportedFrom string `json:"importedFrom,omitempty"`
	// Excerpt says that an imported session's frames are not one
	// session's whole traffic from its start (backend.Session.Excerpt):
	// a linter of them leaves out the rules that need every frame.
	Excerpt bool `json:"excerpt,omitempty"`
}

func apiSessionOf(s backend.Session) *apiSession {
	out := &apiSession{ID: s.ID, ServerID: s.ServerID, ServerName: s.ServerName, Status: string(s.Status), CloseReason: s.CloseReason,
		Era: string(s.Era), ProtocolVersion: s.ProtocolVersion, PeerName: s.PeerName, PeerVersion: s.PeerVersion, StartedAt: s.StartedAt,
		ImportedFrom: s.ImportedFrom, Excerpt: s.Excerpt}
	if !s.EndedAt.IsZero() {
		out.EndedAt = &s.EndedAt
	}
	return out
}
func (s *Server) apiOpenSession(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), connectTimeout)
	defer cancel()
	sess, err := s.deps.Pool.Connect(connectingAs(ctx, c), id)
	if err != nil {
		if sess.ID == 0 {
			return err
		}
		out := apiError{Error: backend.ErrorMessageOf(err), Session: apiSessionOf(sess)}
		if d, ok := backend.DiagnosisOf(err); ok {
			out.Diagnosis = &d
		}
		var signIn *backend.OAuthSignInNeededError
		if errors.As(err, &signIn) {
			out.SignInURL = s.PublicURL("/servers/" + itoa(id) + "#authorization")
		}
		return c.JSON(statusOf(err), out)
	}
	return c.JSON(http.StatusCreated, apiSessionOf(sess))
}

func (s *Server) apiGetSession(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	sess, err := s.deps.Sessions.GetSession(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, apiSessionOf(sess))
}

func (s *Server) apiCloseSession(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	if err := s.deps.Pool.Disconnect(c.Request().Context(), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
