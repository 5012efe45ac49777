package mcpclient

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestHostedTasks drives the client side of legacy tasks as a server
// would: a task-augmented elicitation/create is answered at once with a
// working task, while the Handler (here waiting for release) answers in
// the background; tasks/get and tasks/list show it working, tasks/result
// waits for the answer and returns it with the related-task _meta. A
// second task is cancelled: tasks/result then fails, cancelling again is
// refused, and an unknown task is not found. A request without a task is
// answered as usual.
func TestHostedTasks(t *testing.T) {
	release := make(chan struct{})
	mux := &Mux{}
	mux.HandleFunc("elicitation/create", func(ctx context.Context, _ string, params json.RawMessage) (json.RawMessage, error) {
		if strings.Contains(string(params), `"task"`) {
			t.Errorf("the Handler sees the task member: %s", params)
		}
		select {
		case <-release:
			return json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	c := newClient(Options{Handler: mux})
	defer func() { c.cancel(); c.handlers.Wait() }()
	if !c.hosting || !strings.Contains(string(c.ClientCapabilities()), `"requests":{"elicitation":{"create":{}}}`) {
		t.Fatalf("capabilities = %s", c.ClientCapabilities())
	}
	ctx := testContext(t)
	call := func(method, params string) (json.RawMessage, *RPCError) {
		return c.handleRequest(ctx, method, json.RawMessage(params))
	}

	raw, rpcErr := call("elicitation/create", `{"message":"name?","requestedSchema":{"type":"object"},"task":{"ttl":1000}}`)
	task, err := createdTask(raw)
	if rpcErr != nil || err != nil || task == nil || task.Status != TaskWorking || task.PollEvery() != hostedTaskPoll {
		t.Fatalf("task-augmented request = %s, %v, %v", raw, rpcErr, err)
	}
	id := `{"taskId":"` + task.TaskID + `"}`
	if raw, rpcErr := call("tasks/get", id); rpcErr != nil || !strings.Contains(string(raw), `"status":"working"`) {
		t.Errorf("tasks/get = %s, %v", raw, rpcErr)
	}
	if raw, rpcErr := call("tasks/list", `{}`); rpcErr != nil || !strings.Contains(string(raw), task.TaskID) {
		t.Errorf("tasks/list = %s, %v", raw, rpcErr)
	}
	result := make(chan json.RawMessage, 1)
	go func() {
		raw, _ := call("tasks/result", id)
		result <- raw
	}()
	select {
	case raw := <-result:
		t.Fatalf("tasks/result answered before the task ended: %s", raw)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if raw := <-result; !strings.Contains(string(raw), `"action":"accept"`) || !strings.Contains(string(raw), `"io.modelcontextprotocol/related-task":{"taskId":"`+task.TaskID+`"}`) {
		t.Errorf("tasks/result = %s", raw)
	}
	if raw, _ := call("tasks/get", id); !strings.Contains(string(raw), `"status":"completed"`) {
		t.Errorf("tasks/get after the answer = %s", raw)
	}
	if _, rpcErr := call("tasks/cancel", id); rpcErr == nil {
		t.Error("cancelling a completed task: no error")
	}

	// The Handler now answers at once, so cancel a task whose Handler blocks.
	block := &Mux{}
	block.HandleFunc("sampling/createMessage", func(ctx context.Context, _ string, _ json.RawMessage) (json.RawMessage, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	c2 := newClient(Options{Handler: block})
	defer func() { c2.cancel(); c2.handlers.Wait() }()
	raw, _ = c2.handleRequest(ctx, "sampling/createMessage", json.RawMessage(`{"messages":[],"maxTokens":1,"task":{}}`))
	second, _ := createdTask(raw)
	if second == nil {
		t.Fatalf("sampling task = %s", raw)
	}
	id2 := json.RawMessage(`{"taskId":"` + second.TaskID + `"}`)
	if raw, rpcErr := c2.handleRequest(ctx, "tasks/cancel", id2); rpcErr != nil || !strings.Contains(string(raw), `"status":"cancelled"`) {
		t.Errorf("tasks/cancel = %s, %v", raw, rpcErr)
	}
	if _, rpcErr := c2.handleRequest(ctx, "tasks/result", id2); rpcErr == nil || !strings.Contains(rpcErr.Message, "cancelled") {
		t.Errorf("tasks/result of a cancelled task: %v", rpcErr)
	}
	if _, rpcErr := c2.handleRequest(ctx, "tasks/get", json.RawMessage(`{"taskId":"nope"}`)); rpcErr == nil || rpcErr.Code != -32602 {
		t.Errorf("tasks/get of an unknown task: %v", rpcErr)
	}
	if _, rpcErr := c2.handleRequest(ctx, "elicitation/create", json.RawMessage(`{"message":"x","task":{}}`)); rpcErr == nil || rpcErr.Code != codeMethodNotFound {
		t.Errorf("a task for an undeclared request: %v, want it answered as usual (method not found)", rpcErr)
	}
}
