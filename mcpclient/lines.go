package mcpclient

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// recordLimit is how many bytes of an oversized frame are kept for the Tap.
const recordLimit = 64 << 10

// frameTooLargeError reports an inbound line longer than the frame limit.
// The line has been consumed; Head holds its first bytes (at most the
// limit, and at most recordLimit) for the record.
type frameTooLargeError struct {
	Limit int
	Head  []byte
}

func (e *frameTooLargeError) Error() string {
	return fmt.Sprintf("inbound frame larger than the %d-byte limit (MaxFrameSize)", e.Limit)
}

// readLine returns the next line of r, without its "\n" or "\r\n"
// terminator, in a newly allocated slice. A final line without a terminator
// is returned before io.EOF. A line longer than limit bytes is consumed to
// its end and reported as *frameTooLargeError, so reading can go on.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > limit+len("\r\n") {
				tooLong = true
				line = line[:min(len(line), recordLimit)]
			}
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
			line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		}
		if tooLong || len(line) > limit {
			return nil, &frameTooLargeError{Limit: limit, Head: line[:min(len(line), limit, recordLimit)]}
		}
		return line, nil
	}
}
