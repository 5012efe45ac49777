package views

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/mcp-playground/playground/backend"
)

// frameMark is what a traffic row says of a frame's outcome at a glance:
// a CSS class and a short label, both empty for an ordinary frame.
type frameMark struct{ class, label string }

// markOf marks JSON-RPC errors, tool results with isError, malformed
// input, and the level of log notifications. It reads only what the row
// holds (a body may be a preview), by cheap byte checks: a row is
// rendered for every viewer of a busy session.
func markOf(f backend.Frame) frameMark {
	switch {
	case f.Kind == backend.KindParseError:
		return frameMark{"marked-error", "malformed"}
	case f.RPCType == backend.RPCError:
		label := "error"
		var m struct {
			Error struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if !f.Partial() && json.Unmarshal(f.Body, &m) == nil && m.Error.Code != 0 {
			label += " " + strconv.Itoa(m.Error.Code)
		}
		return frameMark{"marked-error", label}
	case f.ToolError:
		return frameMark{"marked-tool-error", "isError"}
	case f.Method == "notifications/message":
		if level := stringMember(f.Body, "level"); level != "" {
			return frameMark{"level-" + cssWord(level), level}
		}
	}
	return frameMark{}
}

// stringMember finds `"name":"value"` (a space after the colon allowed) in
// body and returns value, or "" when there is none or it holds an escape.
func stringMember(body []byte, name string) string {
	for _, key := range []string{`"` + name + `":"`, `"` + name + `": "`} {
		if i := bytes.Index(body, []byte(key)); i >= 0 {
			rest := body[i+len(key):]
			if j := bytes.IndexByte(rest, '"'); j > 0 && j <= 32 && bytes.IndexByte(rest[:j], '\\') < 0 {
				return string(rest[:j])
			}
		}
	}
	return ""
}

// cssWord keeps the letters of s, lower-cased, for a class name.
func cssWord(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return -1
	}, s)
}

// excerptLen is how much of a body a compact traffic row shows.
const excerptLen = 160

// excerptOf is the start of a frame's body on one line, for a compact
// row, without what the row already says (the jsonrpc version, the id and
// the method of a message).
func excerptOf(f backend.Frame) string {
	head := textHead(f.Body, excerptLen+64)
	isJSON := looksLikeJSON(f.Body)
	if isJSON && f.Kind == backend.KindMessage {
		for _, said := range []string{`"jsonrpc":"2.0",`, `"id":` + f.RPCID + `,`, `"method":"` + f.Method + `",`} {
			head = strings.Replace(head, said, "", 1)
		}
	}
	text := strings.Join(strings.Fields(head), " ")
	if cut := textHead([]byte(text), excerptLen); len(cut) < len(text) || f.Size() > excerptLen+64 {
		text = cut + "…"
	}
	if isJSON {
		text = unescapeMarkup(text)
	}
	return text
}

// looksLikeJSON reports whether body starts as a JSON object or array.
func looksLikeJSON(body []byte) bool {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	return len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[')
}
