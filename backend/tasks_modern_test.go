package backend_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/mcpclient"
)

// modernTaskServer is a hand-written 2026-07-28 server whose tool answers
// with a task (resultType "task") when the request declares the tasks
// extension. The task first needs input (roots/list), then completes once
// tasks/update brought the answer. It records each request's method and
// params.
type modernTaskServer struct {
	mu       sync.Mutex
	requests []string
	updated  bool
}

func (s *modernTaskServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(body, &m) != nil || m.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, m.Method+" "+string(m.Params))
	task := map[string]any{"taskId": "m-1", "status": "working", "createdAt": "2026-07-28T10:00:00Z", "lastUpdatedAt": "2026-07-28T10:00:00Z", "ttlMs": nil, "pollIntervalMs": 1}
	var res any
	switch m.Method {
	case "server/discover":
		res = map[string]any{"resultType": "complete", "supportedVersions": []string{"2026-07-28"},
			"capabilities": map[string]any{"tools": map[string]any{}, "extensions": map[string]any{mcpclient.TasksExtension: map[string]any{}}},
			"serverInfo":   map[string]any{"name": "modern-tasks", "version": "1"}}
	case "tools/list":
		res = map[string]any{"resultType": "complete", "tools": []any{map[string]any{"name": "slow", "inputSchema": map[string]any{"type": "object"}}}}
	case "tools/call":
		task["resultType"] = "task"
		res = task
	case "tasks/get":
		task["resultType"] = "complete"
		if s.updated {
			task["status"] = "completed"
			task["result"] = map[string]any{"content": []any{map[string]any{"type": "text", "text": "modern task done"}}}
		} else {
			task["status"] = "input_required"
			task["inputRequests"] = map[string]any{"r1": map[string]any{"method": "roots/list"}}
		}
		res = task
	case "tasks/update":
		s.updated = strings.Contains(string(m.Params), `"inputResponses":{"r1":{"roots":[]}}`)
		res = map[string]any{"resultType": "complete"}
	default:
		res = map[string]any{"resultType": "complete"}
	}
	out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": res})
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

// TestPoolModernToolTask follows a 2026-07-28 task through Pool.CallTool:
// the call declares the tasks extension, the server answers with a task,
// its input_required round is answered with tasks/update, and the result
// comes inline with tasks/get; Tasks lists it and TaskResult gives it.
func TestPoolModernToolTask(t *testing.T) {
	fake := &modernTaskServer{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	e := MustEnv(t)
	server := httpServer("modern", srv.URL)
	server.Era = backend.EraModern
	sess := e.MustConnect(t, e.MustServer(t, server))
	ctx := backendtest.Context(t)
	tool, err := e.Pool.Tool(ctx, sess.ID, "slow")
	if err != nil {
		t.Fatal(err)
	}
	if e.Pool.RunsAsTask(sess.ID, tool, true) {
		t.Error("RunsAsTask in the modern era: the server decides, not the client")
	}
	res, err := e.Pool.CallTool(ctx, sess.ID, tool, nil, false, backend.CallOptions{ID: "m"})
	if err != nil || res.Task == nil || res.Task.Status != mcpclient.TaskCompleted || !strings.Contains(string(res.Result), "modern task done") {
		t.Fatalf("CallTool = %+v (%s), %v", res.Task, res.Result, err)
	}
	tasks, err := e.Pool.Tasks(ctx, sess.ID)
	if err != nil || len(tasks) != 1 || tasks[0].TaskID != "m-1" || tasks[0].Tool != "slow" {
		t.Errorf("Tasks = %+v, %v", tasks, err)
	}
	again, err := e.Pool.TaskResult(ctx, sess.ID, "m-1")
	if err != nil || !strings.Contains(string(again.Result), "modern task done") {
		t.Errorf("TaskResult = %s, %v", again.Result, err)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	var call string
	for _, r := range fake.requests {
		if strings.HasPrefix(r, "tools/call ") {
			call = r
		}
	}
	if !strings.Contains(call, `"`+mcpclient.TasksExtension+`":{}`) || strings.Contains(call, `"task":`) {
		t.Errorf("tools/call = %s", call)
	}
	if !fake.updated {
		t.Errorf("no tasks/update with the roots answer; requests: %q", fake.requests)
	}
}
