package views

import (
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/a-h/templ"
)

// JSON bodies are shown highlighted (keys, strings, numbers, literals each
// with their class) and foldable: every object and array is a <details>
// that closes to its first line. The view is built on the server, so a
// body costs the page its bytes a few times over: bodies beyond these
// bounds are shown as indented text.
const (
	// maxJSONViewBytes is the largest body shown highlighted.
	maxJSONViewBytes = 256 << 10
	// maxJSONViewValues is the most values (members and items, nested
	// ones included) a highlighted body may hold.
	maxJSONViewValues = 5000
	// jsonOpenDepth is how many levels of objects and arrays start open;
	// deeper ones start closed.
	jsonOpenDepth = 4
)

// jsonValue is one value of a parsed body: a scalar's JSON text, or an
// object's members (with their keys' JSON text) or an array's items.
type jsonValue struct {
	scalar   string // the JSON text of a string, number, true, false or null
	open     byte   // '{' or '[' for objects and arrays, 0 for scalars
	keys     []string
	children []jsonValue
}

// jsonParser reads a body that json.Valid accepted, counting its values.
type jsonParser struct {
	s      string
	i      int
	values int
}

func (p *jsonParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

// value parses the value at p.i; false when the body holds more values
// than maxJSONViewValues.
func (p *jsonParser) value() (jsonValue, bool) {
	if p.values++; p.values > maxJSONViewValues {
		return jsonValue{}, false
	}
	p.space()
	switch c := p.s[p.i]; c {
	case '{', '[':
		v := jsonValue{open: c}
		p.i++
		for {
			p.space()
			if p.s[p.i] == '}' || p.s[p.i] == ']' {
				p.i++
				return v, true
			}
			if p.s[p.i] == ',' {
				p.i++
				p.space()
			}
			if c == '{' {
				v.keys = append(v.keys, p.str())
				p.space()
				p.i++ // :
			}
			child, ok := p.value()
			if !ok {
				return v, false
			}
			v.children = append(v.children, child)
		}
	case '"':
		return jsonValue{scalar: p.str()}, true
	default:
		start := p.i
		for p.i < len(p.s) && strings.IndexByte(",}] \t\r\n", p.s[p.i]) < 0 {
			p.i++
		}
		return jsonValue{scalar: p.s[start:p.i]}, true
	}
}

// str reads the string at p.i, returning its JSON text.
func (p *jsonParser) str() string {
	start := p.i
	for p.i++; p.s[p.i] != '"'; p.i++ {
		if p.s[p.i] == '\\' {
			p.i++
		}
	}
	p.i++
	return p.s[start:p.i]
}

// parseJSONView parses body for the view; false when it is not JSON or is
// beyond the view's bounds.
func parseJSONView(body []byte) (jsonValue, bool) {
	if len(body) > maxJSONViewBytes || !json.Valid(body) {
		return jsonValue{}, false
	}
	p := jsonParser{s: string(body)}
	return p.value()
}

// jsonBody shows body highlighted and foldable when it is JSON within the
// view's bounds, and as text (indented when it is JSON) otherwise.
func jsonBody(body []byte) templ.Component { return jsonBodyMarked(body, nil) }

// jsonBodyMarked is jsonBody with the values at the JSON pointers marked
// (class jv-flagged, and data-pointer) and the objects and arrays that
// lead to them open, however deep.
func jsonBodyMarked(body []byte, pointers []string) templ.Component {
	v, ok := parseJSONView(body)
	if !ok {
		return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
			_, err := io.WriteString(w, "<pre>"+templ.EscapeString(prettyJSON(body))+"</pre>")
			return err
		})
	}
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		var b strings.Builder
		b.WriteString(`<div class="json-view" data-testid="json-view">`)
		jw := jsonWriter{b: &b, marks: newJSONMarks(pointers)}
		jw.value(v, "", "", "", 0)
		b.WriteString(`</div>`)
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// jsonMarks are the pointers a view marks, and every pointer that leads
// to one of them (to keep open); nil marks nothing.
type jsonMarks struct {
	marked, leads map[string]bool
}

