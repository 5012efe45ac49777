package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
)

// CompletionRef names what an argument being completed belongs to: a
// prompt (Type "ref/prompt", Name) or a resource template (Type
// "ref/resource", URI holding the URI template).
type CompletionRef struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
	URI  string `json:"uri,omitempty"`
}

// PromptRef returns the CompletionRef of the named prompt.
func PromptRef(name string) CompletionRef { return CompletionRef{Type: "ref/prompt", Name: name} }

// ResourceTemplateRef returns the CompletionRef of a resource template.
func ResourceTemplateRef(uriTemplate string) CompletionRef {
	return CompletionRef{Type: "ref/resource", URI: uriTemplate}
}

// CompleteRequest asks for completions of the value of one argument.
type CompleteRequest struct {
	Ref      CompletionRef
	Argument string            // the argument's name
	Value    string            // what has been typed so far
	Context  map[string]string // arguments already chosen; nil sends none
}

// CompleteResult is the result of completion/complete. Total is 0 when the
// server did not say.
type CompleteResult struct {
	Values  []string
	Total   int
	HasMore bool
	Raw     json.RawMessage // the whole result, as the server sent it
}

// Complete asks the server for completions (completion/complete).
func (c *Client) Complete(ctx context.Context, req CompleteRequest) (*CompleteResult, error) {
	type argument struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	type completeContext struct {
		Arguments map[string]string `json:"arguments"`
	}
	params := struct {
		Ref      CompletionRef    `json:"ref"`
		Argument argument         `json:"argument"`
		Context  *completeContext `json:"context,omitempty"`
	}{Ref: req.Ref, Argument: argument{req.Argument, req.Value}}
	if req.Context != nil {
		params.Context = &completeContext{req.Context}
	}
	raw, err := c.Call(ctx, "completion/complete", params)
	if err != nil {
		return nil, err
	}
	var res struct {
		Completion struct {
			Values  []string `json:"values"`
			Total   int      `json:"total"`
			HasMore bool     `json:"hasMore"`
		} `json:"completion"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("completion/complete: malformed result: %w", err)
	}
	return &CompleteResult{Values: res.Completion.Values, Total: res.Completion.Total, HasMore: res.Completion.HasMore, Raw: raw}, nil
}
