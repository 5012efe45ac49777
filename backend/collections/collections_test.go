package collections_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/backend/sdktest"
	"github.com/mcp-playground/playground/mcpclient"
)

// TestCollectionSaveAndRun saves two recorded calls (a result and a
// JSON-RPC error) into a new collection, runs it on a live session and
// sees both pass; after the first example's params change it fails with
// the diff, and marking the changed field volatile makes it pass again.
// Every run is stored.
func TestCollectionSaveAndRun(t *testing.T) {
	e := backendtest.MustEnv(t)
	sess := e.MustConnect(t, e.MustServer(t, sdktest.StdioServer("sdk")))
	ctx := backendtest.Context(t)
	cols := newCollections(t, e)

	call := func(params string) int64 {
		t.Helper()
		res, err := e.Pool.CallWith(ctx, sess.ID, "tools/call", json.RawMessage(params), backend.CallOptions{ResponseFrame: true})
		if err != nil || res.ResponseFrameID == 0 {
			t.Fatalf("call %s = %+v, %v", params, res, err)
		}
		return res.ResponseFrameID
	}
	echoFrame := call(`{"name":"echo","arguments":{"text":"hello"}}`)
	errFrame := call(`{"name":"no_such_tool","arguments":{}}`)

	col, echo, err := cols.Save(ctx, collections.SaveRequest{ResponseFrameID: echoFrame, NewCollection: " smoke ", Name: "echo hello"})
	if err != nil {
		t.Fatal(err)
	}
	if col.Name != "smoke" || echo.Method != "tools/call" || string(echo.Params) != `{"name":"echo","arguments":{"text":"hello"}}` ||
		echo.SnapshotKind != collections.SnapshotResult || echo.ExpectIsError {
		t.Fatalf("saved %+v in %+v", echo, col)
	}
	if _, _, err := cols.Save(ctx, collections.SaveRequest{ResponseFrameID: errFrame, CollectionID: col.ID, Name: "unknown tool"}); err != nil {
		t.Fatal(err)
	}
	_, _, err = cols.Save(ctx, collections.SaveRequest{ResponseFrameID: errFrame, NewCollection: "smoke", Name: "echo hello"})
	if backend.ErrorCodeOf(err) != backend.EConflict {
		t.Errorf("a duplicate example name = %v, want a conflict", err)
	}
	// The request frame is not an answer: it cannot be saved.
	echoResponse, err := e.DB.GetFrame(ctx, echoFrame)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := cols.Save(ctx, collections.SaveRequest{ResponseFrameID: echoResponse.PairID, NewCollection: "x", Name: "y"}); backend.ErrorCodeOf(err) != backend.EInvalid {
		t.Errorf("saving a request frame = %v, want EInvalid", err)
	}

	run, err := cols.Run(ctx, collections.RunRequest{CollectionID: col.ID, SessionID: sess.ID}, nil)
	if err != nil || run.Passed != 2 || run.Failed != 0 || run.Finished.IsZero() || run.ServerName != "sdk" {
		t.Fatalf("first run = %+v, %v; want 2 passed", run, err)
	}

	if err := cols.UpdateExample(ctx, col.ID, echo.ID, collections.ExampleEdit{Params: `{"name":"echo","arguments":{"text":"bye"}}`}); err != nil {
		t.Fatal(err)
	}
	run, err = cols.Run(ctx, collections.RunRequest{CollectionID: col.ID, SessionID: sess.ID}, nil)
	if err != nil || run.Passed != 1 || run.Failed != 1 {
		t.Fatalf("run after the edit = %+v, %v; want 1 passed, 1 failed", run, err)
	}
	_, results, err := cols.GetRun(ctx, col.ID, run.ID)
	if err != nil || len(results) != 2 {
		t.Fatalf("GetRun = %+v, %v", results, err)
	}
	r := results[0]
	if r.Outcome != collections.RunFail || r.ExampleName != "echo hello" || len(r.Diff) != 1 || r.Diff[0].Path != "/content/0/text" ||
		string(r.Diff[0].Old) != `"hello"` || string(r.Diff[0].New) != `"bye"` || r.ResponseFrameID == 0 {
		t.Errorf("failed result = %+v", r)
	}
	if results[1].Outcome != collections.RunPass {
		t.Errorf("error example = %+v, want pass", results[1])
	}

	if err := cols.UpdateExample(ctx, col.ID, echo.ID, collections.ExampleEdit{Params: `{"name":"echo","arguments":{"text":"bye"}}`, Volatile: "/content/*/text\n"}); err != nil {
		t.Fatal(err)
	}
	if run, err = cols.Run(ctx, collections.RunRequest{CollectionID: col.ID, SessionID: sess.ID, ExampleID: echo.ID}, nil); err != nil || run.Passed != 1 || run.Failed != 0 {
		t.Errorf("run of one example with a volatile path = %+v, %v; want 1 passed", run, err)
	}
	runs, err := cols.RunsPage(ctx, col.ID, 0, 10)
	if err != nil || len(runs.Items) != 3 || runs.Items[0].ID != run.ID || runs.More {
		t.Errorf("RunsPage = %+v, %v; want 3, newest first", runs, err)
	}

	// With the session gone, the example errors rather than fails.
	if err := e.Pool.Disconnect(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	run, err = cols.Run(ctx, collections.RunRequest{CollectionID: col.ID, SessionID: sess.ID, ExampleID: echo.ID}, nil)
	if err != nil || run.Failed != 1 {
		t.Fatalf("run on a closed session = %+v, %v", run, err)
	}
	if _, results, _ := cols.GetRun(ctx, col.ID, run.ID); results[0].Outcome != collections.RunError || results[0].Message == "" {
		t.Errorf("result on a closed session = %+v, want an error with a message", results[0])
	}
}

// TestCollectionEdits covers names, example edits, ordering and deletion.
func TestCollectionEdits(t *testing.T) {
	e := backendtest.MustEnv(t)
	ctx := backendtest.Context(t)
	cols := newCollections(t, e)
	if _, err := cols.Create(ctx, "  ", ""); backend.ErrorCodeOf(err) != backend.EInvalid {
		t.Errorf("empty name = %v, want EInvalid", err)
	}
	a, err := cols.Create(ctx, "a", "first")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a\x1b[2J", "bell\x07", "two\nlines", "rtl\u202eexe"} {
		if _, err := cols.Create(ctx, name, ""); backend.ErrorCodeOf(err) != backend.EInvalid || !strings.Contains(backend.ErrorMessageOf(err), "control characters") {
			t.Errorf("Create(%q) = %v, want EInvalid", name, err)
		}
		if err := cols.Rename(ctx, a.ID, name, ""); backend.ErrorCodeOf(err) != backend.EInvalid {
			t.Errorf("Rename(%q) = %v, want EInvalid", name, err)
		}
		if _, err := cols.SaveEnvironment(ctx, collections.Environment{CollectionID: a.ID, Name: name}, backend.RoleEditor); backend.ErrorCodeOf(err) != backend.EInvalid {
			t.Errorf("SaveEnvironment(%q) = %v, want EInvalid", name, err)
		}
	}
	if _, err := cols.Create(ctx, "a", ""); backend.ErrorCodeOf(err) != backend.EConflict {
		t.Errorf("duplicate name = %v, want EConflict", err)
	}
	b, _ := cols.Create(ctx, "b", "")
	if err := cols.Rename(ctx, b.ID, "a", ""); backend.ErrorCodeOf(err) != backend.EConflict {
		t.Errorf("renaming onto a taken name = %v, want EConflict", err)
	}
	if err := cols.Rename(ctx, b.ID, "c", "third"); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, name := range []string{"one", "two", "three"} {
		ex, err := e.DB.AddExample(ctx, collections.Example{CollectionID: a.ID, Name: name, Method: "ping",
			SnapshotKind: collections.SnapshotResult, Snapshot: json.RawMessage(`{}`)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, ex.ID)
	}
	if err := cols.MoveExample(ctx, a.ID, ids[2], true); err != nil {
		t.Fatal(err)
	}
	if err := cols.MoveExample(ctx, a.ID, ids[0], true); err != nil { // already first
		t.Fatal(err)
	}
	if err := cols.DeleteExample(ctx, a.ID, ids[0]); err != nil {
		t.Fatal(err)
	}
	_, exs, err := cols.Get(ctx, a.ID)
	if err != nil || len(exs) != 2 || exs[0].Name != "three" || exs[1].Name != "two" {
		t.Errorf("examples after moves and a delete = %+v, %v", exs, err)
	}
	for _, tc := range []struct{ name, params, volatile, field string }{
		{"params not an object", `[1]`, "", "params"},
		{"params not JSON", `{`, "", "params"},
		{"pointer without slash", `{}`, "content", "volatile"},
	} {
		err := cols.UpdateExample(ctx, a.ID, ids[1], collections.ExampleEdit{Params: tc.params, Volatile: tc.volatile})
		var be *backend.Error
		if !errors.As(err, &be) || be.Code != backend.EInvalid || be.Fields[tc.field] == "" {
			t.Errorf("%s: %v, want EInvalid on %s", tc.name, err, tc.field)
		}
	}
	list, err := cols.List(ctx)
	if err != nil || len(list) != 2 || list[0].Name != "a" || list[0].Examples != 2 || list[1].Name != "c" {
		t.Errorf("List = %+v, %v", list, err)
	}
	if err := cols.Delete(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := cols.Get(ctx, a.ID); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("Get of a deleted collection = %v", err)
	}
}

// TestJudge checks the rules that decide pass and fail.
func TestJudge(t *testing.T) {
	result := collections.Example{SnapshotKind: collections.SnapshotResult, Snapshot: json.RawMessage(`{"content":[],"isError":true}`), ExpectIsError: true}
	rpcErr := collections.Example{SnapshotKind: collections.SnapshotError, Snapshot: json.RawMessage(`{"code":-32602,"message":"bad"}`)}
	tests := []struct {
		name string
		ex   collections.Example
		res  backend.CallResult
		want collections.RunOutcome
	}{
		{"same result", result, backend.CallResult{Result: json.RawMessage(`{"isError":true,"content":[]}`)}, collections.RunPass},
		{"isError differs", result, backend.CallResult{Result: json.RawMessage(`{"content":[]}`)}, collections.RunFail},
		{"error where a result was expected", result, backend.CallResult{Error: &mcpclient.RPCError{Code: -32602}}, collections.RunFail},
		{"same error code, other message", rpcErr, backend.CallResult{Error: &mcpclient.RPCError{Code: -32602, Message: "other"}}, collections.RunPass},
		{"other error code", rpcErr, backend.CallResult{Error: &mcpclient.RPCError{Code: -32601}}, collections.RunFail},
		{"result where an error was expected", rpcErr, backend.CallResult{Result: json.RawMessage(`{}`)}, collections.RunFail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, msg, diff, _ := collections.Judge(tt.ex, tt.res, nil)
			if got != tt.want {
				t.Errorf("Judge = %s (%s)", got, msg)
			}
			if got == collections.RunFail && (msg == "" || len(diff) == 0) {
				t.Errorf("a failure without message or diff: %q %v", msg, diff)
			}
		})
	}
}

// TestCollectionVariables runs two examples that take a value from an
// environment (a secret) and a value captured from the first answer.
// Without the environment, neither is sent.
func TestCollectionVariables(t *testing.T) {
	e := backendtest.MustEnv(t)
	sess := e.MustConnect(t, e.MustServer(t, sdktest.StdioServer("sdk")))
	ctx := backendtest.Context(t)
	cols := newCollections(t, e)
	col, err := cols.Create(ctx, "vars", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range []collections.Example{
		{Name: "greet", Params: json.RawMessage(`{"name":"echo","arguments":{"text":"{{greeting}}"}}`),
			Snapshot:   json.RawMessage(`{"content":[{"type":"text","text":"hi"}]}`),
			Assertions: []collections.Assertion{{Kind: collections.AssertEquals, Path: "$.content[0].text", Value: json.RawMessage(`"hi"`)}},
			Captures:   []collections.Capture{{Name: "said", Path: "$.content[0].text"}}},
		{Name: "again", Params: json.RawMessage(`{"name":"echo","arguments":{"text":"{{ said }} again"}}`),
			Snapshot: json.RawMessage(`{}`), AssertionsOnly: true,
			Assertions: []collections.Assertion{{Kind: collections.AssertMatches, Path: "$.content[*].text", Pattern: "^hi again$"},
				{Kind: collections.AssertLatency, MaxMS: 30000}}},
	} {
		ex.CollectionID, ex.Method, ex.SnapshotKind = col.ID, "tools/call", collections.SnapshotResult
		if _, err := e.DB.AddExample(ctx, ex); err != nil {
			t.Fatal(err)
		}
	}
	env, err := cols.SaveEnvironment(ctx, collections.Environment{CollectionID: col.ID, Name: "dev", Origins: []string{backend.StdioDestination},
		Values: []collections.EnvValue{{Name: "greeting", Value: "hi", Secret: true}}}, backend.RoleEditor)
	if err != nil {
		t.Fatal(err)
	}
	if len(env.Values) != 1 || env.Values[0].Value != "" || !env.Values[0].Secret {
		t.Errorf("a saved environment shows %+v; its secret must not be shown", env.Values)
	}

	var seen []string
	run, err := cols.Run(ctx, collections.RunRequest{CollectionID: col.ID, SessionID: sess.ID, EnvironmentID: env.ID},
		func(r collections.RunResult) { seen = append(seen, r.ExampleName+":"+string(r.Outcome)) })
	if err != nil || run.Passed != 2 || run.Environment != "dev" || run.Total != 2 {
		_, results, _ := cols.GetRun(ctx, col.ID, run.ID)
		t.Fatalf("run with the environment = %+v, %v; results %+v", run, err, results)
	}
	if strings.Join(seen, " ") != "greet:pass again:pass" {
		t.Errorf("progress saw %q", seen)
	}
	_, results, err := cols.GetRun(ctx, col.ID, run.ID)
	if err != nil || len(results[1].Checks) != 2 || !results[1].Checks[0].Passed {
		t.Errorf("the second result's checks = %+v, %v", results[1].Checks, err)
	}

	run, err = cols.Run(ctx, collections.RunRequest{CollectionID: col.ID, SessionID: sess.ID}, nil)
	if err != nil || run.Failed != 2 {
		t.Fatalf("run without the environment = %+v, %v; want 2 failed", run, err)
	}
	_, results, _ = cols.GetRun(ctx, col.ID, run.ID)
	if r := results[0]; r.Outcome != collections.RunError || !strings.Contains(r.Message, "{{greeting}}") || r.ResponseFrameID != 0 {
		t.Errorf("an example missing a variable = %+v, want an error naming it, nothing sent", r)
	}

	// A value given at run time (the CLI's --var) wins over the environment's.
	run, err = cols.Run(ctx, collections.RunRequest{CollectionID: col.ID, SessionID: sess.ID, EnvironmentID: env.ID, Vars: map[string]string{"greeting": "ho"}}, nil)
	if err != nil || run.Failed != 2 {
		t.Fatalf("run with greeting=ho = %+v, %v; want both to fail", run, err)
	}
	_, results, _ = cols.GetRun(ctx, col.ID, run.ID)
	if r := results[0]; r.Outcome != collections.RunFail || len(r.Checks) != 1 || r.Checks[0].Passed || !strings.Contains(r.Checks[0].Message, `"ho"`) {
		t.Errorf("the first result = %+v, want its equals assertion failed on \"ho\"", r)
	}
}

// TestJudgeAssertions checks each kind of assertion on one answer.
func TestJudgeAssertions(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`)
	answer := backend.CallResult{Result: json.RawMessage(`{"content":[{"type":"text","text":"id-42"},{"type":"text","text":"id-7"}],"structuredContent":{"n":3}}`),
		Latency: 50 * time.Millisecond}
	tests := []struct {
		a      collections.Assertion
		schema json.RawMessage
		pass   bool
	}{
		{collections.Assertion{Kind: collections.AssertEquals, Path: "$.structuredContent.n", Value: json.RawMessage(`3.0`)}, nil, true},
		{collections.Assertion{Kind: collections.AssertEquals, Path: "$.structuredContent", Value: json.RawMessage(`{"n":4}`)}, nil, false},
		{collections.Assertion{Kind: collections.AssertExists, Path: "$.content[1]"}, nil, true},
		{collections.Assertion{Kind: collections.AssertExists, Path: "$.content[2]"}, nil, false},
		{collections.Assertion{Kind: collections.AssertMatches, Path: "$.content[*].text", Pattern: `^id-\d+$`}, nil, true},
		{collections.Assertion{Kind: collections.AssertMatches, Path: "$.content[*].text", Pattern: `^id-\d\d$`}, nil, false},
		{collections.Assertion{Kind: collections.AssertMatches, Path: "$.structuredContent.n", Pattern: `3`}, nil, false},
		{collections.Assertion{Kind: collections.AssertOutputSchema}, schema, true},
		{collections.Assertion{Kind: collections.AssertOutputSchema}, json.RawMessage(`{"type":"object","required":["m"]}`), false},
		{collections.Assertion{Kind: collections.AssertOutputSchema}, nil, false},
		{collections.Assertion{Kind: collections.AssertLatency, MaxMS: 100}, nil, true},
		{collections.Assertion{Kind: collections.AssertLatency, MaxMS: 10}, nil, false},
	}
	for _, tt := range tests {
		ex := collections.Example{SnapshotKind: collections.SnapshotResult, AssertionsOnly: true, Assertions: []collections.Assertion{tt.a}}
		outcome, msg, _, checks := collections.Judge(ex, answer, tt.schema)
		if len(checks) != 1 || checks[0].Passed != tt.pass || (outcome == collections.RunPass) != tt.pass {
			t.Errorf("%s: %s %q %+v, want passed=%t", tt.a, outcome, msg, checks, tt.pass)
		}
		if !tt.pass && checks[0].Message == "" {
			t.Errorf("%s failed without saying why", tt.a)
		}
	}
}

// TestExampleChecksValidate refuses assertions and captures that cannot work.
func TestExampleChecksValidate(t *testing.T) {
	e := backendtest.MustEnv(t)
	ctx := backendtest.Context(t)
	cols := newCollections(t, e)
	col, _ := cols.Create(ctx, "c", "")
	ex, err := e.DB.AddExample(ctx, collections.Example{CollectionID: col.ID, Name: "x", Method: "ping", SnapshotKind: collections.SnapshotResult, Snapshot: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		edit  collections.ExampleEdit
		field string
	}{
		{"not a JSONPath", collections.ExampleEdit{Assertions: []collections.Assertion{{Kind: collections.AssertExists, Path: "content[0]"}}}, "assertions"},
		{"bad JSONPath", collections.ExampleEdit{Assertions: []collections.Assertion{{Kind: collections.AssertExists, Path: "$.[["}}}, "assertions"},
		{"value not JSON", collections.ExampleEdit{Assertions: []collections.Assertion{{Kind: collections.AssertEquals, Path: "$.a", Value: json.RawMessage(`hi`)}}}, "assertions"},
		{"bad pattern", collections.ExampleEdit{Assertions: []collections.Assertion{{Kind: collections.AssertMatches, Path: "$.a", Pattern: "("}}}, "assertions"},
		{"no latency bound", collections.ExampleEdit{Assertions: []collections.Assertion{{Kind: collections.AssertLatency}}}, "assertions"},
		{"unknown kind", collections.ExampleEdit{Assertions: []collections.Assertion{{Kind: "close-to", Path: "$.a"}}}, "assertions"},
		{"assertions only, none", collections.ExampleEdit{AssertionsOnly: true}, "assertions"},
		{"bad capture name", collections.ExampleEdit{Captures: []collections.Capture{{Name: "a b", Path: "$.a"}}}, "captures"},
	} {
		err := cols.UpdateExample(ctx, col.ID, ex.ID, tc.edit)
		var be *backend.Error
		if !errors.As(err, &be) || be.Code != backend.EInvalid || be.Fields[tc.field] == "" {
			t.Errorf("%s: %v, want EInvalid on %s", tc.name, err, tc.field)
		}
	}
	edit := collections.ExampleEdit{Assertions: []collections.Assertion{{Kind: collections.AssertEquals, Path: "$.a", Value: json.RawMessage(`"x"`)}},
		Captures: []collections.Capture{{Name: "token", Path: "$.a"}}, AssertionsOnly: true}
	if err := cols.UpdateExample(ctx, col.ID, ex.ID, edit); err != nil {
		t.Fatal(err)
	}
	got, err := e.DB.GetExample(ctx, col.ID, ex.ID)
	if err != nil || !got.AssertionsOnly || len(got.Assertions) != 1 || string(got.Assertions[0].Value) != `"x"` || got.Captures[0].Name != "token" {
		t.Errorf("stored %+v, %v", got, err)
	}
}

// TestCollectionRunHidesSecrets: a secret environment value sent in params,
// and echoed back by the server, is recorded as [redacted], and so it reads
// in the stored results' diffs and checks.
func TestCollectionRunHidesSecrets(t *testing.T) {
	e := backendtest.MustEnv(t)
	sess := e.MustConnect(t, e.MustServer(t, sdktest.StdioServer("sdk")))
	ctx := backendtest.Context(t)
	cols := newCollections(t, e)
	col, _ := cols.Create(ctx, "secrets", "")
	if _, err := e.DB.AddExample(ctx, collections.Example{CollectionID: col.ID, Name: "echo token", Method: "tools/call",
		Params:       json.RawMessage(`{"name":"echo","arguments":{"text":"token={{token}}"}}`),
		SnapshotKind: collections.SnapshotResult, Snapshot: json.RawMessage(`{}`), AssertionsOnly: true,
		Assertions: []collections.Assertion{{Kind: collections.AssertMatches, Path: "$.content[0].text", Pattern: `^token=tok-s\w+-42$`}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DB.AddExample(ctx, collections.Example{CollectionID: col.ID, Name: "echo it again", Method: "tools/call",
		Params:       json.RawMessage(`{"name":"echo","arguments":{"text":"{{token}} again"}}`),
		SnapshotKind: collections.SnapshotResult, Snapshot: json.RawMessage(`{"content":[{"type":"text","text":"x"}]}`),
		Assertions: []collections.Assertion{{Kind: collections.AssertMatches, Path: "$.content[0].text", Pattern: "^nothing$"}}}); err != nil {
		t.Fatal(err)
	}
	env, err := cols.SaveEnvironment(ctx, collections.Environment{CollectionID: col.ID, Name: "prod", Origins: []string{backend.StdioDestination},
		Values: []collections.EnvValue{{Name: "token", Value: "tok-s3cret-42", Secret: true}}}, backend.RoleEditor)
	if err != nil {
		t.Fatal(err)
	}
	var progress []collections.RunResult
	run, err := cols.Run(ctx, collections.RunRequest{CollectionID: col.ID, SessionID: sess.ID, EnvironmentID: env.ID},
		func(r collections.RunResult) { progress = append(progress, r) })
	if err != nil || run.Passed != 1 || run.Failed != 1 {
		_, results, _ := cols.GetRun(ctx, col.ID, run.ID)
		t.Fatalf("run = %+v, %v, %+v; the server must get the real value", run, err, results)
	}
	if err := e.Rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	frames, err := e.DB.ListFrames(ctx, backend.FrameQuery{SessionID: sess.ID, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	redacted := 0
	for _, f := range frames {
		if strings.Contains(string(f.Body), "tok-s3cret-42") {
			t.Errorf("frame %d holds the secret: %s", f.ID, f.Body)
		}
		if strings.Contains(string(f.Body), "token=[redacted]") {
			redacted++
		}
	}
	if redacted != 2 {
		t.Errorf("%d frames show token=[redacted], want the request and its echo", redacted)
	}
	_, results, err := cols.GetRun(ctx, col.ID, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	for what, rs := range map[string][]collections.RunResult{"stored": results, "progress": progress} {
		b, _ := json.Marshal(rs)
		if strings.Contains(string(b), "tok-s3cret-42") || !strings.Contains(string(b), "[redacted] again") {
			t.Errorf("%s results hold the secret, or not its redacted echo: %s", what, b)
		}
	}
}

// TestCollectionStart runs a collection in the background: its results are
// stored as they are judged, and Close ends a run that waits on a server
// that never answers, storing the rest as errors.
func TestCollectionStart(t *testing.T) {
	e := backendtest.MustEnv(t)
	sess := e.MustConnect(t, e.MustServer(t, sdktest.StdioServer("sdk")))
	ctx := backendtest.Context(t)
	cols := collections.New(e.DB, e.DB, e.DB, e.Pool, backendtest.Logger(t))
	col, _ := cols.Create(ctx, "slow", "")
	for _, ex := range []collections.Example{
		{Name: "echo", Params: json.RawMessage(`{"name":"echo","arguments":{"text":"x"}}`), Snapshot: json.RawMessage(`{"content":[{"type":"text","text":"x"}]}`)},
		{Name: "hang", Params: json.RawMessage(`{"name":"hang"}`), Snapshot: json.RawMessage(`{}`)},
		{Name: "after", Params: json.RawMessage(`{"name":"echo","arguments":{"text":"y"}}`), Snapshot: json.RawMessage(`{}`)},
	} {
		ex.CollectionID, ex.Method, ex.SnapshotKind = col.ID, "tools/call", collections.SnapshotResult
		if _, err := e.DB.AddExample(ctx, ex); err != nil {
			t.Fatal(err)
		}
	}
	run, err := cols.Start(ctx, collections.RunRequest{CollectionID: col.ID, SessionID: sess.ID})
	if err != nil || !run.Finished.IsZero() || run.Total != 3 {
		t.Fatalf("Start = %+v, %v; want a run of 3 still going", run, err)
	}
	for {
		_, results, err := cols.GetRun(ctx, col.ID, run.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(results) == 1 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cols.Close()
	got, results, err := cols.GetRun(ctx, col.ID, run.ID)
	if err != nil || got.Finished.IsZero() || got.Passed != 1 || got.Failed != 2 || len(results) != 3 {
		t.Fatalf("after Close: %+v, %d results, %v; want it finished, 1 passed, 2 errors", got, len(results), err)
	}
	if results[1].Outcome != collections.RunError || results[1].Message != "The run was stopped before the answer came." || results[2].Outcome != collections.RunError || results[2].Message != "Not run: the run was stopped." {
		t.Errorf("the examples cut short = %+v, %+v; want errors", results[1], results[2])
	}
}
