package views

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/a-h/templ"

	"github.com/mcp-playground/playground/backend"
)

// htmxConfig is htmx's configuration (the htmx-config meta element). The
// Content-Security-Policy allows no inline style and no eval, so htmx adds no
// <style> element for its indicators (app.css styles them), evaluates no
// hx-on or js: code, and runs no script element that a swap brings in.
const htmxConfig = `{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false}`

func csrfHeader(token string) string {
	b, _ := json.Marshal(map[string]string{"X-CSRF-Token": token})
	return string(b)
}

// prettyJSON indents body when it is JSON, with markup escapes undone
// (see unescapeMarkup), and returns it unchanged otherwise.
func prettyJSON(body []byte) string {
	var out bytes.Buffer
	if json.Indent(&out, body, "", "  ") == nil {
		return unescapeMarkup(out.String())
	}
	return string(body)
}

// unescapeMarkup turns the escapes \u003c, \u003e and \u0026, which Go's
// and other JSON encoders write for <, > and &, back into those characters
// in JSON text, so that a person reads <b> as the sender meant it; other
// escapes stay as they are. Pages escape the result as HTML like any text.
func unescapeMarkup(s string) string {
	if !strings.Contains(s, `\u00`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		if s[i+1] == 'u' && i+6 <= len(s) {
			if c, ok := markupEscapes[strings.ToLower(s[i+2:i+6])]; ok {
				b.WriteByte(c)
				i += 5
				continue
			}
		}
		// Another escape, copied whole so that an escaped backslash is not
		// taken for the start of the next escape.
		b.WriteString(s[i : i+2])
		i++
	}
	return b.String()
}

var markupEscapes = map[string]byte{"003c": '<', "003e": '>', "0026": '&'}

// prettyJSONHead indents the first bytes of a JSON body the way prettyJSON
// indents a whole one, tolerating the cut; a body that does not start as a
// JSON object or array is returned as text.
func prettyJSONHead(head string) string {
	if !looksLikeJSON([]byte(head)) {
		return head
	}
	trimmed := strings.TrimLeft(head, " \t\r\n")
	var out strings.Builder
	depth, inString, escaped, emptyOpen := 0, false, false, false
	newline := func() {
		out.WriteByte('\n')
		out.WriteString(strings.Repeat("  ", depth))
	}
	for i := 0; i < len(trimmed); i++ {
		c := trimmed[i]
		if inString {
			out.WriteByte(c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\r', '\n':
		case '"':
			inString = true
			out.WriteByte(c)
		case '{', '[':
			out.WriteByte(c)
			if next := strings.TrimLeft(trimmed[i+1:], " \t\r\n"); next != "" && (next[0] == '}' || next[0] == ']') {
				emptyOpen = true // closed on the same line
				continue
			}
			depth++
			newline()
		case '}', ']':
			if !emptyOpen {
				depth = max(depth-1, 0)
				newline()
			}
			emptyOpen = false
			out.WriteByte(c)
		case ',':
			out.WriteByte(c)
			newline()
		case ':':
			out.WriteString(": ")
		default:
			out.WriteByte(c)
		}
	}
	return unescapeMarkup(out.String())
}

// textHead returns at most the first n bytes of body as text, cut at a
// character boundary, with invalid UTF-8 replaced.
func textHead(body []byte, n int) string {
	if len(body) > n {
		body = body[:n]
		// Drop a character that the cut split.
		for i := len(body) - 1; i >= 0 && i >= len(body)-utf8.UTFMax; i-- {
			if utf8.RuneStart(body[i]) {
				if !utf8.FullRune(body[i:]) {
					body = body[:i]
				}
				break
			}
		}
	}
	return strings.ToValidUTF8(string(body), "\uFFFD")
}

// formatBytes says a size the way people read it: 812 bytes, 4 KiB, 7.2 MiB.
func formatBytes(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<10))) + " KiB"
	}
	return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<20))) + " MiB"
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

func clock(t time.Time) string { return t.Local().Format("15:04:05.000") }

func itoa(n int64) string { return fmt.Sprint(n) }

func joinArgs(args []string) string { return strings.Join(args, "\n") }

// pairsText renders a map as KEY=VALUE lines (sep "=") or "Key: Value" lines.
func pairsText(m map[string]string, sep string) string {
	lines := make([]string, 0, len(m))
	for k, v := range m {
		lines = append(lines, k+sep+v)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func joinWords(args []string) string { return strings.Join(args, " ") }

var (
	safeImageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}
	safeAudioTypes = map[string]bool{"audio/wav": true, "audio/x-wav": true, "audio/mpeg": true, "audio/ogg": true, "audio/webm": true}
)

// imageSrc makes a data URL for a raster image whose payload is valid base64;
// other types (SVG among them) are refused.
func imageSrc(mime, data string) (templ.SafeURL, bool) {
	return dataURL(safeImageTypes, mime, data)
}

func audioSrc(mime, data string) (templ.SafeURL, bool) {
	return dataURL(safeAudioTypes, mime, data)
}

func dataURL(allowed map[string]bool, mime, data string) (templ.SafeURL, bool) {
	if !allowed[mime] {
		return "", false
	}
	if _, err := base64.StdEncoding.DecodeString(data); err != nil {
		return "", false
	}
	return templ.SafeURL("data:" + mime + ";base64," + data), true
}

// eraLabel names a stored server's era.
func eraLabel(e backend.Era) string { return string(e) + " era" }

// headerText renders HTTP headers one per line, sorted by name.
func headerText(h http.Header) string {
	lines := make([]string, 0, len(h))
	for name, values := range h {
		for _, v := range values {
			lines = append(lines, name+": "+v)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// displayName is how the overview names a server: its title, else its name.
func displayName(o backend.SessionOverview) string {
	if o.Server.Title != "" {
		return o.Server.Title
	}
	if o.Server.Name != "" {
		return o.Server.Name
	}
	return "(unnamed server)"
}

// shortText reports whether s is short enough to show open: at most 400
// bytes on at most 6 lines.
func shortText(s string) bool {
	return len(s) <= 400 && strings.Count(s, "\n") < 6
}

// textSummary says how long a text is: "3 lines, 120 characters".
func textSummary(s string) string {
	lines := strings.Count(strings.TrimRight(s, "\n"), "\n") + 1
	unit := "lines"
	if lines == 1 {
		unit = "line"
	}
	return fmt.Sprintf("%d %s, %d characters", lines, unit, utf8.RuneCountInString(s))
}

// jsonOrNone indents raw JSON, or says that there is none.
func jsonOrNone(raw []byte) string {
	if len(raw) == 0 {
		return "(none)"
	}
	return prettyJSON(raw)
}
