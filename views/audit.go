package views

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// auditDetailsInline is how much of an audit event's details the table
// shows before they must be unfolded.
const auditDetailsInline = 120

// compactJSON is raw without insignificant space, with markup escapes
// undone (unescapeMarkup); raw unchanged when it is not JSON.
func compactJSON(raw []byte) string {
	var out bytes.Buffer
	if json.Compact(&out, raw) != nil {
		return string(raw)
	}
	return unescapeMarkup(out.String())
}

// cutText returns s cut to at most n bytes at a character boundary.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
