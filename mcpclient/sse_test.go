package mcpclient

import (
	"bufio"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestReadSSE(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []sseEvent
	}{
		{"one event", "data: {}\n\n", []sseEvent{{data: []byte("{}")}}},
		{"CRLF, id and event", "id: 7\r\nevent: message\r\ndata: a\r\n\r\n", []sseEvent{{id: "7", data: []byte("a")}}},
		{"multi-line data", "data: a\ndata:b\ndata:  c\n\n", []sseEvent{{data: []byte("a\nb\n c")}}},
		{"comments and retry", ": hi\nretry: 10\ndata: x\n: bye\n\n", []sseEvent{{data: []byte("x")}}},
		{"priming event skipped", "id: p\ndata:\n\nid: 2\ndata: y\n\n", []sseEvent{{id: "2", data: []byte("y")}}},
		{"id is per event", "id: 1\ndata: a\n\ndata: b\n\n", []sseEvent{{id: "1", data: []byte("a")}, {data: []byte("b")}}},
		{"unterminated last event dropped", "data: a\n\ndata: b\n", []sseEvent{{data: []byte("a")}}},
		{"field without colon", "data\ndata: z\n\n", []sseEvent{{data: []byte("\nz")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []sseEvent
			if err := readSSE(strings.NewReader(tt.input), 1024, func(ev sseEvent) { got = append(got, ev) }); err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(got, tt.want, func(a, b sseEvent) bool { return a.id == b.id && string(a.data) == string(b.data) }) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseSSE(t *testing.T) {
	input := "id: p\nretry: 500\ndata:\n\n" + // priming event
		"event: endpoint\ndata: /messages?s=1\n\n" +
		"retry: soon\nid: 2\ndata: x\n\n" + // bad retry ignored
		"foo: bar\n\n" + // unknown field only: no event
		": comment only\n\n" +
		"retry: 7\n\n"
	var got []sseEvent
	if err := parseSSE(strings.NewReader(input), 1024, func(ev sseEvent) { got = append(got, ev) }); err != nil {
		t.Fatal(err)
	}
	want := []sseEvent{
		{id: "p", hasData: true, retry: 500 * time.Millisecond},
		{event: "endpoint", data: []byte("/messages?s=1"), hasData: true, retry: -1},
		{id: "2", data: []byte("x"), hasData: true, retry: -1},
		{retry: 7 * time.Millisecond},
	}
	if !slices.EqualFunc(got, want, func(a, b sseEvent) bool {
		return a.id == b.id && a.event == b.event && string(a.data) == string(b.data) && a.hasData == b.hasData && a.retry == b.retry
	}) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestReadSSETooLarge(t *testing.T) {
	input := "data: " + strings.Repeat("a", 600) + "\ndata: " + strings.Repeat("b", 600) + "\n\n"
	err := readSSE(strings.NewReader(input), 1000, func(sseEvent) { t.Error("event dispatched") })
	var tooLarge *frameTooLargeError
	if !errors.As(err, &tooLarge) || len(tooLarge.Head) != 1000 {
		t.Fatalf("err = %v", err)
	}
}

func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", 100)
	r := bufio.NewReaderSize(strings.NewReader("a\r\n\n"+long+"\nb\n"+long+"y\nlast"), 16)
	for _, want := range []string{"a", "", long, "b", "too large", "last", "EOF"} {
		line, err := readLine(r, 100)
		var tooLarge *frameTooLargeError
		got := string(line)
		switch {
		case errors.As(err, &tooLarge):
			got = "too large"
			if string(tooLarge.Head) != long {
				t.Errorf("head = %q", tooLarge.Head)
			}
		case err == io.EOF:
			got = "EOF"
		case err != nil:
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
