package backend_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/mcpclient"
)

// everythingServer is server-everything over stdio; the test skips (fails
// under CI) when node or the package is missing.
func everythingServer(t *testing.T) backend.Server {
	t.Helper()
	return npmServer(t, "everything", "server-everything", "stdio")
}

// npmServer is the stdio server of the package @modelcontextprotocol/pkg
// under $PLAYGROUND_NODE_MODULES (default: the repository's node_modules),
// run by node with args; the test skips (fails under CI) when node or the
// package is missing.
func npmServer(t *testing.T, name, pkg string, args ...string) backend.Server {
	t.Helper()
	dir := os.Getenv("PLAYGROUND_NODE_MODULES")
	if dir == "" {
		dir = filepath.Join("..", "node_modules")
	}
	script, _ := filepath.Abs(filepath.Join(dir, "@modelcontextprotocol", pkg, "dist", "index.js"))
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(script)
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skipf("needs node and %s: %v", pkg, err)
	}
	return backend.Server{Name: name, Transport: backend.TransportStdio, Command: node, Args: append([]string{script}, args...)}
}

// TestPoolToolTask runs server-everything's simulate-research-query, whose
// taskSupport is required, through Pool.CallTool: it runs as a task, each
// status change reaches the hub under the call's id, and the tool's result
// comes back with the completed task, which Tasks lists and whose result
// TaskResult gives again. A second run cancelled with CancelCall sends
// tasks/cancel: the task is cancelled on the server too.
func TestPoolToolTask(t *testing.T) {
	e := MustEnv(t)
	sess := e.MustConnect(t, e.MustServer(t, everythingServer(t)))
	ctx := backendtest.Context(t)
	var tool backend.Tool
	for deadline := time.Now().Add(10 * time.Second); tool.Name == "" && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		tool, _ = e.Pool.Tool(ctx, sess.ID, "simulate-research-query")
	}
	if !e.Pool.RunsAsTask(sess.ID, tool, false) {
		t.Fatalf("simulate-research-query does not run as a task: %+v", tool)
	}
	if tools, _ := e.Pool.Tools(ctx, sess.ID, true); len(tools) != 19 {
		t.Errorf("%d tools, want 19", len(tools))
	}
	sub := e.Hub.Subscribe(sess.ID)
	defer sub.Close()

	res, err := e.Pool.CallTool(ctx, sess.ID, tool, json.RawMessage(`{"topic":"otters"}`), true, backend.CallOptions{ID: "t1"})
	if err != nil || res.Error != nil || res.Task == nil {
		t.Fatalf("CallTool = %+v, %v", res, err)
	}
	if res.Task.Status != mcpclient.TaskCompleted || !strings.Contains(string(res.Result), "Research Report: otters") {
		t.Errorf("task %+v, result %.120s", res.Task, res.Result)
	}
	var statuses []string
	for len(sub.C) > 0 {
		if ev := <-sub.C; ev.Task != nil {
			if ev.Task.CallID != "t1" || ev.Task.TaskID != res.Task.TaskID {
				t.Errorf("task event %+v", ev.Task)
			}
			statuses = append(statuses, ev.Task.Status+": "+ev.Task.Message)
		}
	}
	if len(statuses) < 2 || !strings.HasPrefix(statuses[0], "working") {
		t.Errorf("task events = %q", statuses)
	}

	tasks, err := e.Pool.Tasks(ctx, sess.ID)
	if err != nil || len(tasks) != 1 || tasks[0].TaskID != res.Task.TaskID || tasks[0].Tool != tool.Name || tasks[0].Status != mcpclient.TaskCompleted {
		t.Fatalf("Tasks = %+v, %v", tasks, err)
	}
	again, err := e.Pool.TaskResult(ctx, sess.ID, res.Task.TaskID)
	if err != nil || !strings.Contains(string(again.Result), "Research Report: otters") {
		t.Errorf("TaskResult = %.120s, %v", again.Result, err)
	}

	done := make(chan error, 1)
	var second backend.ToolCallResult
	go func() {
		var err error
		second, err = e.Pool.CallTool(ctx, sess.ID, tool, json.RawMessage(`{"topic":"cancel me"}`), true, backend.CallOptions{ID: "t2"})
		done <- err
	}()
	var taskID string
	for taskID == "" {
		select {
		case ev := <-sub.C:
			if ev.Task != nil && ev.Task.CallID == "t2" {
				taskID = ev.Task.TaskID
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no task event of the second call")
		}
	}
	if _, err := e.Pool.CancelCall(sess.ID, "t2"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, backend.ErrCallCancelled) {
		t.Fatalf("the cancelled task call: %+v, %v", second, err)
	}
	tasks, err = e.Pool.Tasks(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range tasks {
		if tk.TaskID == taskID && tk.Status != mcpclient.TaskCancelled {
			t.Errorf("the cancelled call's task is %s", tk.Status)
		}
	}
	if _, err := e.Pool.TaskResult(ctx, sess.ID, "no-such-task"); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("TaskResult of an unknown task: %v", err)
	}
}
