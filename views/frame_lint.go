package views

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/mcp-playground/playground/backend"
)

// worstSeverity is the most severe of findings, which is not empty.
func worstSeverity(findings []backend.LintFinding) backend.LintSeverity {
	worst := findings[0].Severity
	for _, f := range findings[1:] {
		if backend.LintRank(f.Severity) < backend.LintRank(worst) {
			worst = f.Severity
		}
	}
	return worst
}

// lintLabel is a lint badge's text: the count and what the worst is.
func lintLabel(findings []backend.LintFinding) string {
	worst := worstSeverity(findings)
	if len(findings) == 1 {
		return "lint: 1 " + string(worst)
	}
	return "lint: " + strconv.Itoa(len(findings)) + " (" + string(worst) + ")"
}

// lintTitle is a lint badge's title: each finding's code and message, one
// a line.
func lintTitle(findings []backend.LintFinding) string {
	var b strings.Builder
	for i, f := range findings {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(f.Code + ": " + f.Message)
	}
	return b.String()
}

// pointerLabel is a JSON pointer as shown: "(whole body)" for the root.
func pointerLabel(p string) string {
	if p == "" {
		return "(whole body)"
	}
	return p
}

// schemaRepo is where the specification's schema files are published.
const schemaRepo = "https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/"

// specURL is the page a finding's spec reference names: the reference
// itself when it is a URL, the schema file on GitHub when it names a
// definition of one ("schema/VERSION/schema.json#/$defs/NAME"), else "".
func specURL(spec string) string {
	switch {
	case strings.HasPrefix(spec, "https://"):
		return spec
	case strings.HasPrefix(spec, "schema/"):
		file, _, _ := strings.Cut(spec, "#")
		return schemaRepo + file
	}
	return ""
}

// specLabel is the link text of a finding's spec reference: the schema
// definition it names, or "spec".
func specLabel(spec string) string {
	if _, def, ok := strings.Cut(spec, "#/"); ok && strings.HasPrefix(spec, "schema/") {
		return "schema: " + def[strings.LastIndexByte(def, '/')+1:]
	}
	return "spec"
}

// findingPointers is where in the body findings point.
func findingPointers(findings []backend.LintFinding) []string {
	out := make([]string, len(findings))
	for i, f := range findings {
		out[i] = f.Pointer
	}
	return out
}

// findingCountSeverity is the worst severity a count has (of a non-zero count).
func findingCountSeverity(c backend.FindingCount) backend.LintSeverity {
	switch {
	case c.Errors > 0:
		return backend.LintError
	case c.Warnings > 0:
		return backend.LintWarning
	}
	return backend.LintInfo
}

// findingCountLabel says a non-zero count, the worst first: "lint: 2 errors,
// 1 warning".
func findingCountLabel(c backend.FindingCount) string {
	var parts []string
	if c.Errors > 0 {
		parts = append(parts, plural(c.Errors, "error"))
	}
	if c.Warnings > 0 {
		parts = append(parts, plural(c.Warnings, "warning"))
	}
	if c.Infos > 0 {
		parts = append(parts, itoa(int64(c.Infos))+" info") // info stays info
	}
	return "lint: " + strings.Join(parts, ", ")
}

// lintHistoryURL searches history for a server's exchanges flagged with
// code (every server's, for a name the search syntax cannot quote).
func lintHistoryURL(server, code string) string {
	q := "lint:" + code
	if !strings.ContainsRune(server, '"') {
		q += ` server:"` + server + `"`
	}
	return "/history?q=" + url.QueryEscape(q)
}
