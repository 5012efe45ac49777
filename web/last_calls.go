package web

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/schemaform"
	"github.com/mcp-playground/playground/views"
)

// LastCallService remembers the last call made from the page on each item
// of a server; *backend.LastCalls implements it.
type LastCallService interface {
	Remember(ctx context.Context, sessionID int64, kind backend.ItemKind, name string, args json.RawMessage, res backend.CallResult, callErr error) error
	Get(ctx context.Context, serverID int64, kind backend.ItemKind, name string) (backend.LastCall, bool, error)
}

// rememberCall stores a call made from the page as its item's last call,
// and returns why it could not, for the card to say; "" when it was
// stored or no store is configured.
func (s *Server) rememberCall(ctx context.Context, sessionID int64, kind backend.ItemKind, name string, args json.RawMessage, res backend.CallResult, callErr error) string {
	if s.deps.LastCalls == nil {
		return ""
	}
	if err := s.deps.LastCalls.Remember(context.WithoutCancel(ctx), sessionID, kind, name, args, res, callErr); err != nil {
		s.deps.Log.Error("last call not stored", "session", sessionID, "name", name, "err", err)
		return backend.ErrorMessageOf(err)
	}
	return ""
}

// withLastCall gives the card of tool, on the server's live session, the
// tool's last call: its arguments in the form and its outcome, rebuilt
// from the stored response. card is the page's own copy. A last call
// whose response cannot be read shows why on the card.
func (s *Server) withLastCall(ctx context.Context, serverID, sessionID int64, tool backend.Tool, card *views.ToolView) error {
	if s.deps.LastCalls == nil {
		return nil
	}
	lc, ok, err := s.deps.LastCalls.Get(ctx, serverID, backend.ItemTool, tool.Name)
	if err != nil || !ok {
		return err
	}
	card.LastArguments = lc.Arguments
	card.Values = schemaform.ValuesOf(card.Form, lc.Arguments)
	card.Outcome = s.storedOutcome(ctx, lc, tool, sessionID)
	return nil
}

// storedOutcome rebuilds the outcome of a remembered call from its stored
// response frame, or from its summary when no response came.
func (s *Server) storedOutcome(ctx context.Context, lc backend.LastCall, tool backend.Tool, sessionID int64) *views.ToolOutcome {
	origin := &views.OutcomeOrigin{Time: lc.Time, SessionID: lc.SessionID}
	switch {
	case lc.Outcome == backend.CallCancelled:
		return &views.ToolOutcome{Kind: views.OutcomeCancelled, From: origin}
	case lc.ResponseFrameID == 0 && lc.Outcome == backend.CallFailed:
		return &views.ToolOutcome{Kind: views.OutcomeFailure, Message: lc.Summary, From: origin}
	case lc.ResponseFrameID == 0:
		return &views.ToolOutcome{Kind: views.OutcomeFailure, Message: "The server answered; its answer is in the session's traffic, not shown again here.", From: origin}
	}
	f, err := s.deps.Frames.GetFrame(ctx, lc.ResponseFrameID)
	if err != nil {
		return &views.ToolOutcome{Kind: views.OutcomeFailure, Message: "The stored response cannot be read: " + backend.ErrorMessageOf(err), From: origin}
	}
	var env struct {
		Result json.RawMessage       `json:"result"`
		Error  *backend.JSONRPCError `json:"error"`
	}
	if err := json.Unmarshal(f.Body, &env); err != nil {
		return &views.ToolOutcome{Kind: views.OutcomeFailure, Message: "The stored response is not JSON-RPC: " + err.Error(), From: origin}
	}
	res := backend.CallResult{Result: env.Result, Error: env.Error, Latency: time.Duration(f.LatencyNS), ResponseFrameID: f.ID}
	o := outcomeOf(res, nil, tool, sessionID)
	o.From = origin
	return o
}
