package lint

import (
	"encoding/json"
	"fmt"

	"github.com/mcp-playground/playground/mcpclient"
)

// maxSplitBytes bounds the run of non-JSON lines a Linter keeps to tell
// a message split across lines.
const maxSplitBytes = 64 << 10

// splitLines is a run of consecutive stdio lines of one direction, each
// not JSON.
type splitLines struct {
	dir mcpclient.Direction
	buf []byte
	n   int
}

func (s *splitLines) reset() { s.buf, s.n = s.buf[:0], 0 }

// splitLines notes a stdio line that is not JSON and, when it ends a run
// of such lines that together are one JSON message, says so in place of
// what notJSON said of it.
func (l *Linter) splitLines(f Frame, out *findings) {
	if f.HTTP {
		return
	}
	s := &l.lines
	if s.n > 0 && s.dir != f.Direction || len(s.buf)+len(f.Body) > maxSplitBytes {
		s.reset()
	}
	s.dir = f.Direction
	s.buf = append(append(s.buf, f.Body...), '\n')
	s.n++
	if s.n > 1 && json.Valid(s.buf) {
		out.list = out.list[:0] // the line is this, not noise
		out.add(ruleSplitJSON, "", fmt.Sprintf("This line ends one JSON message written across %d lines.", s.n))
		s.reset()
	}
}
