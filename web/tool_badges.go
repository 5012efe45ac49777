package web

import (
	"encoding/json"

	"github.com/mcp-playground/playground/views"
)

// toolBadges turns a tool's annotations into badges: each hint that says
// more than the protocol's default (not read-only, destructive, not
// idempotent, open world) and an explicit destructive or open-world hint.
func toolBadges(raw json.RawMessage) []views.ToolBadge {
	var a struct {
		ReadOnly    *bool `json:"readOnlyHint"`
		Destructive *bool `json:"destructiveHint"`
		Idempotent  *bool `json:"idempotentHint"`
		OpenWorld   *bool `json:"openWorldHint"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &a) != nil {
		return nil
	}
	var out []views.ToolBadge
	add := func(hint *bool, when bool, b views.ToolBadge) {
		if hint != nil && *hint == when {
			out = append(out, b)
		}
	}
	add(a.ReadOnly, true, views.ToolBadge{Label: "read-only", Title: "readOnlyHint: the tool does not modify its environment", Kind: "readonly"})
	if a.ReadOnly == nil || !*a.ReadOnly { // destructiveHint means something only for a tool that modifies
		add(a.Destructive, true, views.ToolBadge{Label: "destructive", Title: "destructiveHint: the tool may delete or overwrite", Kind: "destructive"})
		add(a.Destructive, false, views.ToolBadge{Label: "non-destructive", Title: "destructiveHint false: the tool only adds", Kind: "other"})
	}
	add(a.Idempotent, true, views.ToolBadge{Label: "idempotent", Title: "idempotentHint: calling it again with the same arguments has no further effect", Kind: "other"})
	add(a.OpenWorld, true, views.ToolBadge{Label: "open world", Title: "openWorldHint: the tool reaches outside entities (the web, other systems)", Kind: "other"})
	add(a.OpenWorld, false, views.ToolBadge{Label: "closed world", Title: "openWorldHint false: the tool's world is closed", Kind: "other"})
	return out
}
