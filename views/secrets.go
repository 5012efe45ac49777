package views

import (
	"slices"
	"strings"

	"github.com/mcp-playground/playground/backend"
)

// SecretRow is one row of a table of secrets (SecretsTable): where a
// secret is, and its Value as revealed to an admin, or, when Note is set,
// what stands in for it instead.
type SecretRow struct {
	backend.SecretPlace
	Value string
	Note  string
}

// sealedRows are the rows of secrets kept sealed, before a reveal: each
// says what people see in its place.
func sealedRows(places []backend.SecretPlace) []SecretRow {
	rows := make([]SecretRow, len(places))
	for i, p := range places {
		rows[i] = SecretRow{SecretPlace: p, Note: "sealed — shown as " + p.Marker()}
	}
	return rows
}

// NotRecordedRows are the rows of the headers whose true values were never
// recorded (backend.HTTPSecrets.NotRecorded).
func NotRecordedRows(places []backend.SecretPlace) []SecretRow {
	rows := make([]SecretRow, len(places))
	for i, p := range places {
		rows[i] = SecretRow{SecretPlace: p, Note: "not recorded — the server's configured secret is replaced before recording"}
	}
	return rows
}

// redactionHint says, for the secrets at places on a page, what people
// see in their stead there, naming each marker that occurs
// (backend.SecretPlace.Marker): with where "In this exchange", "In this
// exchange, secret header values show as [redacted], and secret parts of
// the URL as REDACTED, to everyone." It is "" when places is empty.
func redactionHint(where string, places []backend.SecretPlace) string {
	var values, urls []string // kinds of places, in order of first mention
	for _, p := range places {
		kind := &values
		if p.Marker() == backend.RedactedURLPart {
			kind = &urls
		}
		if !slices.Contains(*kind, p.Where) {
			*kind = append(*kind, p.Where)
		}
	}
	var parts []string
	if len(values) > 0 {
		parts = append(parts, "secret "+strings.Join(values, " and ")+" values show as "+backend.RedactedValue)
	}
	if len(urls) > 0 {
		verb := " as "
		if len(parts) == 0 {
			verb = " show as "
		}
		parts = append(parts, "secret parts of the "+strings.Join(urls, " and the ")+verb+backend.RedactedURLPart)
	}
	if len(parts) == 0 {
		return ""
	}
	text := where + ", " + strings.Join(parts, ", and ")
	if len(parts) > 1 {
		text += ","
	}
	return text + " to everyone."
}

// nothingSealed says why a frame's page offers no reveal: its exchange
// holds no secret, or only values never recorded.
func nothingSealed(s backend.HTTPSecrets) string {
	if len(s.NotRecorded) > 0 {
		return "Nothing in this exchange is sealed, so there is nothing to reveal."
	}
	return "This exchange holds no secret value."
}
