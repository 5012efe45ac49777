package views

import (
	"strings"
	"unicode/utf8"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/jsondiff"
)

// maxShownChanges bounds the JSON differences listed per changed item.
const maxShownChanges = 12

// maxShortJSON bounds, in runes, a JSON value shown in a change list.
const maxShortJSON = 80

// shownChanges returns the changes a change list shows: the first
// maxShownChanges.
func shownChanges(cs []jsondiff.Change) []jsondiff.Change {
	return cs[:min(len(cs), maxShownChanges)]
}

// itemPathLabel names a JSON change's place (a JSON Pointer); the whole
// item for "".
func itemPathLabel(path string) string {
	if path == "" {
		return "(whole item)"
	}
	return path
}

// shortJSON returns raw, with markup escapes undone (unescapeMarkup), cut
// to maxShortJSON runes, with "…" when cut.
func shortJSON(raw []byte) string {
	s := unescapeMarkup(string(raw))
	if utf8.RuneCountInString(s) <= maxShortJSON {
		return s
	}
	return string([]rune(s)[:maxShortJSON]) + "…"
}

// revisionCounts says how many items of each kind a listing has.
func revisionCounts(l backend.InterfaceListing) string {
	return strings.Join([]string{
		backend.Count(len(l.Tools), "tool"),
		backend.Count(len(l.Resources), "resource"),
		backend.Count(len(l.ResourceTemplates), "resource template"),
		backend.Count(len(l.Prompts), "prompt"),
	}, ", ")
}
