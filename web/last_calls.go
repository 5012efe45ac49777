package web

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// LastCallService remembers the last call made from the page on each item
// of a server; *backend.LastCalls implements it.
type LastCallService interface {
	Remember(ctx context.Context, sessionID int64, kind backend.ItemKind, name string, args json.RawMessage, res backend.CallResult, callErr error) error
	ForServer(ctx context.Context, serverID int64, kind backend.ItemKind) (map[string]backend.LastCall, error)
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

// withLastCalls gives each tool card of the server's live session the
// tool's last call: its arguments in the form and its outcome, rebuilt
// from the stored response. views are the page's own copies. A last call
// whose response cannot be read shows why on its card.
func (s *Server) withLastCalls(ctx context.Context, serverID, sessionID int64, tools []backend.Tool, cards []views.ToolView) error {
	if s.deps.LastCalls == nil {
		return nil
	}
	last, err := s.deps.LastCalls.ForServer(ctx, serverID, backend.ItemTool)
	if err != nil || len(last) == 0 {
		return err
	}
	for i := range cards {
		lc, ok := last[cards[i].Name]
		if !ok {
			continue
		}
		cards[i].LastArguments = lc.Arguments
		cards[i].Values = map[string]string{backend.RawField: string(lc.Arguments)}
		cards[i].Outcome = s.storedOutcome(ctx, lc, tools[i], sessionID)
	}
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
		return &views.ToolOutcome{Kind: views.OutcomeFailure, Message: "The server answered, but its response was not stored.", From: origin}
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
