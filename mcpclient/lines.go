package mcpclient

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sync"
)

// recordLimit is how many bytes of an oversized frame are kept for the Tap.
const recordLimit = 64 << 10

// tailLimit is how many of the last bytes of an oversized line are kept,
// to find the id of a response whose "id" member comes last.
const tailLimit = 256

// frameTooLargeError reports an inbound line longer than the frame limit.
// The line has been consumed; Head holds its first bytes (at most the
// limit, and at most recordLimit) for the record, and Tail (from readLine
// only) its last bytes, at most tailLimit, without the line terminator.
type frameTooLargeError struct {
	Limit int
	Head  []byte
	Tail  []byte
}

func (e *frameTooLargeError) Error() string {
	return fmt.Sprintf("inbound frame larger than the %d-byte limit (MaxFrameSize)", e.Limit)
}

// readLine returns the next line of r, without its "\n" or "\r\n"
// terminator, in a newly allocated slice. A final line without a terminator
// is returned before io.EOF. A line longer than limit bytes is consumed to
// its end and reported as *frameTooLargeError, so reading can go on.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line, tail []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > limit+len("\r\n") {
				tooLong = true
				tail = append(tail, line[max(0, len(line)-tailLimit):]...)
				line = line[:min(len(line), recordLimit)]
			}
		} else {
			tail = append(tail, chunk[max(0, len(chunk)-tailLimit):]...)
			tail = tail[max(0, len(tail)-tailLimit):]
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == io.EOF && (len(line) > 0 || tooLong) {
			err = nil // a last line without terminator
		}
		if err != nil {
			return nil, err
		}
		if !tooLong {
			line = trimEOL(line)
		}
		if tooLong || len(line) > limit {
			if !tooLong {
				tail = line[max(0, len(line)-tailLimit):]
			}
			tail = trimEOL(tail)
			return nil, &frameTooLargeError{Limit: limit, Head: line[:min(len(line), limit, recordLimit)], Tail: bytes.Clone(tail)}
		}
		return line, nil
	}
}

// trimEOL removes a final "\n" or "\r\n"; a lone final "\r" stays.
func trimEOL(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\n' {
		return bytes.TrimSuffix(line[:n-1], []byte("\r"))
	}
	return line
}

// tailIDPattern matches a top-level "id" member that ends an object.
var tailIDPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`"id"\s*:\s*(-?[0-9]+)\s*}\s*$`)
})

// responseID finds which request an oversized frame answers, from its
// first bytes, or its last ones when "id" comes after the result (as the
// TypeScript SDK writes it). It reports false unless the frame is plainly a
// response: an object with a "result" or "error" member before any "method".
func (e *frameTooLargeError) responseID() (int64, bool) {
	dec := json.NewDecoder(bytes.NewReader(e.Head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return 0, false
	}
	var id int64
	haveID, response := false, false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			break
		}
		switch key {
		case "method":
			return 0, false
		case "result", "error":
			response = true
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			break // the value runs past Head
		}
		if key == "id" {
			haveID = json.Unmarshal(v, &id) == nil
		}
	}
	if !response {
		return 0, false
	}
	if !haveID {
		m := tailIDPattern().FindSubmatch(e.Tail)
		if m == nil {
			return 0, false
		}
		if _, err := fmt.Sscan(string(m[1]), &id); err != nil {
			return 0, false
		}
	}
	return id, true
}
