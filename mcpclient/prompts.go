package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
)

// Prompt is one entry of a prompts/list result.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
	Icons       json.RawMessage  `json:"icons,omitempty"`
	Meta        json.RawMessage  `json:"_meta,omitempty"`
}

// PromptArgument describes one argument a prompt accepts.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// PromptMessage is one message of a prompts/get result. Role is "user" or
// "assistant".
type PromptMessage struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// GetPromptResult is the result of prompts/get.
type GetPromptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
	Raw         json.RawMessage `json:"-"` // the whole result, as the server sent it
}

// GetPrompt gets the named prompt filled in with args (prompts/get); nil
// args sends none.
func (c *Client) GetPrompt(ctx context.Context, name string, args map[string]string) (*GetPromptResult, error) {
	raw, err := c.Call(ctx, "prompts/get", struct {
		Name      string            `json:"name"`
		Arguments map[string]string `json:"arguments,omitempty"`
	}{name, args})
	if err != nil {
		return nil, err
	}
	res := GetPromptResult{Raw: raw}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("prompts/get: malformed result: %w", err)
	}
	return &res, nil
}
