package views

import (
	"mime"
	"sort"
	"strings"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/oauth"
)

// oauthHeaderLine is one header of a recorded request or response.
type oauthHeaderLine struct{ Name, Value string }

// oauthHeaderLines lists headers sorted by name, one line a value.
func oauthHeaderLines(h map[string][]string) []oauthHeaderLine {
	names := make([]string, 0, len(h))
	for n := range h {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []oauthHeaderLine
	for _, n := range names {
		for _, v := range h[n] {
			out = append(out, oauthHeaderLine{n, v})
		}
	}
	return out
}

// oauthBody is a recorded body for reading: JSON indented, a form body
// one field a line, anything else as it came.
func oauthBody(body string) string {
	trimmed := strings.TrimSpace(body)
	if looksLikeJSON([]byte(trimmed)) {
		return prettyJSON([]byte(trimmed))
	}
	if strings.Contains(trimmed, "=") && !strings.ContainsAny(trimmed, " \n<") {
		return strings.ReplaceAll(trimmed, "&", "\n")
	}
	return body
}

// oauthStepAnchor is the id of a step's element on the debugger page.
func oauthStepAnchor(s oauth.Step) string { return "oauth-step-" + itoa(s.ID) }

// oauthHTTPClass colours an HTTP status: 2xx and 3xx ok, 401 and 403
// refusals (expected of a challenge), anything else bad.
func oauthHTTPClass(status int) string {
	switch {
	case status < 400:
		return "ok"
	case status == 401 || status == 403:
		return "refused"
	default:
		return "bad"
	}
}

// oauthOK is a check's data-ok: "true" or "false".
func oauthOK(ok bool) string {
	if ok {
		return "true"
	}
	return "false"
}

// oauthSummary counts a flow's steps, the checks of its own steps and
// refreshes (not those of re-runs), and its re-runs, in one line.
func oauthSummary(f oauth.Flow) string {
	var steps, reruns, refreshes, checks, failed int
	for _, s := range f.Steps {
		switch {
		case s.RerunOf != 0:
			reruns++
			continue // its checks are the re-run's, not the sign-in's
		case s.Kind == oauth.StepRefresh:
			refreshes++
		default:
			steps++
		}
		for _, c := range s.Checks {
			checks++
			if !c.OK {
				failed++
			}
		}
	}
	out := plural(steps, "step") + ", " + itoa(int64(checks-failed)) + " of " + plural(checks, "check") + " passed"
	if failed > 0 {
		out += ", " + itoa(int64(failed)) + " failed"
	}
	if refreshes > 0 {
		out += "; " + plural(refreshes, "token refresh") + " since"
	}
	if reruns > 0 {
		out += "; " + plural(reruns, "re-run")
	}
	if !f.EndedAt.IsZero() {
		out += "; took " + backend.FormatDuration(f.EndedAt.Sub(f.StartedAt))
	}
	return out
}

// plural is "1 step" or "n steps".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "sh") {
		return itoa(int64(n)) + " " + noun + "es"
	}
	return itoa(int64(n)) + " " + noun + "s"
}

// oauthContentType is the media type of a response, without parameters.
func oauthContentType(h map[string][]string) string {
	for name, vs := range h {
		if strings.EqualFold(name, "Content-Type") && len(vs) > 0 {
			if mt, _, err := mime.ParseMediaType(vs[0]); err == nil {
				return mt
			}
			return vs[0]
		}
	}
	return ""
}
