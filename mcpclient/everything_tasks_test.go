package mcpclient

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestServerEverythingTasks runs server-everything's task tools with a
// client whose Handler declares only sampling, elicitation and roots (as
// the playground's does): the client hosts the tasks of the async sampling
// and elicitation tools itself, so the server offers all 19 tools, and
// simulate-research-query runs to completion through StartToolCall,
// tasks/get and tasks/result.
func TestServerEverythingTasks(t *testing.T) {
	mux := eraMux()
	mux.HandleFunc("roots/list", func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"roots":[]}`), nil
	})
	node, script := everythingScript(t)
	rec := &recorder{}
	c, err := ConnectStdio(testContext(t), StdioConfig{Command: node, Args: []string{script, "stdio"}}, Options{Handler: mux, Tap: rec.tap})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	ctx := testContext(t)
	if caps := string(c.ClientCapabilities()); !strings.Contains(caps, `"tasks":{"cancel":{},"list":{},"requests":{"elicitation":{"create":{}},"sampling":{"createMessage":{}}}}`) {
		t.Errorf("client capabilities = %s", caps)
	}

	var tools []Tool
	for deadline := time.Now().Add(10 * time.Second); len(tools) < 19 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if tools, err = c.ListTools(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if len(tools) != 19 {
		t.Fatalf("%d tools, want 19", len(tools))
	}
	var research Tool
	for _, tool := range tools {
		if tool.Name == "simulate-research-query" {
			research = tool
		}
	}
	if research.TaskSupport() != TaskSupportRequired {
		t.Fatalf("simulate-research-query taskSupport = %q", research.TaskSupport())
	}

	t.Run("a required task tool runs to completion", func(t *testing.T) {
		raw, task, err := c.StartToolCall(ctx, research.Name, json.RawMessage(`{"topic":"go"}`), &TaskParams{TTL: 60000})
		if err != nil || task == nil || raw != nil {
			t.Fatalf("StartToolCall = %s, %+v, %v", raw, task, err)
		}
		if task.Status != TaskWorking || task.PollEvery() != time.Second {
			t.Errorf("created = %+v", task)
		}
		var got Task
		for deadline := time.Now().Add(20 * time.Second); !got.Terminal(); time.Sleep(task.PollEvery()) {
			if got, err = c.GetTask(ctx, task.TaskID); err != nil {
				t.Fatal(err)
			}
			if time.Now().After(deadline) {
				t.Fatalf("task still %s", got.Status)
			}
		}
		if got.Status != TaskCompleted {
			t.Fatalf("task = %+v", got)
		}
		res, err := c.TaskResult(ctx, task.TaskID)
		if err != nil || !strings.Contains(string(res), "Research Report: go") {
			t.Errorf("tasks/result = %.200s, %v", res, err)
		}
		page, err := c.ListTasksPage(ctx, "")
		if err != nil || len(page.Items) == 0 {
			t.Errorf("tasks/list = %+v, %v", page, err)
		}
	})

	t.Run("cancel", func(t *testing.T) {
		_, task, err := c.StartToolCall(ctx, research.Name, json.RawMessage(`{"topic":"rust"}`), &TaskParams{})
		if err != nil || task == nil {
			t.Fatalf("StartToolCall: %+v, %v", task, err)
		}
		got, err := c.CancelTask(ctx, task.TaskID)
		if err != nil || got == nil || got.Status != TaskCancelled {
			t.Fatalf("tasks/cancel = %+v, %v", got, err)
		}
	})

	t.Run("the client hosts the server's sampling and elicitation tasks", func(t *testing.T) {
		for name, want := range map[string]string{
			"trigger-sampling-request-async":    "[COMPLETED] Async sampling completed",
			"trigger-elicitation-request-async": "[COMPLETED]",
		} {
			res, err := c.CallTool(ctx, name, json.RawMessage(`{"prompt":"2+2?","maxTokens":10}`))
			if name == "trigger-elicitation-request-async" {
				res, err = c.CallTool(ctx, name, json.RawMessage(`{}`))
			}
			if err != nil || res.IsError || !strings.Contains(text(res), want) {
				t.Errorf("%s = %+v, %v", name, res, err)
			}
		}
		rec.waitFind(t, Outbound, KindMessage, `"task":{"taskId"`)
	})
}
