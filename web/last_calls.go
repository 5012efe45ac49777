package web

import (
	"context"
	"encoding/json"

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

// lastCall returns the server's last call on the item of kind named
// name; false when there was none or no store is configured.
func (s *Server) lastCall(ctx context.Context, serverID int64, kind backend.ItemKind, name string) (backend.LastCall, bool, error) {
	if s.deps.LastCalls == nil {
		return backend.LastCall{}, false, nil
	}
	return s.deps.LastCalls.Get(ctx, serverID, kind, name)
}

// withLastCall gives the card of tool, on the server's live session, the
// tool's last call: its arguments in the form and its outcome, rebuilt
// from the stored response. card is the page's own copy. A last call
// whose response cannot be read shows why on the card.
func (s *Server) withLastCall(ctx context.Context, serverID, sessionID int64, tool backend.Tool, card *views.ToolView) error {
	lc, ok, err := s.lastCall(ctx, serverID, backend.ItemTool, tool.Name)
	if err != nil || !ok {
		return err
	}
	card.LastArguments = lc.Arguments
	card.Values = schemaform.ValuesOf(card.Form, lc.Arguments)
	res, err := s.storedAnswer(ctx, lc)
	card.Outcome = outcomeOf(res, err, tool, sessionID)
	card.Outcome.From = originOf(lc)
	return nil
}

// withLastPrompt gives a prompt's card the prompt's last get on the
// server: its arguments in the form and its messages, rebuilt from the
// stored response.
func (s *Server) withLastPrompt(ctx context.Context, serverID int64, card *views.PromptView) error {
	lc, ok, err := s.lastCall(ctx, serverID, backend.ItemPrompt, card.Name)
	if err != nil || !ok {
		return err
	}
	card.Values = schemaform.ValuesOf(card.Form, lc.Arguments)
	res, err := s.storedAnswer(ctx, lc)
	card.Outcome = promptOutcomeOf(res, err)
	card.Outcome.Request.From = originOf(lc)
	return nil
}

// withLastRead gives a resource's card the resource's last read on the
// server, rebuilt from the stored response.
func (s *Server) withLastRead(ctx context.Context, serverID int64, d *views.ResourceDetail) error {
	lc, ok, err := s.lastCall(ctx, serverID, backend.ItemResource, d.Resource.URI)
	if err != nil || !ok {
		return err
	}
	res, err := s.storedAnswer(ctx, lc)
	v := resourceReadView(views.ResourceReadView{URI: d.Resource.URI}, res, err)
	v.From = originOf(lc)
	d.LastRead = &v
	return nil
}

// originOf says when and on which session a remembered call ran.
func originOf(lc backend.LastCall) *views.OutcomeOrigin {
	return &views.OutcomeOrigin{Time: lc.Time, SessionID: lc.SessionID}
}

// storedAnswer rebuilds what the call that lc remembers returned, as
// CallWith returned it: the result or JSON-RPC error read from its stored
// response frame, or an error that says why no answer can be shown
// (ErrCallCancelled for a cancelled call, the remembered summary for one
// that got no answer, or why the stored response cannot be read).
func (s *Server) storedAnswer(ctx context.Context, lc backend.LastCall) (backend.CallResult, error) {
	switch {
	case lc.Outcome == backend.CallCancelled:
		return backend.CallResult{}, backend.ErrCallCancelled
	case lc.ResponseFrameID == 0 && lc.Outcome == backend.CallFailed:
		return backend.CallResult{}, backend.Errorf(backend.EUnavailable, "%s", lc.Summary)
	case lc.ResponseFrameID == 0:
		return backend.CallResult{}, backend.Errorf(backend.EUnavailable, "The server answered; its answer is in the session's traffic, not shown again here.")
	}
	f, err := s.deps.Frames.GetFrame(ctx, lc.ResponseFrameID)
	if err != nil {
		return backend.CallResult{}, backend.Errorf(backend.EUnavailable, "The stored response cannot be read: %s", backend.ErrorMessageOf(err))
	}
	res, err := backend.StoredAnswer(f)
	if err != nil {
		return backend.CallResult{}, backend.Errorf(backend.EUnavailable, "The stored response is not JSON-RPC: %s", err.Error())
	}
	return res, nil
}
