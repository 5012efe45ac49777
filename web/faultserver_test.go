package web_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// hugeResultSize is the size of the text the fault server's huge tool
// returns: well over mcpclient's 16 MiB default frame limit.
const hugeResultSize = 50 << 20

// faultStdioServer registers a stdio server that re-runs this test binary
// as runFaultServer.
func faultStdioServer(name string) map[string]any {
	return map[string]any{"name": name, "transport": "stdio", "command": os.Args[0],
		"env": map[string]string{roleEnv: "fault", "GORACE": "atexit_sleep_ms=0"}}
}

// faultTools is the fault server's tools/list result.
const faultTools = `{"tools":[
	{"name":"echo","description":"answers with the text","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}},
	{"name":"crash","description":"exits with status 3 in the middle of the call","inputSchema":{"type":"object"}},
	{"name":"hang","description":"never answers","inputSchema":{"type":"object"}},
	{"name":"garbage","description":"writes a line that is not JSON instead of the answer","inputSchema":{"type":"object"}},
	{"name":"huge","description":"answers with a 50 MiB text","inputSchema":{"type":"object"}}]}`

// runFaultServer is an MCP server over stdio written by hand, so that it
// can misbehave as no SDK would let it. It answers initialize, ping and
// tools/list, and these tools/call names: echo (answers with the text),
// crash (says so on stderr and exits with status 3 without answering),
// hang (never answers), garbage (writes a line that is not JSON instead of
// the answer) and huge (answers with a 50 MiB text). Each
// notifications/cancelled it receives is reported on stderr. It returns
// its exit status when stdin ends or a write fails.
func runFaultServer(in io.Reader, out, errOut io.Writer) int {
	var mu sync.Mutex
	writeErr := error(nil)
	write := func(line []byte) {
		mu.Lock()
		defer mu.Unlock()
		if _, err := out.Write(append(line, '\n')); err != nil && writeErr == nil {
			writeErr = err
		}
	}
	reply := func(id json.RawMessage, result string) {
		write([]byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + result + `}`))
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		if writeErr != nil {
			return 1
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
				RequestID json.RawMessage `json:"requestId"`
				Reason    string          `json:"reason"`
				Version   string          `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		hasID := len(m.ID) > 0 && string(m.ID) != "null"
		switch {
		case m.Method == "notifications/cancelled":
			fmt.Fprintf(errOut, "fault server: request %s cancelled: %s\n", m.Params.RequestID, m.Params.Reason)
		case !hasID || m.Method == "":
			// Other notifications, and answers to requests we never send.
		case m.Method == "initialize":
			version, _ := json.Marshal(m.Params.Version)
			reply(m.ID, `{"protocolVersion":`+string(version)+`,"capabilities":{"tools":{}},"serverInfo":{"name":"fault","version":"1"}}`)
		case m.Method == "ping":
			reply(m.ID, `{}`)
		case m.Method == "tools/list":
			var compact bytes.Buffer
			_ = json.Compact(&compact, []byte(faultTools))
			reply(m.ID, compact.String())
		case m.Method == "tools/call":
			switch m.Params.Name {
			case "echo":
				var args struct {
					Text string `json:"text"`
				}
				_ = json.Unmarshal(m.Params.Arguments, &args)
				text, _ := json.Marshal("echo: " + args.Text)
				reply(m.ID, `{"content":[{"type":"text","text":`+string(text)+`}]}`)
			case "crash":
				fmt.Fprintln(errOut, "fault server: crashing in the middle of a call")
				return 3
			case "hang":
				fmt.Fprintf(errOut, "fault server: hanging on request %s\n", m.ID)
			case "garbage":
				write([]byte("this is not JSON-RPC {{{"))
			case "huge":
				var b strings.Builder
				b.Grow(hugeResultSize + 100)
				b.WriteString(`{"content":[{"type":"text","text":"`)
				b.WriteString(strings.Repeat("x", hugeResultSize))
				b.WriteString(`"}]}`)
				reply(m.ID, b.String())
			default:
				write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32602,"message":"unknown tool"}}`))
			}
		default:
			write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`))
		}
	}
	return 0
}
