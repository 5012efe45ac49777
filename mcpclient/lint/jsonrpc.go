package lint

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcp-playground/playground/mcpclient"
)

// msg is one JSON-RPC message of a frame: its members as decoded, the
// pointer to it in the body ("" unless it is in a batch) and what it is.
type msg struct {
	m      map[string]any
	at     string
	sender side
	method string
	id     any    // nil for a notification
	key    string // the id's JSON text, "" for a notification
	// answers is, for a response paired with its request, the request's
	// method; target the request's params.name or params.uri.
	answers, target string
}

func (m *msg) has(key string) bool { _, ok := m.m[key]; return ok }

// params are the members of m's params, nil when it has none.
func (m *msg) params() map[string]any { return objectOf(m.m["params"]) }

// ptr is the pointer to the member path of the message.
func (m *msg) ptr(tokens ...string) string { return m.at + pointerOf(tokens...) }

// notJSON notes that the client could not read f's body as a message:
// over stdio, a line that is no message; over HTTP, a body that cannot be
// parsed, or JSON that came with a Content-Type that is not a message's.
func (fs *findings) notJSON(f Frame) {
	switch {
	case !f.HTTP:
		fs.add(ruleStdioLine, "", fmt.Sprintf("The %s line is not JSON: %s.", streamOf(f), clip(f.Body)))
	case f.ContentType != "" && !messageContentType(f.ContentType) && json.Valid(f.Body):
		fs.add(ruleContentTypeHeader, "", fmt.Sprintf("The message came with Content-Type %q, so it was not read as one.", f.ContentType))
	default:
		fs.add(ruleParse, "", "The body is not JSON: "+clip(f.Body)+".")
	}
}

func streamOf(f Frame) string {
	if f.Direction == mcpclient.Inbound {
		return "stdout"
	}
	return "stdin"
}

// clip quotes the start of a body for a message.
func clip(b []byte) string {
	if len(b) > 60 {
		return strconv.Quote(string(b[:60])) + "…"
	}
	return strconv.Quote(string(b))
}

// message judges a frame of kind message: one JSON-RPC message or a batch.
func (l *Linter) message(f Frame, out *findings) {
	body, ok := decode(f.Body)
	if !ok {
		out.notJSON(f)
		return
	}
	l.transport(f, body, out)
	sender := senderOf(f.Direction)
	if items, ok := body.([]any); ok {
		if len(items) == 0 {
			out.add(ruleEmptyBatch, "", "The body is an empty array.")
			return
		}
		if v := l.Version(); v >= "2025-06-18" {
			out.add(ruleBatch, "", fmt.Sprintf("The body is a batch of %d messages, which version %s does not allow.", len(items), v))
		}
		for i, item := range items {
			l.one(item, sender, "/"+strconv.Itoa(i), out)
		}
		return
	}
	m := l.one(body, sender, "", out)
	if m == nil {
		return
	}
	if l.method = m.method; m.method == "" {
		l.method = m.answers
	}
	if f.HTTP {
		l.headers(f, m, out)
	}
}

// one judges one JSON-RPC message, at pointer at of the body, and
// returns it (nil when it is not an object).
func (l *Linter) one(v any, sender side, at string, out *findings) *msg {
	m := &msg{m: objectOf(v), at: at, sender: sender}
	if m.m == nil {
		out.add(ruleNotObject, at, "The message is a JSON "+kindOf(v)+", not an object.")
		return nil
	}
	if v, ok := m.m["jsonrpc"]; !ok {
		out.add(ruleVersion, m.ptr(), `The message has no "jsonrpc" member.`)
	} else if v != "2.0" {
		out.add(ruleVersion, m.ptr("jsonrpc"), fmt.Sprintf(`"jsonrpc" is %s, not "2.0".`, textOf(v)))
	}
	switch {
	case m.has("method"):
		method, ok := m.m["method"].(string)
		if !ok {
			out.add(ruleMethodType, m.ptr("method"), "The method is a JSON "+kindOf(m.m["method"])+", not a string.")
			return m
		}
		m.method = method
		if p, ok := m.m["params"]; ok && kindOf(p) != "object" && kindOf(p) != "array" {
			out.add(ruleParamsType, m.ptr("params"), "The params are a JSON "+kindOf(p)+", not an object.")
		}
		if id, ok := m.m["id"]; ok {
			m.id, m.key = id, textOf(id)
			if !validID(id) {
				out.add(ruleIDType, m.ptr("id"), "The request's id is a JSON "+idKind(id)+", not a string or an integer.")
			}
			if isNotificationMethod(m.method) {
				out.add(ruleNotificationID, m.ptr("id"), fmt.Sprintf("The notification %s carries an id.", m.method))
			}
			l.request(m, out)
			return m
		}
		l.notification(m, out)
	case m.has("result") || m.has("error") || m.has("id"):
		l.response(m, out)
	default:
		out.add(ruleShape, m.ptr(), "The message has no method, result or error, so it is neither a request, a notification nor a response.")
	}
	return m
}

// response judges a response's shape, then pairs it with its request.
func (l *Linter) response(m *msg, out *findings) {
	_, isResult := m.m["result"]
	errObj, isError := m.m["error"]
	switch {
	case isResult && isError:
		out.add(ruleResponseShape, m.ptr(), "The response has both a result and an error.")
	case !isResult && !isError:
		out.add(ruleResponseShape, m.ptr(), "The response has neither a result nor an error.")
	}
	if isError {
		errorObject(m, errObj, out)
	}
	id, ok := m.m["id"]
	switch {
	case !ok:
		out.add(ruleShape, m.ptr(), "The response has no id.")
		return
	case id == nil:
		if isResult {
			out.add(ruleNullID, m.ptr("id"), "The result has a null id.")
		}
		return
	case !validID(id):
		out.add(ruleIDType, m.ptr("id"), "The response's id is a JSON "+idKind(id)+", not a string or an integer.")
		return
	}
	m.id, m.key = id, textOf(id)
	l.answer(m, isResult, out)
}

// errorObject checks an error member: an object, an integer code
// outside the reserved range's unused part, a string message.
func errorObject(m *msg, v any, out *findings) {
	e := objectOf(v)
	if e == nil {
		out.add(ruleErrorObject, m.ptr("error"), "The error is a JSON "+kindOf(v)+", not an object.")
		return
	}
	code, ok := e["code"]
	num, _ := code.(json.Number)
	n, err := num.Int64()
	switch {
	case !ok:
		out.add(ruleErrorObject, m.ptr("error"), "The error has no code.")
	case err != nil:
		out.add(ruleErrorObject, m.ptr("error", "code"), "The error code "+textOf(code)+" is not an integer.")
	case n >= -32768 && n < -32099 && !definedCode(n):
		out.add(ruleReservedCode, m.ptr("error", "code"), fmt.Sprintf("The error code %d is in the reserved range but is not one JSON-RPC defines.", n))
	}
	if msgV, ok := e["message"]; !ok {
		out.add(ruleErrorObject, m.ptr("error"), "The error has no message.")
	} else if kindOf(msgV) != "string" {
		out.add(ruleErrorObject, m.ptr("error", "message"), "The error message is a JSON "+kindOf(msgV)+", not a string.")
	}
}

func definedCode(n int64) bool {
	switch n {
	case -32700, -32600, -32601, -32602, -32603:
		return true
	}
	return false
}

func isNotificationMethod(method string) bool {
	return len(method) > len("notifications/") && method[:len("notifications/")] == "notifications/"
}
