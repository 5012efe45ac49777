package backend

import "github.com/mcp-playground/playground/mcpclient/lint"

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
				it.frame.Findings = l.Lint(it.lint)
			}
		}
		out <- batch
	}
}
