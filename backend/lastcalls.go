package backend

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// ItemKind names what a remembered call was made on.
type ItemKind string

const (
	ItemTool     ItemKind = "tool"
	ItemPrompt   ItemKind = "prompt"
	ItemResource ItemKind = "resource"
)

// CallOutcome summarises how a call ended, for the last-call record.
type CallOutcome string

const (
	CallAnswered  CallOutcome = "result"    // a result came (it may be a tool error)
	CallRPCError  CallOutcome = "rpc-error" // a JSON-RPC error came
	CallFailed    CallOutcome = "failure"   // no answer: timeout, connection lost
	CallCancelled CallOutcome = "cancelled" // the user cancelled it
)

// LastCall is the last call made from the dashboard on one item of one
// server. It holds the arguments as the user sent them, never HTTP
// headers or other connection settings.
type LastCall struct {
	ServerID  int64
	Kind      ItemKind
	Name      string
	Arguments json.RawMessage // a JSON object
	SessionID int64
	// ResponseFrameID names the stored response, 0 when none came or it
	// could not be found.
	ResponseFrameID int64
	Outcome         CallOutcome
	Summary         string // why a call without a response failed
	Time            time.Time
}

// LastCallStore persists the last call of each item.
type LastCallStore interface {
	// PutLastCall stores c, replacing the last call of its item.
	PutLastCall(ctx context.Context, c LastCall) error
	// LastCall returns the server's last call on the item of kind named
	// name, and false when there was none.
	LastCall(ctx context.Context, serverID int64, kind ItemKind, name string) (LastCall, bool, error)
}

// LastCalls remembers, per server, the last call made on each item.
type LastCalls struct {
	store    LastCallStore
	sessions SessionStore
}

// NewLastCalls returns the service over store; sessions tells which server
// a session belongs to.
func NewLastCalls(store LastCallStore, sessions SessionStore) *LastCalls {
	return &LastCalls{store: store, sessions: sessions}
}

// Remember records a call made on the session's server: the item's kind
// and name, the arguments sent, and what came back (res and callErr as
// CallWith returned them). A session whose server was deleted records
// nothing.
func (l *LastCalls) Remember(ctx context.Context, sessionID int64, kind ItemKind, name string, args json.RawMessage, res CallResult, callErr error) error {
	sess, err := l.sessions.GetSession(ctx, sessionID)
	if err != nil {
		return err
	}
	if sess.ServerID == 0 {
		return nil
	}
	c := LastCall{
		ServerID: sess.ServerID, Kind: kind, Name: name, Arguments: args, SessionID: sessionID,
		ResponseFrameID: res.ResponseFrameID, Outcome: CallAnswered, Time: time.Now(),
	}
	switch {
	case errors.Is(callErr, ErrCallCancelled):
		c.Outcome, c.Summary = CallCancelled, "The call was cancelled before the server answered."
	case callErr != nil:
		c.Outcome, c.Summary = CallFailed, ErrorMessageOf(callErr)
	case res.Error != nil:
		c.Outcome, c.Summary = CallRPCError, res.Error.Message
	}
	if len(c.Arguments) == 0 {
		c.Arguments = json.RawMessage("{}")
	}
	return l.store.PutLastCall(ctx, c)
}

// Get returns the server's last call on the item of kind named name, and
// false when there was none.
func (l *LastCalls) Get(ctx context.Context, serverID int64, kind ItemKind, name string) (LastCall, bool, error) {
	return l.store.LastCall(ctx, serverID, kind, name)
}
