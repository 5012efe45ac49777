package mcpclient

import (
	"bufio"
	"bytes"
	"io"
)

// sseEvent is one server-sent event that carried data.
type sseEvent struct {
	id   string // the event's own id field, "" if it had none
	data []byte // the data lines joined with "\n"
}

// readSSE parses a text/event-stream and calls fn for each event, until r
// ends or fails. It handles LF and CRLF line ends, comments, multi-line
// data and fields without a value. Events without data (such as the
// priming events that only carry an id) are skipped. Event names are not
// used: MCP sends only "message" events, and every payload is recorded
// anyway. Data larger than limit ends the parse with *frameTooLargeError.
func readSSE(r io.Reader, limit int, fn func(sseEvent)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var ev sseEvent
	hasData := false
	for {
		line, err := readLine(br, limit+len("data: "))
		if err == io.EOF {
			return nil // an unterminated last event is discarded, as the SSE spec says
		}
		if err != nil {
			return err
		}
		if len(line) == 0 {
			if len(ev.data) > 0 {
				fn(ev)
			}
			ev, hasData = sseEvent{}, false
			continue
		}
		if line[0] == ':' {
			continue // comment
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if hasData {
				ev.data = append(ev.data, '\n')
			}
			ev.data = append(ev.data, value...)
			hasData = true
			if len(ev.data) > limit {
				return &frameTooLargeError{Limit: limit, Head: ev.data[:min(limit, recordLimit)]}
			}
		case "id":
			if !bytes.ContainsRune(value, 0) {
				ev.id = string(value)
			}
		}
	}
}
