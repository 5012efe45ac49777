package mcpclient

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// legacyTaskFake is a hand-written 2025-11-25 server whose one tool runs
// as a task: tools/call must be augmented; the task reports working on the
// first tasks/get and completed after; tasks/result gives the tool result.
// It records the params of each request by method.
type legacyTaskFake struct {
	mu     sync.Mutex
	params map[string][]json.RawMessage
	gets   int
	status string
}

func (f *legacyTaskFake) serve(t *testing.T) string {
	f.params = map[string][]json.RawMessage{}
	f.status = TaskWorking
	task := func() map[string]any {
		return map[string]any{"taskId": "t-1", "status": f.status, "createdAt": "2025-11-25T10:30:00Z",
			"lastUpdatedAt": "2025-11-25T10:30:00Z", "ttl": 60000, "pollInterval": 20}
	}
	srv := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		m, err := decodeMessage(body)
		if err != nil {
			http.Error(w, "bad", http.StatusBadRequest)
			return
		}
		if m.isNotification() {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		f.params[m.Method] = append(f.params[m.Method], m.Params)
		var res any
		var rpcErr *RPCError
		switch m.Method {
		case "initialize":
			res = map[string]any{"protocolVersion": "2025-11-25", "serverInfo": map[string]any{"name": "fake", "version": "1"},
				"capabilities": map[string]any{"tasks": map[string]any{"list": map[string]any{}, "cancel": map[string]any{}, "requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}}}
		case "tools/call":
			if !strings.Contains(string(m.Params), `"task"`) {
				rpcErr = &RPCError{Code: -32601, Message: "requires task augmentation"}
				break
			}
			res = map[string]any{"task": task()}
		case "tasks/get":
			f.gets++
			if f.gets > 1 && f.status == TaskWorking {
				f.status = TaskCompleted
			}
			res = task()
		case "tasks/result":
			res = map[string]any{"content": []any{map[string]any{"type": "text", "text": "done"}}}
		case "tasks/list":
			res = map[string]any{"tasks": []any{task()}}
		case "tasks/cancel":
			f.status = TaskCancelled
			res = task()
		default:
			rpcErr = &RPCError{Code: -32601, Message: "Method not found"}
		}
		status := 200
		if rpcErr != nil {
			status = 400
		}
		writeJSON(w, status, m.ID, res, rpcErr)
	}))
	return srv.URL
}

func TestLegacyToolTask(t *testing.T) {
	f := &legacyTaskFake{}
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: f.serve(t)}, Options{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	ctx := testContext(t)

	raw, task, err := c.StartToolCall(ctx, "research", json.RawMessage(`{"topic":"x"}`), &TaskParams{TTL: 60000})
	if err != nil || raw != nil || task == nil {
		t.Fatalf("StartToolCall = %s, %+v, %v", raw, task, err)
	}
	if task.TaskID != "t-1" || task.Status != TaskWorking || task.PollEvery() != 20*time.Millisecond || task.TTL() != time.Minute {
		t.Errorf("created task = %+v", task)
	}
	if got := string(f.params["tools/call"][0]); !strings.Contains(got, `"task":{"ttl":60000}`) {
		t.Errorf("tools/call params = %s", got)
	}

	got, err := c.GetTask(ctx, "t-1")
	if err != nil || got.Status != TaskWorking || got.Terminal() {
		t.Fatalf("first tasks/get = %+v, %v", got, err)
	}
	if got, err = c.GetTask(ctx, "t-1"); err != nil || got.Status != TaskCompleted || !got.Terminal() {
		t.Fatalf("second tasks/get = %+v, %v", got, err)
	}
	if string(f.params["tasks/get"][0]) != `{"taskId":"t-1"}` {
		t.Errorf("tasks/get params = %s", f.params["tasks/get"][0])
	}
	res, err := c.TaskResult(ctx, "t-1")
	if err != nil || !strings.Contains(string(res), `"text":"done"`) {
		t.Errorf("tasks/result = %s, %v", res, err)
	}
	page, err := c.ListTasksPage(ctx, "")
	if err != nil || len(page.Items) != 1 || page.Items[0].TaskID != "t-1" {
		t.Errorf("tasks/list = %+v, %v", page, err)
	}
	cancelled, err := c.CancelTask(ctx, "t-1")
	if err != nil || cancelled == nil || cancelled.Status != TaskCancelled {
		t.Errorf("tasks/cancel = %+v, %v", cancelled, err)
	}
	// The legacy initialize declares no tasks extension: that is modern only.
	if strings.Contains(string(f.params["initialize"][0]), TasksExtension) {
		t.Errorf("initialize params = %s", f.params["initialize"][0])
	}
}

func TestModernToolTask(t *testing.T) {
	var mu sync.Mutex
	var calls []string
	gets := 0
	url := modernFake(t, func(r *http.Request, m *message) (any, *RPCError) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, m.Method+" "+string(m.Params))
		base := map[string]any{"taskId": "m-1", "createdAt": "2026-07-28T10:00:00Z", "lastUpdatedAt": "2026-07-28T10:00:00Z", "ttlMs": nil, "pollIntervalMs": 10}
		with := func(kv ...any) map[string]any {
			out := map[string]any{}
			for k, v := range base {
				out[k] = v
			}
			for i := 0; i < len(kv); i += 2 {
				out[kv[i].(string)] = kv[i+1]
			}
			return out
		}
		switch m.Method {
		case "tools/call":
			if !strings.Contains(string(m.Params), TasksExtension) {
				return map[string]any{"resultType": "complete", "content": []any{}}, nil
			}
			return with("resultType", "task", "status", TaskWorking), nil
		case "tasks/get":
			gets++
			switch gets {
			case 1:
				return with("resultType", "complete", "status", TaskInputRequired, "inputRequests",
					map[string]any{"q": map[string]any{"method": "elicitation/create", "params": map[string]any{"message": "which?"}}}), nil
			default:
				return with("resultType", "complete", "status", TaskCompleted, "result",
					map[string]any{"content": []any{map[string]any{"type": "text", "text": "modern done"}}}), nil
			}
		case "tasks/update", "tasks/cancel":
			return map[string]any{"resultType": "complete"}, nil
		}
		return nil, &RPCError{Code: -32601, Message: "Method not found"}
	})
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: url}, Options{Era: EraModern, Handler: eraMux()})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	ctx := testContext(t)

	// A plain tools/call does not declare the extension, so gets a result.
	if _, err := c.CallTool(ctx, "research", nil); err != nil {
		t.Fatalf("plain tools/call: %v", err)
	}
	raw, task, err := c.StartToolCall(ctx, "research", nil, &TaskParams{TTL: 1000})
	if err != nil || raw != nil || task == nil || task.TaskID != "m-1" || task.PollEvery() != 10*time.Millisecond || task.TTL() != 0 {
		t.Fatalf("StartToolCall = %s, %+v, %v", raw, task, err)
	}
	got, err := c.GetTask(ctx, "m-1")
	if err != nil || got.Status != TaskInputRequired || len(got.InputRequests) != 1 {
		t.Fatalf("tasks/get = %+v, %v", got, err)
	}
	if err := c.UpdateTask(ctx, "m-1", got.InputRequests); err != nil {
		t.Fatalf("tasks/update: %v", err)
	}
	if got, err = c.GetTask(ctx, "m-1"); err != nil || got.Status != TaskCompleted || !strings.Contains(string(got.Result), "modern done") {
		t.Fatalf("tasks/get = %+v, %v", got, err)
	}
	if _, err := c.TaskResult(ctx, "m-1"); err == nil {
		t.Error("tasks/result in the modern era: no error")
	}
	if tk, err := c.CancelTask(ctx, "m-1"); err != nil || tk != nil {
		t.Errorf("tasks/cancel = %+v, %v", tk, err)
	}
	mu.Lock()
	defer mu.Unlock()
	var sawTask, sawUpdate bool
	for _, call := range calls {
		if strings.HasPrefix(call, "tools/call ") && strings.Contains(call, TasksExtension) {
			sawTask = true
			if strings.Contains(call, `"task":`) {
				t.Errorf("modern tools/call carries params.task: %s", call)
			}
		}
		if strings.HasPrefix(call, "tasks/update ") {
			sawUpdate = strings.Contains(call, `"inputResponses":{"q":`) && strings.Contains(call, `"taskId":"m-1"`)
		}
	}
	if !sawTask || !sawUpdate {
		t.Errorf("calls = %q", calls)
	}
}

func TestCreatedTask(t *testing.T) {
	tests := []struct {
		name, raw, wantID string
		wantErr           bool
	}{
		{"legacy", `{"task":{"taskId":"a","status":"working"}}`, "a", false},
		{"modern flat", `{"resultType":"task","taskId":"b","status":"working"}`, "b", false},
		{"plain result", `{"content":[]}`, "", false},
		{"no id", `{"resultType":"task","status":"working"}`, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			task, err := createdTask(json.RawMessage(tt.raw))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v", err)
			}
			if task != nil {
				if task.TaskID != tt.wantID {
					t.Errorf("id = %q", task.TaskID)
				}
			} else if tt.wantID != "" {
				t.Errorf("no task")
			}
		})
	}
}
