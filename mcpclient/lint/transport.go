package lint

import (
	"fmt"
	"mime"

	"github.com/mcp-playground/playground/mcpclient"
)

// transport checks an inbound HTTP frame's status, Content-Type and SSE
// event type against its body.
func (l *Linter) transport(f Frame, body any, out *findings) {
	if !f.HTTP || f.Direction != mcpclient.Inbound {
		return
	}
	if f.ContentType != "" && !messageContentType(f.ContentType) {
		out.add(ruleContentTypeHeader, "", fmt.Sprintf("The message came with Content-Type %q.", f.ContentType))
	}
	if f.EventType != "" && f.EventType != "message" {
		out.add(ruleSSEEventType, "", fmt.Sprintf("The message came in an SSE event of type %q.", f.EventType))
	}
	if f.HTTPStatus >= 300 {
		if _, ok := objectOf(body)["result"]; ok {
			out.add(ruleHTTPStatus, "/result", fmt.Sprintf("A JSON-RPC result came with HTTP status %d.", f.HTTPStatus))
		}
	}
}

// messageContentType reports whether an HTTP response of this
// Content-Type carries JSON-RPC messages: application/json or an event
// stream.
func messageContentType(ct string) bool {
	mt, _, _ := mime.ParseMediaType(ct)
	return mt == "application/json" || mt == "text/event-stream"
}
