package mcpclient

import (
	"bufio"
	"bytes"
	"io"
	"sync"
	"time"
)

// sseEvent is one dispatched server-sent event.
type sseEvent struct {
	id      string        // the event's own id field, "" if it had none
	event   string        // the event type field, "" if it had none ("message")
	data    []byte        // the data lines joined with "\n"
	hasData bool          // a data field was present, even an empty one
	retry   time.Duration // the retry field, -1 if it had none
}

// readSSE parses a text/event-stream and calls fn for each event that
// carried data, until r ends or fails. Events without data (such as the
// priming events that only carry an id and a retry) are skipped; parseSSE
// sees them too. Data larger than limit ends the parse with
// *frameTooLargeError.
func readSSE(r io.Reader, limit int, fn func(sseEvent)) error {
	return parseSSE(r, limit, func(ev sseEvent) {
		if len(ev.data) > 0 {
			fn(ev)
		}
	})
}

// sseReaders are parseSSE's read buffers. Each HTTP response a request
// gets is a stream of its own, so reusing them spares an allocation per
// request; they are small, because readLine gathers a longer line from
// several reads, and a pool is emptied by every garbage collection.
var sseReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 4<<10) }}

// parseSSE parses a text/event-stream and calls fn for every dispatched
// event (a block ended by a blank line that had at least one field), until
// r ends or fails. It handles LF and CRLF line ends, comments, multi-line
// data and fields without a value. The id of an event is its own id field
// only; callers that resume a stream keep the last non-empty id themselves.
// A retry field whose value is not all digits is ignored, as the SSE
// specification says. An unterminated last event is discarded. Data larger
// than limit ends the parse with *frameTooLargeError.
func parseSSE(r io.Reader, limit int, fn func(sseEvent)) error {
	br := sseReaders.Get().(*bufio.Reader)
	br.Reset(r)
	defer func() {
		br.Reset(nil)
		sseReaders.Put(br)
	}()
	ev := sseEvent{retry: -1}
	fields := 0
	for {
		line, err := readLine(br, limit+len("data: "))
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if len(line) == 0 {
			if fields > 0 {
				fn(ev)
			}
			ev, fields = sseEvent{retry: -1}, 0
			continue
		}
		if line[0] == ':' {
			continue // comment
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if ev.hasData {
				ev.data = append(ev.data, '\n')
			}
			ev.data = append(ev.data, value...)
			ev.hasData = true
			if len(ev.data) > limit {
				return &frameTooLargeError{Limit: limit, Head: ev.data[:min(limit, recordLimit)]}
			}
		case "id":
			if !bytes.ContainsRune(value, 0) {
				ev.id = string(value)
			}
		case "event":
			ev.event = string(value)
		case "retry":
			if ms, ok := parseDigits(value); ok {
				ev.retry = time.Duration(ms) * time.Millisecond
			}
		default:
			continue // unknown fields are ignored and do not make an event
		}
		fields++
	}
}

// parseDigits parses a non-empty string of ASCII digits, capped at an hour
// of milliseconds.
func parseDigits(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if n < int64(time.Hour/time.Millisecond) {
			n = n*10 + int64(c-'0')
		}
	}
	return min(n, int64(time.Hour/time.Millisecond)), true
}
