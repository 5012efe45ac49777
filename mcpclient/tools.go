package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
)

// maxListPages bounds how many pages ListTools fetches.
const maxListPages = 1000

// ListTools returns every tool the server offers, following nextCursor page
// by page. It fails if the server repeats a cursor or sends more than 1000
// pages. Each page is one Call, so a ctx without deadline bounds each page
// by Options.RequestTimeout.
func (c *Client) ListTools(ctx context.Context) ([]Tool, error) {
	var tools []Tool
	seen := make(map[string]bool)
	cursor := ""
	for range maxListPages {
		var params any
		if cursor != "" {
			params = map[string]string{"cursor": cursor}
		}
		raw, err := c.Call(ctx, "tools/list", params)
		if err != nil {
			return nil, err
		}
		var page struct {
			Tools      []Tool `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return nil, fmt.Errorf("tools/list: malformed result: %w", err)
		}
		tools = append(tools, page.Tools...)
		if page.NextCursor == "" {
			return tools, nil
		}
		if seen[page.NextCursor] {
			return nil, fmt.Errorf("tools/list: server repeated cursor %q", page.NextCursor)
		}
		seen[page.NextCursor] = true
		cursor = page.NextCursor
	}
	return nil, fmt.Errorf("tools/list: more than %d pages", maxListPages)
}

// CallTool calls the named tool with args, a JSON object (nil sends no
// arguments). A result with IsError set is returned as a result, not as an
// error: errors are protocol or transport failures only.
func (c *Client) CallTool(ctx context.Context, name string, args json.RawMessage) (*CallToolResult, error) {
	params := struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
	}{name, args}
	raw, err := c.Call(ctx, "tools/call", params)
	if err != nil {
		return nil, err
	}
	var res CallToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("tools/call: malformed result: %w", err)
	}
	return &res, nil
}
