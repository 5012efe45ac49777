package backend

import (
	"fmt"

	"github.com/mcp-playground/playground/mcpclient/lint"
)

// lintLoop is the recorder's middle goroutine when it lints: it takes the
// batches classifyLoop hands on, in order, judges each frame with its
// session's linter (started on the session's first frame, dropped at its
// forget marker) and hands the batch on to commitLoop, so that a frame is
// stored and published with its findings. Judging runs beside classifying
// and committing rather than in either. It ends, closing out, once in is
// closed.
func (r *Recorder) lintLoop(in <-chan []classifiedItem, out chan<- []classifiedItem) {
	defer close(out)
	linters := map[int64]*lint.Linter{}
	for batch := range in {
		for i := range batch {
			it := &batch[i]
			switch {
			case it.forget != 0:
				delete(linters, it.forget)
			case it.flushed == nil:
				l := linters[it.frame.SessionID]
				if l == nil {
					l = lint.New(lint.Options{})
					linters[it.frame.SessionID] = l
				}
				var ok bool
				if it.frame.Findings, ok = r.lintOne(l, it); !ok {
					delete(linters, it.frame.SessionID)
				}
			}
		}
		out <- batch
	}
}

// lintOne judges one frame; ok is false when the linter panicked, a bug
// of its own rather than of the traffic: the frame is then recorded
// without findings, the panic is logged, and lintLoop drops the session's
// linter for a fresh one.
func (r *Recorder) lintOne(l *lint.Linter, it *classifiedItem) (found []lint.Finding, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			found, ok = nil, false
			r.log.Error("protocol lint failed on a frame; it is recorded without findings", "session", it.frame.SessionID, "frame", it.frame.ID, "panic", fmt.Sprint(p))
		}
	}()
	return l.Lint(it.lint), true
}
