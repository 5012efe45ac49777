package mcpclient

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
)

// FuzzReadLine checks the stdio line framer: lines come back without
// terminators and within the limit, oversized lines are reported with a
// bounded record, and the whole input is consumed.
func FuzzReadLine(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\"}\n"), uint16(64))
	f.Add([]byte("a\r\nb\n\nc"), uint16(1))
	f.Add([]byte("\r\r\n\n\r"), uint16(0))
	f.Add(bytes.Repeat([]byte("x"), 300), uint16(16))
	f.Add([]byte("short\n"+string(bytes.Repeat([]byte("y"), 5000))+"\nafter\n"), uint16(100))
	f.Fuzz(func(t *testing.T, data []byte, limit16 uint16) {
		limit := int(limit16 % 2048)
		r := bufio.NewReaderSize(bytes.NewReader(data), 16)
		var total int
		for i := 0; ; i++ {
			if i > len(data)+1 {
				t.Fatalf("more lines than bytes")
			}
			line, err := readLine(r, limit)
			var tooLarge *frameTooLargeError
			switch {
			case errors.As(err, &tooLarge):
				if len(tooLarge.Head) > limit || len(tooLarge.Head) > recordLimit || len(tooLarge.Tail) > tailLimit {
					t.Fatalf("record of %d+%d bytes for limit %d", len(tooLarge.Head), len(tooLarge.Tail), limit)
				}
				if !bytes.HasPrefix(data[total:], tooLarge.Head) {
					t.Fatalf("head %q is not the line's start", tooLarge.Head)
				}
				_, _ = tooLarge.responseID() // must not panic
				n := bytes.IndexByte(data[total:], '\n')
				if n < 0 {
					n = len(data) - total - 1
				}
				total += n + 1
				continue
			case err == io.EOF:
				if total != len(data) {
					t.Fatalf("EOF after %d of %d bytes", total, len(data))
				}
				return
			case err != nil:
				t.Fatalf("err = %v", err)
			}
			if len(line) > limit || bytes.IndexByte(line, '\n') >= 0 {
				t.Fatalf("line %q for limit %d", line, limit)
			}
			rest := data[total:]
			if !bytes.HasPrefix(rest, line) {
				t.Fatalf("line %q is not the input at %d", line, total)
			}
			total += len(line)
			switch {
			case bytes.HasPrefix(rest[len(line):], []byte("\r\n")):
				total += 2
			case bytes.HasPrefix(rest[len(line):], []byte("\n")):
				total++
			case total != len(data):
				t.Fatalf("line %q ends at %d without terminator", line, total)
			}
		}
	})
}

// FuzzDecodeMessage checks the JSON-RPC decoder: whatever it accepts is
// exactly one of request, notification and response, and survives being
// encoded again.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":2}}`,
		`{"jsonrpc":"2.0","id":"a","result":{}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
		`{"jsonrpc":"1.0","id":[1],"method":"x","result":1}`,
		`{"id":1}`,
		`[]`,
		`null`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":3}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := decodeMessage(body)
		if err != nil {
			return
		}
		kinds := 0
		for _, is := range []bool{m.isRequest(), m.isNotification(), m.isResponse()} {
			if is {
				kinds++
			}
		}
		if kinds != 1 {
			t.Fatalf("%s is %d kinds of message", body, kinds)
		}
		var again []byte
		switch {
		case m.isRequest():
			var id int64
			if json.Unmarshal(m.ID, &id) == nil {
				again, err = encodeRequest(id, m.Method, m.Params)
			}
		case m.isNotification():
			again, err = encodeNotification(m.Method, m.Params)
		default:
			again, err = encodeResponse(m.ID, m.Result, m.Error)
		}
		if err != nil {
			t.Fatalf("re-encode %s: %v", body, err)
		}
		if again != nil {
			if _, err := decodeMessage(again); err != nil {
				t.Fatalf("re-encoded %s as %s, which does not decode: %v", body, again, err)
			}
			if bytes.IndexByte(again, '\n') >= 0 {
				t.Fatalf("re-encoded %s on several lines", body)
			}
		}
	})
}

// FuzzWithProgressToken checks the _meta splicing: the result is a JSON
// object with the token in _meta, and every other member is unchanged.
func FuzzWithProgressToken(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"_meta":{}}`, `{"_meta":{"x":[1]},"b":"c"}`, `{"_meta":{"progressToken":"t"}}`, ` {"a" : { "_meta" : 1 } } `, `[1]`, `"s"`, `{"_meta":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, params []byte) {
		if !json.Valid(params) {
			return
		}
		out, token, err := withProgressToken(json.RawMessage(params), 42)
		if err != nil {
			return
		}
		var before, after map[string]json.RawMessage
		if err := json.Unmarshal(params, &before); err != nil {
			t.Fatalf("accepted non-object %s", params)
		}
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("%s became invalid %s: %v", params, out, err)
		}
		var meta map[string]json.RawMessage
		if err := json.Unmarshal(after["_meta"], &meta); err != nil {
			t.Fatalf("%s: _meta of %s: %v", params, out, err)
		}
		if !jsonEqual(meta["progressToken"], token) {
			t.Fatalf("%s: token %s, _meta %s", params, token, after["_meta"])
		}
		for k, v := range before {
			if k != "_meta" && !jsonEqual(after[k], v) {
				t.Fatalf("%s: member %q changed to %s", params, k, after[k])
			}
		}
	})
}

// jsonEqual reports whether a and b hold the same JSON value.
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}
