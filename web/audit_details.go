package web

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/oauth"
	"github.com/mcp-playground/playground/backend/schemaform"
)

// maxAuditDetails bounds an audit event's details: longer ones are kept
// as their first maxAuditDetails bytes of (redacted) text.
const maxAuditDetails = 8 << 10

// maxAuditBodyCopy bounds the copy of a JSON request body kept for the
// audit log. A longer body is noted by its size only: redaction needs the
// whole of it.
const maxAuditBodyCopy = 256 << 10

// pairFields are fields holding NAME=value or Name: value lines (the
// server form's env and headers) or, in JSON, objects of them: their
// names are kept, their values redacted.
var pairFields = map[string]bool{"env": true, "headers": true}

// secretFields are fields whose values are secrets although their names
// do not say so: the current and repeated password of the account forms
// and the values of a collection environment's variables.
var secretFields = map[string]bool{"current": true, "confirm": true, "v_value": true}

// isSecretField reports whether the value of the form field or JSON
// member name is a secret; "arg.api_key" is judged by "api_key".
func isSecretField(name string) bool {
	return backend.IsSecretName(name) || secretFields[strings.ToLower(name)]
}

// argumentsField holds, in the details of a schema form's submission, the
// arguments its arg.* fields and its JSON view (schemaform.RawField) gave.
const argumentsField = "arguments"

// formDetails returns the audit details of a submitted form: each filled
// field (but the CSRF token) with its value, or its values when repeated;
// a schema form's arg.* fields as one "arguments" object (with the members
// of its JSON view that no field gave); secrets redacted.
func formDetails(form url.Values) map[string]any {
	details := map[string]any{}
	args := map[string]any{}
	for name, values := range form {
		if name == csrfField || name == schemaform.RawField {
			continue
		}
		into, key := details, name
		if arg, ok := strings.CutPrefix(name, "arg."); ok {
			into, key = args, arg
		}
		var kept []any
		for _, v := range values {
			if v != "" {
				kept = append(kept, redactField(key, v))
			}
		}
		switch len(kept) {
		case 0:
		case 1:
			into[key] = kept[0]
		default:
			into[key] = kept
		}
	}
	if raw, ok := redactField(schemaform.RawField, form.Get(schemaform.RawField)).(map[string]any); ok {
		for k, v := range raw {
			if _, given := args[k]; !given {
				args[k] = v
			}
		}
	}
	if len(args) > 0 {
		details[argumentsField] = args
	}
	return details
}

// redactField returns the value of the form field name fit for the audit
// log.
func redactField(name, value string) any {
	switch {
	case value == "":
		return value
	case pairFields[name]:
		return redactPairLines(value)
	case isSecretField(name):
		return backend.RedactedValue
	}
	if v, ok := jsonText(value); ok {
		return redactJSON(v)
	}
	if localPath(value) != "" && strings.Contains(value, "?") { // a page to return to, as sign-in's next
		return oauth.RedactURL(value)
	}
	return backend.RedactURLsIn(value)
}

// jsonText decodes text that holds a JSON object or array.
func jsonText(text string) (any, bool) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
		return nil, false
	}
	var v any
	return v, json.Unmarshal([]byte(t), &v) == nil
}

// redactPairLines keeps the names of NAME=value and Name: value lines and
// replaces every value.
func redactPairLines(text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if name, _, ok := strings.Cut(line, "="); ok && !strings.Contains(name, ":") {
			lines[i] = name + "=" + backend.RedactedValue
		} else if name, _, ok := strings.Cut(line, ":"); ok {
			lines[i] = name + ": " + backend.RedactedValue
		} else if strings.TrimSpace(line) != "" {
			lines[i] = backend.RedactedValue
		}
	}
	return strings.Join(lines, "\n")
}

// redactJSON returns the decoded JSON value v with the values of secret
// members redacted, those of env and headers objects too (their names
// kept), and the credentials of URLs in strings.
func redactJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			switch m, isObject := x.(map[string]any); {
			case pairFields[k] && isObject:
				for name := range m {
					m[name] = backend.RedactedValue
				}
			case pairFields[k] || isSecretField(k):
				if x != nil && x != "" {
					t[k] = backend.RedactedValue
				}
			default:
				t[k] = redactJSON(x)
			}
		}
	case []any:
		for i, x := range t {
			t[i] = redactJSON(x)
		}
	case string:
		// JSON inside a string (a raw message, a console's params) has
		// its secrets redacted too, and stays a string.
		if inner, ok := jsonText(t); ok {
			return string(compactJSON(redactJSON(inner)))
		}
		return backend.RedactURLsIn(t)
	}
	return v
}

