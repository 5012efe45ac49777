package main

import (
	"fmt"
	"io"
	"sync"
	"unicode"
	"unicode/utf8"
)

// terminalWriter writes to a terminal text that the playground did not
// write itself (names, a server's messages, recorded frames) so that it
// shows as text and never acts: every control or format character but a
// line feed and a tab (ESC, BEL, a carriage return, CSI as U+009B, a
// bidirectional override) goes out as an escape such as \x1b or \u202e,
// and so does a byte that is not UTF-8. A character split between two
// writes is held until the next. It is safe for concurrent use.
type terminalWriter struct {
	mu      sync.Mutex
	w       io.Writer
	partial []byte // the start of a character the last write cut
}

// newTerminalWriter returns a terminalWriter that writes to w.
func newTerminalWriter(w io.Writer) *terminalWriter { return &terminalWriter{w: w} }

// Write implements io.Writer; it reports len(p) when w took it all.
func (t *terminalWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	in := append(t.partial, p...)
	t.partial = nil
	out := make([]byte, 0, len(in))
	for len(in) > 0 {
		r, size := utf8.DecodeRune(in)
		switch {
		case r == utf8.RuneError && size <= 1 && !utf8.FullRune(in):
			t.partial = append([]byte(nil), in...)
			in = nil
			continue
		case r == utf8.RuneError && size <= 1:
			out = fmt.Appendf(out, `\x%02x`, in[0])
		case r == '\n' || r == '\t' || unicode.IsGraphic(r):
			out = append(out, in[:size]...)
		case r < utf8.RuneSelf:
			out = fmt.Appendf(out, `\x%02x`, r)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		in = in[size:]
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
