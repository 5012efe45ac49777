package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// demoBadFrames are frames that the demo server must answer with a
// JSON-RPC error, id and all, and then go on serving. Each would end the
// Go SDK's stdio session.
var demoBadFrames = []struct {
	name  string
	frame string
	code  int64
	id    string // the error's id, as JSON
}{
	{"not JSON", "this is not json {{{", -32700, "null"},
	{"nested deeper than 1000 levels", `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"a":` +
		strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}`, -32700, "null"},
	{"nested 100000 levels", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), -32700, "null"},
	{"trailing data", `{"jsonrpc":"2.0","id":3,"method":"ping"} x`, -32700, "null"},
	{"two messages on one line", `{"jsonrpc":"2.0","id":4,"method":"ping"}{"jsonrpc":"2.0","id":5,"method":"ping"}`, -32700, "null"},
	{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":6,"method":"ping"}`, -32600, "6"},
	{"jsonrpc a number", `{"jsonrpc":2,"id":"seven","method":"ping"}`, -32600, `"seven"`},
	{"jsonrpc key in capitals", `{"JSONRPC":"2.0","id":8,"method":"ping"}`, -32600, "8"},
	{"method not a string", `{"jsonrpc":"2.0","id":9,"method":5}`, -32600, "9"},
	{"id an object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null"},
	{"id a boolean", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, "null"},
	{"id out of range", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, -32600, "null"},
	{"id not an integer", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, "null"},
	{"a number", "42", -32600, "null"},
	{"null", "null", -32600, "null"},
	{"empty batch", "[]", -32600, "null"},
	{"batch", `[{"jsonrpc":"2.0","id":10,"method":"ping"}]`, -32600, "null"},
	{"response with a malformed error", `{"jsonrpc":"2.0","id":11,"error":{"code":"x","message":"m"}}`, -32600, "null"},
	{"neither request nor response", `{"jsonrpc":"2.0","id":12}`, -32600, "null"},
	{"larger than 16 MiB", `{"jsonrpc":"2.0","id":13,"method":"ping","params":{"a":"` + strings.Repeat("x", 16<<20) + `"}}`, -32600, "null"},
}

// demoReply is a JSON-RPC response as the demo server sends it.
type demoReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// checkDemoError checks that body is a JSON-RPC error with code and id.
func checkDemoError(t *testing.T, body []byte, code int64, id string) {
	t.Helper()
	var r demoReply
	if err := json.Unmarshal(body, &r); err != nil || r.JSONRPC != "2.0" || r.Error == nil || r.Result != nil {
		t.Fatalf("the answer is not a JSON-RPC error: %.300q (%v)", body, err)
	}
	if r.Error.Code != code || string(r.ID) != id || r.Error.Message == "" {
		t.Errorf("error %d %q with id %s, want code %d and id %s", r.Error.Code, r.Error.Message, r.ID, code, id)
	}
}

// TestDemoServerStdioSurvivesBadFrames sends each bad frame to a real
// `playground demo-server` over a pipe, expects a JSON-RPC error, then a
// working tools/call.
func TestDemoServerStdioSurvivesBadFrames(t *testing.T) {
	bin := e2eBuildPlayground(t)
	for _, tt := range demoBadFrames {
		t.Run(tt.name, func(t *testing.T) {
			d := startDemoStdio(t, bin)
			d.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
			d.receive(t)
			d.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			d.send(t, tt.frame)
			checkDemoError(t, d.receive(t), tt.code, tt.id)
			d.send(t, `{"jsonrpc":"2.0","id":100,"method":"tools/call","params":{"name":"echo","arguments":{"message":"still here"}}}`)
			var r demoReply
			if body := d.receive(t); json.Unmarshal(body, &r) != nil || string(r.ID) != "100" || !bytes.Contains(r.Result, []byte("still here")) {
				t.Fatalf("tools/call after the bad frame: %.300q", body)
			}
		})
	}
}

// demoStdio is a `playground demo-server` process and the pipes to it.
type demoStdio struct {
	in    *os.File
	lines chan []byte // stdout, line by line; closed at its end
	log   *e2eLog     // stderr
}

