package demoserver

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
)

// lineFilter is the demo server's stdin as the SDK reads it. It reads one
// frame a line, answers each that checkFrame refuses (and each longer than
// limit bytes) with a JSON-RPC error written to out, skips blank lines, and
// passes the others on, one line each. Errors and the SDK's messages reach
// out whole and one at a time: both write through the same syncWriter, and
// the SDK writes one message, newline included, a Write.
//
// Read is for one goroutine, the SDK's reader; it returns an error when in
// does, or when answering a frame fails. Close closes in.
type lineFilter struct {
	in    *bufio.Reader
	c     io.Closer
	out   io.Writer
	limit int

	line []byte // the line read last; next is a part of it
	next []byte // what is left to pass on of the current frame
	err  error  // returned once next is drained
}

func newLineFilter(in io.ReadCloser, out io.Writer, limit int) *lineFilter {
	return &lineFilter{in: bufio.NewReaderSize(in, 64<<10), c: in, out: out, limit: limit}
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.next) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		tooLong, err := f.readLine()
		f.err = err
		var refused *frameError
		switch frame := bytes.TrimSpace(f.line); {
		case tooLong:
			refused = tooLarge(f.limit)
		case len(frame) == 0:
		default:
			if refused = checkFrame(frame); refused == nil {
				f.next = append(frame, '\n') // frame ends before the line's own newline
			}
		}
		if refused != nil {
			if _, err := f.out.Write(append(refused.response(), '\n')); err != nil {
				f.err = err
			}
		}
	}
	n := copy(p, f.next)
	f.next = f.next[n:]
	return n, nil
}

// readLine reads the next line into f.line, without keeping more than
// limit bytes of it: a longer line is read to its end and reported tooLong.
// err is that of the underlying read, io.EOF at the end of input; f.line
// holds what came before it.
func (f *lineFilter) readLine() (tooLong bool, err error) {
	f.line = f.line[:0]
	if cap(f.line) > 1<<20 {
		f.line = nil // do not keep a large line's buffer
	}
	for {
		chunk, err := f.in.ReadSlice('\n')
		if !tooLong {
			if len(f.line)+len(bytes.TrimSuffix(chunk, []byte("\n"))) > f.limit {
				tooLong, f.line = true, f.line[:0]
			} else {
				f.line = append(f.line, chunk...)
			}
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return tooLong, err
		}
	}
}

func (f *lineFilter) Close() error { return f.c.Close() }

// syncWriter serialises the writes to w, and does not close it.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *syncWriter) Close() error { return nil }
