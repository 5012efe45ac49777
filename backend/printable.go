package backend

import "unicode"

// Printable reports whether s holds only graphic characters and spaces:
// no control character (ESC, BEL, a line break, a tab), no format
// character (such as a bidirectional override). A name that passes shows
// as itself on a page and on a terminal.
func Printable(s string) bool {
	for _, r := range s {
		if !unicode.IsGraphic(r) {
			return false
		}
	}
	return true
}

// NotPrintable is what a name field says when printable refuses it.
const NotPrintable = "Use printable text: no line breaks, tabs or other control characters."
