package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
)

// maxListPages bounds how many pages a List helper fetches.
const maxListPages = 1000

// Page is one page of a list result (tools/list, resources/list,
// resources/templates/list, prompts/list).
type Page[T any] struct {
	Items      []T
	NextCursor string          // "" on the last page
	Raw        json.RawMessage // the whole result, as the server sent it
}

// ListToolsPage requests one page of tools/list: the first when cursor is
// "", else the one that cursor (a NextCursor) names.
func (c *Client) ListToolsPage(ctx context.Context, cursor string) (Page[Tool], error) {
	return listPage[Tool](ctx, c, "tools/list", "tools", cursor)
}

// ListTools returns every tool the server offers, following nextCursor
// page by page (see listAll for the guards). Each page is one Call, with
// the timeout of tools/list when ctx has no deadline.
func (c *Client) ListTools(ctx context.Context) ([]Tool, error) {
	return listAll[Tool](ctx, c, "tools/list", "tools")
}

// ListResourcesPage requests one page of resources/list.
func (c *Client) ListResourcesPage(ctx context.Context, cursor string) (Page[Resource], error) {
	return listPage[Resource](ctx, c, "resources/list", "resources", cursor)
}

// ListResources returns every resource, following nextCursor like ListTools.
func (c *Client) ListResources(ctx context.Context) ([]Resource, error) {
	return listAll[Resource](ctx, c, "resources/list", "resources")
}

// ListResourceTemplatesPage requests one page of resources/templates/list.
func (c *Client) ListResourceTemplatesPage(ctx context.Context, cursor string) (Page[ResourceTemplate], error) {
	return listPage[ResourceTemplate](ctx, c, "resources/templates/list", "resourceTemplates", cursor)
}

// ListResourceTemplates returns every resource template, following
// nextCursor like ListTools.
func (c *Client) ListResourceTemplates(ctx context.Context) ([]ResourceTemplate, error) {
	return listAll[ResourceTemplate](ctx, c, "resources/templates/list", "resourceTemplates")
}

// ListPromptsPage requests one page of prompts/list.
func (c *Client) ListPromptsPage(ctx context.Context, cursor string) (Page[Prompt], error) {
	return listPage[Prompt](ctx, c, "prompts/list", "prompts", cursor)
}

// ListPrompts returns every prompt, following nextCursor like ListTools.
func (c *Client) ListPrompts(ctx context.Context) ([]Prompt, error) {
	return listAll[Prompt](ctx, c, "prompts/list", "prompts")
}

// listPage requests one page of method and decodes its items from member
// key. A result without that member is an empty page.
func listPage[T any](ctx context.Context, c *Client, method, key, cursor string) (Page[T], error) {
	var params any
	if cursor != "" {
		params = struct {
			Cursor string `json:"cursor"`
		}{cursor}
	}
	raw, err := c.Call(ctx, method, params)
	if err != nil {
		return Page[T]{}, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return Page[T]{}, fmt.Errorf("%s: malformed result: %w", method, err)
	}
	page := Page[T]{Raw: raw}
	if items, ok := members[key]; ok {
		if err := json.Unmarshal(items, &page.Items); err != nil {
			return Page[T]{}, fmt.Errorf("%s: malformed %s: %w", method, key, err)
		}
	}
	if next, ok := members["nextCursor"]; ok {
		if err := json.Unmarshal(next, &page.NextCursor); err != nil {
			return Page[T]{}, fmt.Errorf("%s: malformed nextCursor: %w", method, err)
		}
	}
	return page, nil
}

// listAll follows nextCursor from the first page to the last and returns
// all items. It fails if the server repeats a cursor or sends more than
// maxListPages pages.
func listAll[T any](ctx context.Context, c *Client, method, key string) ([]T, error) {
	var all []T
	seen := make(map[string]bool)
	cursor := ""
	for range maxListPages {
		page, err := listPage[T](ctx, c, method, key, cursor)
		if err != nil {
			return nil, err
		}
		all = append(all, page.Items...)
		if page.NextCursor == "" {
			if all == nil {
				all = []T{}
			}
			return all, nil
		}
		if seen[page.NextCursor] {
			return nil, fmt.Errorf("%s: server repeated cursor %q", method, page.NextCursor)
		}
		seen[page.NextCursor] = true
		cursor = page.NextCursor
	}
	return nil, fmt.Errorf("%s: more than %d pages", method, maxListPages)
}
