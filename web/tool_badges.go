package web

import (
	"encoding/json"

	"github.com/mcp-playground/playground/views"
)

// toolBadges turns a tool's annotations into badges. Only hints the server
// states are shown: the protocol's defaults (not read-only, destructive,
// not idempotent, open world) are assumptions, not information.
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
	add := func(hint *bool, yes, no views.ToolBadge) {
		switch {
		case hint == nil:
		case *hint:
			out = append(out, yes)
		default:
			out = append(out, no)
		}
	}
	add(a.ReadOnly, views.ToolBadge{Label: "read-only", Title: "readOnlyHint: the tool does not modify its environment", Kind: "readonly"},
		views.ToolBadge{Label: "modifies", Title: "readOnlyHint false: the tool may modify its environment", Kind: "other"})
	if a.ReadOnly == nil || !*a.ReadOnly { // destructiveHint means something only for a tool that modifies
		add(a.Destructive, views.ToolBadge{Label: "destructive", Title: "destructiveHint: the tool may delete or overwrite", Kind: "destructive"},
			views.ToolBadge{Label: "non-destructive", Title: "destructiveHint false: the tool only adds", Kind: "other"})
	}
	add(a.Idempotent, views.ToolBadge{Label: "idempotent", Title: "idempotentHint: calling it again with the same arguments has no further effect", Kind: "other"},
		views.ToolBadge{Label: "not idempotent", Title: "idempotentHint false: repeated calls may have further effects", Kind: "other"})
	add(a.OpenWorld, views.ToolBadge{Label: "open world", Title: "openWorldHint: the tool reaches outside entities (the web, other systems)", Kind: "other"},
		views.ToolBadge{Label: "closed world", Title: "openWorldHint false: the tool's world is closed", Kind: "other"})
	return out
}
