package backend

import (
	"context"
	"time"
)

// SessionStatus is the life-cycle state of a session.
type SessionStatus string

const (
	// SessionConnecting: the transport is starting or the handshake runs.
	SessionConnecting SessionStatus = "connecting"
	// SessionOpen: the handshake succeeded and calls can be sent.
	SessionOpen SessionStatus = "open"
	// SessionClosed: the session ended, by the user or because the server went away.
	SessionClosed SessionStatus = "closed"
	// SessionFailed: the session never opened; CloseReason says why.
	SessionFailed SessionStatus = "failed"
)

// Session is one connection to a server, live or past.
type Session struct {
	ID              int64
	ServerID        int64 // 0 when the server has since been deleted
	ServerName      string
	Transport       Transport
	Status          SessionStatus
	CloseReason     string
	Era             Era // the era the session speaks, once open
	ProtocolVersion string
	PeerName        string
	PeerVersion     string
	StartedAt       time.Time
	EndedAt         time.Time // zero while the session is live
	// ImportedFrom, when set, is the name of the export file the session
	// was imported from (SessionImporter), at ImportedAt: such a session
	// is read-only, and nothing is ever sent on it.
	ImportedFrom string
	ImportedAt   time.Time
	// Excerpt says, of an imported session, that its frames are not one
	// session's whole traffic from its start (see
	// ExportLinter.Merged): a linter of them, as of its export, leaves
	// out the rules that need every frame. A recorded session is never
	// an excerpt.
	Excerpt bool
}

// Imported reports whether the session was imported from a file rather
// than recorded.
func (s Session) Imported() bool { return s.ImportedFrom != "" }

// Live reports whether the session may still carry traffic.
func (s Session) Live() bool {
	return s.Status == SessionConnecting || s.Status == SessionOpen
}

// SessionStore persists sessions.
type SessionStore interface {
	// CreateSession inserts s (its ID is ignored) and returns the new id.
	CreateSession(ctx context.Context, s Session) (int64, error)
	// MarkSessionOpen records a successful handshake: s.ID's status becomes
	// open, with s's Era, ProtocolVersion, PeerName and PeerVersion.
	MarkSessionOpen(ctx context.Context, s Session) error
	// EndSession sets a final status (closed or failed), the reason and the end time.
	EndSession(ctx context.Context, id int64, status SessionStatus, reason string, at time.Time) error
	// GetSession returns the session or an ENotFound *Error.
	GetSession(ctx context.Context, id int64) (Session, error)
	// ListSessions returns at most limit sessions with an id below beforeID
	// (0: the newest), newest first; serverID 0 means all servers.
	ListSessions(ctx context.Context, serverID, beforeID int64, limit int) ([]Session, error)
	// EndLiveSessions closes every session still marked live, with reason;
	// it runs at start-up, when no session can be live.
	EndLiveSessions(ctx context.Context, reason string, at time.Time) (int64, error)
	// SaveDiagnosis keeps d, already redacted, as the diagnosis of the
	// failed session id, in place of any earlier one.
	SaveDiagnosis(ctx context.Context, id int64, d Diagnosis) error
	// Diagnosis returns the diagnosis saved for session id; ok is false
	// when there is none.
	Diagnosis(ctx context.Context, id int64) (d Diagnosis, ok bool, err error)
}