func newJSONMarks(pointers []string) *jsonMarks {
	if len(pointers) == 0 {
		return nil
	}
	m := &jsonMarks{marked: map[string]bool{}, leads: map[string]bool{}}
	for _, p := range pointers {
		m.marked[p] = true
		for i := len(p) - 1; i > 0; i-- {
			if p[i] == '/' {
				m.leads[p[:i]] = true
			}
		}
		if p != "" {
			m.leads[""] = true
		}
	}
	return m
}

// jsonWriter writes a parsed body's markup; with marks, it follows each
// value's JSON pointer.
type jsonWriter struct {
	b     *strings.Builder
	marks *jsonMarks
}

// line opens a line of the value at pointer: marked ones carry their
// pointer.
func (w jsonWriter) line(tag, pointer string) {
	if w.marks != nil && w.marks.marked[pointer] {
		w.b.WriteString(`<` + tag + ` class="jv-line jv-flagged" data-pointer="` + templ.EscapeString(pointer) + `">`)
		return
	}
	w.b.WriteString(`<` + tag + ` class="jv-line">`)
}

// value writes v, at pointer, led by its key's markup (none for items and
// the root) and followed by comma ("," or ""), at depth.
func (w jsonWriter) value(v jsonValue, pointer, key, comma string, depth int) {
	b := w.b
	if v.open == 0 {
		w.line("div", pointer)
		b.WriteString(key)
		writeJSONScalar(b, v.scalar)
		b.WriteString(comma + `</div>`)
		return
	}
	closeWith := "}"
	if v.open == '[' {
		closeWith = "]"
	}
	if len(v.children) == 0 {
		w.line("div", pointer)
		b.WriteString(key + `<span class="jv-p">` + string(v.open) + closeWith + `</span>` + comma + `</div>`)
		return
	}
	b.WriteString(`<details class="jv-node"`)
	if depth < jsonOpenDepth || (w.marks != nil && w.marks.leads[pointer]) {
		b.WriteString(` open`)
	}
	b.WriteString(`>`)
	w.line("summary", pointer)
	b.WriteString(key + `<span class="jv-p">` + string(v.open) + `</span>`)
	b.WriteString(`<span class="jv-folded"> ` + templ.EscapeString(foldedCount(v)) + ` <span class="jv-p">` + closeWith + `</span>` + comma + `</span></summary>`)
	b.WriteString(`<div class="jv-children">`)
	for i, c := range v.children {
		childKey, childPointer := "", ""
		if v.open == '{' {
			childKey = `<span class="jv-key">` + templ.EscapeString(unescapeMarkup(v.keys[i])) + `</span><span class="jv-p">: </span>`
		}
		if w.marks != nil {
			childPointer = pointer + "/" + pointerToken(v, i)
		}
		childComma := ","
		if i == len(v.children)-1 {
			childComma = ""
		}
		w.value(c, childPointer, childKey, childComma, depth+1)
	}
	b.WriteString(`</div><div class="jv-line jv-close"><span class="jv-p">` + closeWith + `</span>` + comma + `</div></details>`)
}

// pointerToken is the JSON pointer token (RFC 6901) of v's child i: its
// index, or its key with "~" and "/" escaped.
func pointerToken(v jsonValue, i int) string {
	if v.open == '[' {
		return strconv.Itoa(i)
	}
	var key string
	if json.Unmarshal([]byte(v.keys[i]), &key) != nil {
		return ""
	}
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

// foldedCount is what a closed object or array says of what it holds.
func foldedCount(v jsonValue) string {
	n := len(v.children)
	switch {
	case v.open == '[' && n == 1:
		return "1 item"
	case v.open == '[':
		return strconv.Itoa(n) + " items"
	case n == 1:
		return "1 key"
	}
	return strconv.Itoa(n) + " keys"
}

func writeJSONScalar(b *strings.Builder, text string) {
	class := "jv-num"
	switch {
	case text[0] == '"':
		class = "jv-str"
		text = unescapeMarkup(text)
	case text == "true" || text == "false":
		class = "jv-bool"
	case text == "null":
		class = "jv-null"
	}
	b.WriteString(`<span class="` + class + `">` + templ.EscapeString(text) + `</span>`)
}
