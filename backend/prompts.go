package backend

import (
	"context"
	"encoding/json"

	"github.com/mcp-playground/playground/mcpclient"
)

// MCP prompt and completion types, named here like those in mcptypes.go.
type (
	Prompt          = mcpclient.Prompt
	PromptArgument  = mcpclient.PromptArgument
	PromptMessage   = mcpclient.PromptMessage
	GetPromptResult = mcpclient.GetPromptResult
	CompletionRef   = mcpclient.CompletionRef
	CompleteResult  = mcpclient.CompleteResult
)

// ErrNoPrompts is Prompts' error for a server that does not declare the
// prompts capability; nothing is sent to such a server.
var ErrNoPrompts = Errorf(EConflict, "This server offers no prompts: it declares no prompts capability.")

// Prompts returns the session's prompts, listing them from the server (all
// pages of prompts/list, up to the client's page bound) the first time,
// whenever refresh is set and after the server said they changed
// (notifications/prompts/list_changed). It returns ErrNoPrompts for a
// server that declares no prompts capability. Like Call, it refuses to
// list them while recording fails.
func (p *Pool) Prompts(ctx context.Context, sessionID int64, refresh bool) ([]Prompt, error) {
	ls, err := p.get(sessionID)
	if err != nil {
		return nil, err
	}
	if !hasCapability(ls.client.InitializeResult().Capabilities, "prompts") {
		return nil, ErrNoPrompts
	}
	return ls.prompts.get(refresh, func() ([]Prompt, error) {
		if _, err := p.writable(sessionID); err != nil {
			return nil, err
		}
		prompts, err := ls.client.ListPrompts(ctx)
		if err != nil {
			return nil, ls.callError("prompts/list", err)
		}
		return prompts, nil
	})
}

// Prompt returns one prompt of the session by name, or an ENotFound *Error.
func (p *Pool) Prompt(ctx context.Context, sessionID int64, name string) (Prompt, error) {
	prompts, err := p.Prompts(ctx, sessionID, false)
	if err != nil {
		return Prompt{}, err
	}
	for _, pr := range prompts {
		if pr.Name == name {
			return pr, nil
		}
	}
	return Prompt{}, Errorf(ENotFound, "The server has no prompt named %q.", name)
}

// GetPrompt sends prompts/get for the named prompt with args (none when
// empty), tuned by o like CallWith. Like Call, a JSON-RPC error answer is
// a CallResult with Error set; Go errors mean no answer came.
func (p *Pool) GetPrompt(ctx context.Context, sessionID int64, name string, args map[string]string, o CallOptions) (CallResult, error) {
	params, err := json.Marshal(struct {
		Name      string            `json:"name"`
		Arguments map[string]string `json:"arguments,omitempty"`
	}{name, args})
	if err != nil {
		return CallResult{}, err
	}
	return p.CallWith(ctx, sessionID, "prompts/get", params, o)
}

// ErrNoCompletions is Complete's error for a server that does not declare
// the completions capability; nothing is sent to such a server.
var ErrNoCompletions = Errorf(EConflict, "This server does not offer completion: it declares no completions capability.")

// Complete asks the server for values of the argument argName of ref (a
// prompt or a resource template) that begin like value (completion/complete);
// contextArgs are the other arguments already filled in (nil sends none).
// It returns ErrNoCompletions, without sending anything, when the server
// does not declare the completions capability, and EUnavailable *Errors
// for a JSON-RPC error answer or no answer.
func (p *Pool) Complete(ctx context.Context, sessionID int64, ref CompletionRef, argName, value string, contextArgs map[string]string) (CompleteResult, error) {
	ls, err := p.writable(sessionID)
	if err != nil {
		return CompleteResult{}, err
	}
	if !hasCapability(ls.client.InitializeResult().Capabilities, "completions") {
		return CompleteResult{}, ErrNoCompletions
	}
	res, err := ls.client.Complete(ctx, mcpclient.CompleteRequest{Ref: ref, Argument: argName, Value: value, Context: contextArgs})
	if err != nil {
		return CompleteResult{}, ls.callError("completion/complete", err)
	}
	return *res, nil
}

// hasCapability reports whether a capabilities object declares name.
func hasCapability(caps json.RawMessage, name string) bool {
	var members map[string]json.RawMessage
	return json.Unmarshal(caps, &members) == nil && declared(members[name])
}
