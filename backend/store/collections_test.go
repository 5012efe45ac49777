package store

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/backend/jsondiff"
)

// TestCollectionsStore keeps examples and runs in a real SQLite file:
// examples come back as stored (params, snapshot, volatile paths) after a
// reopen, a run's results keep the example's name when it is deleted,
// and deleting the collection deletes its examples and runs.
func TestCollectionsStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "playground.db")
	d := MustOpenPath(t, path)
	ctx := testContext(t)
	col, err := d.CreateCollection(ctx, collections.Collection{Name: "c", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	want := collections.Example{CollectionID: col.ID, Name: "e", Method: "tools/call", Params: json.RawMessage(`{"name":"x"}`),
		SnapshotKind: collections.SnapshotResult, Snapshot: json.RawMessage(`{"content":[]}`), Volatile: []string{"/_meta"},
		ExpectIsError: true, Created: time.Unix(0, time.Now().UnixNano()),
		Assertions: []collections.Assertion{{Kind: collections.AssertMatches, Path: "$.content[0].text", Pattern: "^ok"}}, AssertionsOnly: true,
		Captures: []collections.Capture{{Name: "id", Path: "$.structuredContent.id"}}}
	ex, err := d.AddExample(ctx, want)
	if err != nil {
		t.Fatal(err)
	}
	noParams, err := d.AddExample(ctx, collections.Example{CollectionID: col.ID, Name: "ping", Method: "ping",
		SnapshotKind: collections.SnapshotError, Snapshot: json.RawMessage(`{"code":-1}`)})
	if err != nil || noParams.Position != ex.Position+1 || noParams.Params != nil || len(noParams.Volatile) != 0 {
		t.Fatalf("second example = %+v, %v", noParams, err)
	}
	if _, err := d.AddExample(ctx, collections.Example{CollectionID: 999, Name: "x", Method: "ping", SnapshotKind: collections.SnapshotResult, Snapshot: json.RawMessage(`{}`)}); err == nil {
		t.Error("an example of a missing collection was stored")
	}
	d.Close()

	d = MustOpenPath(t, path)
	got, err := d.GetExample(ctx, col.ID, ex.ID)
	want.ID, want.Position = ex.ID, ex.Position
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("after a reopen the example is %+v, %v\nwant %+v", got, err, want)
	}

	run, err := d.CreateRun(ctx, collections.Run{CollectionID: col.ID, ServerName: "srv", Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	diff := []jsondiff.Change{{Path: "/a", Kind: jsondiff.Changed, Old: json.RawMessage(`1`), New: json.RawMessage(`2`)}}
	if err := d.AddRunResult(ctx, collections.RunResult{RunID: run.ID, ExampleID: ex.ID, ExampleName: "e", Outcome: collections.RunFail, Diff: diff, Latency: time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	run.Failed, run.Finished = 1, time.Now()
	if err := d.FinishRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	if err := d.DeleteExample(ctx, col.ID, ex.ID); err != nil {
		t.Fatal(err)
	}
	r, results, err := d.GetRun(ctx, col.ID, run.ID)
	if err != nil || r.Failed != 1 || r.Finished.IsZero() || len(results) != 1 || results[0].ExampleID != 0 || results[0].ExampleName != "e" ||
		!reflect.DeepEqual(results[0].Diff, diff) || results[0].Latency != time.Millisecond {
		t.Fatalf("GetRun = %+v %+v, %v", r, results, err)
	}
	if _, _, err := d.GetRun(ctx, col.ID+1, run.ID); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("a run of another collection = %v, want ENotFound", err)
	}

	if err := d.DeleteCollection(ctx, col.ID); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := d.db.GetContext(ctx, &n, `SELECT (SELECT COUNT(*) FROM examples) + (SELECT COUNT(*) FROM collection_runs) + (SELECT COUNT(*) FROM run_results)`); err != nil || n != 0 {
		t.Errorf("after deleting the collection %d rows remain (%v)", n, err)
	}
}