// startDemoStdio starts `bin demo-server`; the test's end stops it.
func startDemoStdio(t *testing.T, bin string) *demoStdio {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	d := &demoStdio{in: inW, lines: make(chan []byte, 16), log: &e2eLog{}}
	cmd := exec.Command(bin, "demo-server")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, d.log
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		t.Fatal(err)
	}
	read := make(chan struct{})
	go func() {
		defer close(read)
		defer close(d.lines)
		r := bufio.NewReader(outR)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				d.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		e2eStopProcess(cmd)
		outR.Close()
		<-read
		if t.Failed() {
			t.Logf("demo-server stderr:\n%s", d.log.String())
		}
	})
	return d
}

// send writes frame and a newline.
func (d *demoStdio) send(t *testing.T, frame string) {
	t.Helper()
	_ = d.in.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(d.in, frame+"\n"); err != nil {
		t.Fatalf("writing to the demo server: %v", err)
	}
}

// receive returns the next line the server writes.
func (d *demoStdio) receive(t *testing.T) []byte {
	t.Helper()
	select {
	case line, ok := <-d.lines:
		if !ok {
			t.Fatal("the demo server closed its stdout")
		}
		return line
	case <-time.After(10 * time.Second):
		t.Fatal("no answer from the demo server within 10s")
	}
	return nil
}

// TestDemoServerHTTPSurvivesBadFrames posts each bad frame to a real
// `playground demo-server --http` in a live session, expects a JSON-RPC
// error in a 400 answer (413 for the oversized one), then a working
// tools/call in that session.
func TestDemoServerHTTPSurvivesBadFrames(t *testing.T) {
	bin := e2eBuildPlayground(t)
	url := startDemoHTTP(t, bin)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("connecting to %s: %v", url, err)
	}
	defer cs.Close()
	for i, tt := range demoBadFrames {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(tt.frame))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Session-Id", cs.ID())
			req.Header.Set("Mcp-Protocol-Version", cs.InitializeResult().ProtocolVersion)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			want := http.StatusBadRequest
			if len(tt.frame) > 16<<20 {
				want = http.StatusRequestEntityTooLarge
			}
			if resp.StatusCode != want || resp.Header.Get("Content-Type") != "application/json" {
				t.Errorf("status %d, Content-Type %q; want %d, application/json", resp.StatusCode, resp.Header.Get("Content-Type"), want)
			}
			checkDemoError(t, body, tt.code, tt.id)
			msg := fmt.Sprintf("still here %d", i)
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": msg}})
			if err != nil || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != msg {
				t.Fatalf("tools/call after the bad frame: %+v, %v", res, err)
			}
		})
	}
}

// TestDemoServerGCPercent checks that the demo-server process collects
// garbage less often than the runtime's default, unless GOGC says otherwise.
func TestDemoServerGCPercent(t *testing.T) {
	const other = 123
	defer debug.SetGCPercent(debug.SetGCPercent(other))

	t.Setenv("GOGC", "")
	setDemoGCPercent()
	if got := debug.SetGCPercent(other); got != demoGCPercent {
		t.Errorf("with GOGC unset, the GC percent is %d, want %d", got, demoGCPercent)
	}

	t.Setenv("GOGC", "150")
	setDemoGCPercent()
	if got := debug.SetGCPercent(other); got != other {
		t.Errorf("with GOGC=150, setDemoGCPercent changed the GC percent to %d, want it left at %d", got, other)
	}
}

// TestDemoServerMaxProcs checks that the demo-server process runs on one
// processor, unless GOMAXPROCS says otherwise.
func TestDemoServerMaxProcs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))

	t.Setenv("GOMAXPROCS", "")
	runtime.GOMAXPROCS(2)
	setDemoMaxProcs()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("with GOMAXPROCS unset, GOMAXPROCS is %d, want 1", got)
	}

	t.Setenv("GOMAXPROCS", "2")
	runtime.GOMAXPROCS(2)
	setDemoMaxProcs()
	if got := runtime.GOMAXPROCS(0); got != 2 {
		t.Errorf("with GOMAXPROCS=2, setDemoMaxProcs changed it to %d, want it left at 2", got)
	}
}
