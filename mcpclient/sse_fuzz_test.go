package mcpclient

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzReadSSE checks the SSE parser: it never panics, every event it hands
// over carries data within the limit, and only oversized data (or a line
// over the limit) stops it early.
func FuzzReadSSE(f *testing.F) {
	for _, s := range []string{
		"data: {}\n\n",
		": comment\r\nid: 1\r\nevent: message\r\ndata: a\r\ndata: b\r\n\r\n",
		"id: prime\ndata:\n\n",
		"data\n\ndata:x\n\nid: a\x00b\ndata: y\n\n",
		"data: " + string(bytes.Repeat([]byte("z"), 200)) + "\n\n",
		"data: unterminated",
		"\n\n\n",
		"retry: 100\nid:\ndata: 1\n\n",
	} {
		f.Add([]byte(s), uint16(64))
	}
	f.Fuzz(func(t *testing.T, stream []byte, limit16 uint16) {
		limit := int(limit16%1024) + 1
		var events int
		err := readSSE(bytes.NewReader(stream), limit, func(ev sseEvent) {
			events++
			if len(ev.data) == 0 || len(ev.data) > limit {
				t.Fatalf("event with %d bytes of data, limit %d", len(ev.data), limit)
			}
			if bytes.IndexByte([]byte(ev.id), 0) >= 0 {
				t.Fatalf("id %q holds NUL", ev.id)
			}
		})
		var tooLarge *frameTooLargeError
		if err != nil && !errors.As(err, &tooLarge) {
			t.Fatalf("err = %v", err)
		}
		if tooLarge != nil && len(tooLarge.Head) > limit+len("data: ") {
			t.Fatalf("record of %d bytes, limit %d", len(tooLarge.Head), limit)
		}
		if events > len(stream) {
			t.Fatalf("%d events from %d bytes", events, len(stream))
		}
	})
}
