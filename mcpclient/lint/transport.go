package lint

import (
	"encoding/json"
	"fmt"
	"mime"

	"github.com/mcp-playground/playground/mcpclient"
)

// transport checks an inbound HTTP frame's status and Content-Type
// against its body.
func (l *Linter) transport(f Frame, body []byte, out *findings) {
	if !f.HTTP || f.Direction != mcpclient.Inbound {
		return
	}
	if f.ContentType != "" {
		mt, _, _ := mime.ParseMediaType(f.ContentType)
		if mt != "application/json" && mt != "text/event-stream" {
			out.add(ruleContentTypeHeader, "", fmt.Sprintf("The message came with Content-Type %q.", f.ContentType))
		}
	}
	if f.HTTPStatus >= 300 {
		var m map[string]json.RawMessage
		if json.Unmarshal(body, &m) == nil && m["result"] != nil {
			out.add(ruleHTTPStatus, "/result", fmt.Sprintf("A JSON-RPC result came with HTTP status %d.", f.HTTPStatus))
		}
	}
}
