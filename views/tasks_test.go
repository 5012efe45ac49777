package views

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
)

// TestToolCardTaskSupport: a tool card says whether the tool runs as a
// task; only an optional one offers the "Run as task" checkbox, which
// keeps what the user chose.
func TestToolCardTaskSupport(t *testing.T) {
	tests := []struct {
		name, support      string
		asTask             bool
		badge, box, ticked bool
	}{
		{"required", "required", false, true, false, false},
		{"optional", "optional", false, true, true, false},
		{"optional, chosen", "optional", true, true, true, true},
		{"forbidden", "forbidden", false, false, false, false},
		{"absent", "", false, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			v := ToolView{Name: "research", TaskSupport: tt.support, AsTask: tt.asTask, CallID: "C"}
			if err := ToolCard(1, 0, v, "tok").Render(context.Background(), &buf); err != nil {
				t.Fatal(err)
			}
			html := buf.String()
			if got := strings.Contains(html, `data-testid="task-support">task: `+tt.support+`</span>`); got != tt.badge {
				t.Errorf("badge shown = %v, want %v", got, tt.badge)
			}
			if got := strings.Contains(html, `name="_task"`); got != tt.box {
				t.Errorf("checkbox shown = %v, want %v", got, tt.box)
			}
			if got := strings.Contains(html, `name="_task" checked`); got != tt.ticked {
				t.Errorf("checkbox ticked = %v, want %v", got, tt.ticked)
			}
		})
	}
}

// TestTasksPanel: each task has its status, a Result button only once it
// has ended, a Cancel button only while it runs, CSRF-protected forms and
// escaped ids in its URLs; a result is shown under its own row. A viewer
// sees the tasks and the result but no button.
func TestTasksPanel(t *testing.T) {
	var buf bytes.Buffer
	v := TasksView{
		Rows: []TaskRow{
			{ID: "a/b<c>", Status: "working", Tool: "research"},
			{ID: "done", Status: "completed", Terminal: true},
		},
		ResultFor: "done",
		Result:    &ToolOutcome{Kind: OutcomeResult, Content: []ContentView{{Type: "text", Text: TextView{Text: "the report"}}}},
	}
	editor := WithViewer(context.Background(), accounts.Principal{Role: backend.RoleEditor})
	if err := TasksPanel(7, "tok", v).Render(editor, &buf); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, want := range []string{
		`hx-post="/sessions/7/tasks/a%2Fb%3Cc%3E/cancel"`,
		`data-task="a/b&lt;c&gt;" data-status="working"`,
		`name="_csrf" value="tok"`,
		`class="badge task-status task-completed"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("panel lacks %s:\n%s", want, html)
		}
	}
	rows := strings.Split(html, `data-testid="task-row"`)
	if len(rows) != 3 {
		t.Fatalf("%d rows", len(rows)-1)
	}
	if !strings.Contains(rows[1], `disabled data-testid="task-result"`) || strings.Contains(rows[1], `disabled data-testid="task-cancel"`) {
		t.Errorf("a working task's buttons:\n%s", rows[1])
	}
	if strings.Contains(rows[2], `disabled data-testid="task-result"`) || !strings.Contains(rows[2], `disabled data-testid="task-cancel"`) || !strings.Contains(rows[2], "the report") {
		t.Errorf("a completed task's row:\n%s", rows[2])
	}

	buf.Reset()
	viewer := WithViewer(context.Background(), accounts.Principal{Role: backend.RoleViewer})
	if err := TasksPanel(7, "tok", v).Render(viewer, &buf); err != nil {
		t.Fatal(err)
	}
	if html := buf.String(); strings.Contains(html, "hx-post") || !strings.Contains(html, "the report") {
		t.Errorf("a viewer's panel offers buttons or lacks the result:\n%s", html)
	}
}
