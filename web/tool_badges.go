package web

import (
	"encoding/json"

	"github.com/mcp-playground/playground/views"
)

// toolHints are a tool's annotations (ToolAnnotations); nil means the
// server left the hint out.
type toolHints struct {
	ReadOnly    *bool `json:"readOnlyHint"`
	Destructive *bool `json:"destructiveHint"`
	Idempotent  *bool `json:"idempotentHint"`
	OpenWorld   *bool `json:"openWorldHint"`
}

// parseToolHints reads a tool's annotations; annotations that are absent
// or not an object give no hints.
func parseToolHints(raw json.RawMessage) toolHints {
	var h toolHints
	if len(raw) == 0 || json.Unmarshal(raw, &h) != nil {
		return toolHints{}
	}
	return h
}

// modifies reports whether the tool may modify its environment: it does
// not say readOnlyHint true (the protocol's default is false).
func (h toolHints) modifies() bool { return h.ReadOnly == nil || !*h.ReadOnly }

// destructive reports whether calling the tool needs an explicit
// confirmation: it may modify (readOnlyHint absent or false) and its server
// says destructiveHint true outright. The protocol defaults destructiveHint
// to true, so by the letter every tool without annotations "may be
// destructive"; asking before each of those calls would be noise that
// teaches people to click through, so only an explicit true asks, and a
// tool that leaves the hint out gets the softer "may modify" badge. The
// hints are the server's word, not a guarantee.
func (h toolHints) destructive() bool {
	return h.modifies() && h.Destructive != nil && *h.Destructive
}

// toolBadges turns a tool's annotations into badges: read-only; for a tool
// that may modify, destructive (explicit true), non-destructive (explicit
// false) or, when destructiveHint is left out, "may modify"; idempotent;
// and an explicit open or closed world.
func toolBadges(h toolHints) []views.ToolBadge {
	var out []views.ToolBadge
	add := func(hint *bool, when bool, b views.ToolBadge) {
		if hint != nil && *hint == when {
			out = append(out, b)
		}
	}
	add(h.ReadOnly, true, views.ToolBadge{Label: "read-only", Title: "readOnlyHint: the tool does not modify its environment", Kind: "readonly"})
	if h.modifies() { // destructiveHint means something only for a tool that modifies
		add(h.Destructive, true, views.ToolBadge{Label: "destructive", Title: "destructiveHint: the tool may delete or overwrite; calling it asks for a confirmation", Kind: "destructive"})
		add(h.Destructive, false, views.ToolBadge{Label: "non-destructive", Title: "destructiveHint false: the tool only adds", Kind: "other"})
		if h.Destructive == nil {
			out = append(out, views.ToolBadge{Label: "may modify", Title: "The server does not say the tool is read-only or whether it destroys: it may modify its environment", Kind: "modifies"})
		}
	}
	add(h.Idempotent, true, views.ToolBadge{Label: "idempotent", Title: "idempotentHint: calling it again with the same arguments has no further effect", Kind: "other"})
	add(h.OpenWorld, true, views.ToolBadge{Label: "open world", Title: "openWorldHint: the tool reaches outside entities (the web, other systems)", Kind: "other"})
	add(h.OpenWorld, false, views.ToolBadge{Label: "closed world", Title: "openWorldHint false: the tool's world is closed", Kind: "other"})
	return out
}
