package backend_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
)

// TestRealServersLintClean drives the official reference servers over
// stdio — server-everything, server-filesystem and server-memory — through
// a session each (the handshake, the lists, tool calls, a resource read)
// and finds no error or warning in any frame either way: the linter does
// not cry wolf on real traffic.
func TestRealServersLintClean(t *testing.T) {
	dir := t.TempDir()
	peers := []struct {
		server    backend.Server
		resources bool        // it offers resources: the first is read
		calls     [][2]string // method, params
	}{
		{everythingServer(t), true, [][2]string{
			{"tools/call", `{"name":"echo","arguments":{"message":"lint"}}`},
			{"tools/call", `{"name":"get-sum","arguments":{"a":1,"b":2}}`},
			{"tools/call", `{"name":"get-structured-content","arguments":{"location":"Chicago"}}`},
			{"tools/call", `{"name":"get-tiny-image","arguments":{}}`},
			{"tools/call", `{"name":"get-resource-links","arguments":{"count":2}}`},
			{"ping", ``},
		}},
		{npmServer(t, "filesystem", "server-filesystem", dir), false, [][2]string{
			{"tools/call", `{"name":"list_allowed_directories","arguments":{}}`},
			{"tools/call", fmt.Sprintf(`{"name":"write_file","arguments":{"path":%q,"content":"hello"}}`, filepath.Join(dir, "a.txt"))},
			{"tools/call", fmt.Sprintf(`{"name":"read_text_file","arguments":{"path":%q}}`, filepath.Join(dir, "a.txt"))},
			{"tools/call", fmt.Sprintf(`{"name":"list_directory","arguments":{"path":%q}}`, dir)},
			{"tools/call", fmt.Sprintf(`{"name":"get_file_info","arguments":{"path":%q}}`, filepath.Join(dir, "a.txt"))},
			{"tools/call", `{"name":"read_text_file","arguments":{"path":"/etc/passwd"}}`}, // refused: an isError result
		}},
		{withEnv(npmServer(t, "memory", "server-memory"), "MEMORY_FILE_PATH", filepath.Join(dir, "memory.jsonl")), false, [][2]string{
			{"tools/call", `{"name":"create_entities","arguments":{"entities":[{"name":"Ada","entityType":"person","observations":["wrote programs"]}]}}`},
			{"tools/call", `{"name":"add_observations","arguments":{"observations":[{"entityName":"Ada","contents":["liked engines"]}]}}`},
			{"tools/call", `{"name":"read_graph","arguments":{}}`},
			{"tools/call", `{"name":"search_nodes","arguments":{"query":"Ada"}}`},
		}},
	}
	for _, peer := range peers {
		t.Run(peer.server.Name, func(t *testing.T) {
			t.Parallel()
			e := MustEnv(t)
			sess := e.MustConnect(t, e.MustServer(t, peer.server))
			ctx := backendtest.Context(t)
			calls := peer.calls
			if peer.resources {
				res, err := e.Pool.Call(ctx, sess.ID, "resources/list", nil)
				var list struct {
					Resources []struct {
						URI string `json:"uri"`
					} `json:"resources"`
				}
				if err != nil || res.Error != nil || json.Unmarshal(res.Result, &list) != nil || len(list.Resources) == 0 {
					t.Fatalf("resources/list: %+v, %v", res, err)
				}
				calls = append(calls, [2]string{"resources/read", fmt.Sprintf(`{"uri":%q}`, list.Resources[0].URI)})
			}
			for _, c := range calls {
				var params json.RawMessage
				if c[1] != "" {
					params = json.RawMessage(c[1])
				}
				res, err := e.Pool.Call(ctx, sess.ID, c[0], params)
				if err != nil || res.Error != nil {
					t.Fatalf("%s %s: %+v, %v", c[0], c[1], res.Error, err)
				}
			}
			if err := e.Pool.Disconnect(ctx, sess.ID); err != nil {
				t.Fatal(err)
			}
			frames, err := e.DB.ListFrames(ctx, backend.FrameQuery{SessionID: sess.ID})
			if err != nil {
				t.Fatal(err)
			}
			messages := 0
			for _, f := range frames {
				if f.Kind == backend.KindMessage {
					messages++
				}
				for _, fd := range f.Findings {
					if fd.Severity != backend.LintInfo {
						t.Errorf("frame %d %s %s: %s %s at %q: %s", f.ID, f.Direction, f.Body[:min(len(f.Body), 300)], fd.Severity, fd.Code, fd.Pointer, fd.Message)
					}
				}
			}
			if messages < 2*len(calls) {
				t.Errorf("%d messages recorded for %d calls", messages, len(calls))
			}
		})
	}
}

// withEnv is s with the environment variable name set to value.
func withEnv(s backend.Server, name, value string) backend.Server {
	s.Env = map[string]string{name: value}
	return s
}