// jsonBodyDetails returns the audit details of a JSON request body: the
// body itself when it is an object, {"body": …} when it is another JSON
// value; secrets redacted. A body that is not JSON, or was too long to
// copy, is noted by its size only.
func jsonBodyDetails(b *bodyCopy) map[string]any {
	if b.over {
		return map[string]any{"body": fmt.Sprintf("[not recorded: more than %d KiB]", maxAuditBodyCopy>>10)}
	}
	if b.buf.Len() == 0 {
		return map[string]any{}
	}
	var v any
	if err := json.Unmarshal(b.buf.Bytes(), &v); err != nil {
		return map[string]any{"body": fmt.Sprintf("[not recorded: %d bytes that are not JSON]", b.buf.Len())}
	}
	if m, ok := redactJSON(v).(map[string]any); ok {
		return m
	}
	return map[string]any{"body": redactJSON(v)}
}

// leadingDetails are the members that say most about a request (what
// was called, with what): detailsJSON writes them first, so that the
// audit page's one-line summary shows them.
var leadingDetails = []string{"_tool", "_prompt", "method", "name", argumentsField, "params"}

// detailsJSON encodes details as a JSON object, leadingDetails first and
// the rest by name, of at most about maxAuditDetails bytes: a longer
// encoding is kept as the text of its first maxAuditDetails bytes under
// "truncated".
func detailsJSON(details map[string]any) json.RawMessage {
	keys := make([]string, 0, len(details))
	for k := range details {
		keys = append(keys, k)
	}
	rank := func(k string) int {
		if i := slices.Index(leadingDetails, k); i >= 0 {
			return i
		}
		return len(leadingDetails)
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b)) })
	var buf bytes.Buffer
	enc := newCompactEncoder(&buf)
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeCompactJSON(&buf, enc, k)
		buf.WriteByte(':')
		writeCompactJSON(&buf, enc, details[k])
	}
	buf.WriteByte('}')
	b := buf.Bytes()
	if len(b) <= maxAuditDetails {
		return b
	}
	cut := b[:maxAuditDetails]
	for len(cut) > 0 && !utf8.Valid(cut) {
		cut = cut[:len(cut)-1]
	}
	out, _ := json.Marshal(map[string]any{"truncated": string(cut) + "…", "bytes": len(b)})
	return out
}

// compactJSON encodes v without escaping markup (the page escapes it),
// or as null when it cannot be encoded.
func compactJSON(v any) []byte {
	var buf bytes.Buffer
	writeCompactJSON(&buf, newCompactEncoder(&buf), v)
	return buf.Bytes()
}

// newCompactEncoder is the encoder of writeCompactJSON: it writes to buf
// and does not escape markup.
func newCompactEncoder(buf *bytes.Buffer) *json.Encoder {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	return enc
}

// writeCompactJSON appends v to buf, encoded by enc (which writes to
// buf), without the newline Encode ends with; or null when v cannot be
// encoded (Encode then writes nothing).
func writeCompactJSON(buf *bytes.Buffer, enc *json.Encoder, v any) {
	if err := enc.Encode(v); err != nil {
		buf.WriteString("null")
		return
	}
	buf.Truncate(buf.Len() - 1)
}

// bodyCopy is a request body that keeps a copy of what its reader read,
// up to maxAuditBodyCopy bytes, so that the audit log sees the JSON a
// handler decoded without reading the body twice.
type bodyCopy struct {
	io.ReadCloser
	buf  bytes.Buffer
	over bool // more was read than the copy holds
}

func (b *bodyCopy) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if room := max(maxAuditBodyCopy-b.buf.Len(), 0); n > room {
		b.buf.Write(p[:room])
		b.over = true
	} else {
		b.buf.Write(p[:n])
	}
	return n, err
}
