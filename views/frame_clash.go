package views

import "github.com/mcp-playground/playground/backend"

// clashLabel is the badge text of a frame whose JSON-RPC id clashed with a
// pending request, "" for any other frame.
func clashLabel(f backend.Frame) string {
	switch f.Clash {
	case backend.ClashDuplicate:
		return "duplicate id"
	case backend.ClashAmbiguous:
		return "ambiguous response"
	}
	return ""
}
