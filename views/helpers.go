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

// prettyJSON indents body when it is JSON and returns it unchanged otherwise.
func prettyJSON(body []byte) string {
	var out bytes.Buffer
	if json.Indent(&out, body, "", "  ") == nil {
		return out.String()
	}
	return string(body)
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

func clock(t time.Time) string { return t.Local().Format("15:04:05.000") }

func formatLatency(d time.Duration) string {
	switch {
	case d <= 0:
		return ""
	case d < time.Millisecond:
		return fmt.Sprintf("%d µs", d.Microseconds())
	case d < 10*time.Second:
		return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
	}
	return d.Round(time.Millisecond).String()
}

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

func blankOption(f backend.FormField) string {
	if f.Default != "" {
		return "— default: " + f.Default + " —"
	}
	return "— not set —"
}

func defaultHint(f backend.FormField) string {
	if f.Default != "" {
		return "default: " + f.Default
	}
	return ""
}

func inputMode(f backend.FormField) string {
	switch f.Type {
	case backend.FieldInteger:
		return "numeric"
	case backend.FieldNumber:
		return "decimal"
	}
	return "text"
}

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

// fieldID is the id of a tool form input, unique on the page: tools often
// share argument names.
func fieldID(card int, name string) string { return "arg-" + itoa(int64(card)) + "-" + name }

// eraLabel names a server's configured era; unset means legacy.
func eraLabel(e backend.Era) string {
	if e == "" {
		e = backend.EraLegacy
	}
	return string(e) + " era"
}

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
