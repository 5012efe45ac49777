package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
)

// CallTool calls the named tool with args, a JSON object (nil sends no
// arguments). A result with IsError set is returned as a result, not as an
// error: errors are protocol or transport failures only. opts are as for
// Call (WithProgress).
func (c *Client) CallTool(ctx context.Context, name string, args json.RawMessage, opts ...CallOption) (*CallToolResult, error) {
	params := struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
	}{name, args}
	raw, err := c.Call(ctx, "tools/call", params, opts...)
	if err != nil {
		return nil, err
	}
	var res CallToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("tools/call: malformed result: %w", err)
	}
	return &res, nil
}
