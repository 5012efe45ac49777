package store

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend/collections"
)

// TestCollectionListingsPage walks collections (by name), examples (by
// position) and runs (newest first) a page at a time: every item comes
// once, in order, and a page after the last one is empty.
func TestCollectionListingsPage(t *testing.T) {
	d := MustOpenPath(t, filepath.Join(t.TempDir(), "playground.db"))
	ctx := testContext(t)
	var col collections.Collection
	for _, name := range []string{"c", "a", "e", "b", "d"} {
		c, err := d.CreateCollection(ctx, collections.Collection{Name: name, Created: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		col = c
	}
	names := walkPages(t, "", func(after string) ([]collections.Collection, error) { return d.ListCollectionsPage(ctx, after, 2) },
		func(c collections.Collection) string { return c.Name }, func(c collections.Collection) string { return c.Name })
	if got := fmt.Sprint(names); got != "[a b c d e]" {
		t.Errorf("collections paged: %s", got)
	}

	var runIDs []int64
	for i := range 5 {
		if _, err := d.AddExample(ctx, collections.Example{CollectionID: col.ID, Name: fmt.Sprint("ex", i), Method: "ping",
			SnapshotKind: collections.SnapshotResult, Snapshot: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
		r, err := d.CreateRun(ctx, collections.Run{CollectionID: col.ID, Started: time.Now(), Total: 1})
		if err != nil {
			t.Fatal(err)
		}
		runIDs = append([]int64{r.ID}, runIDs...)
	}
	if err := d.MoveExample(ctx, col.ID, 5, true); err != nil { // ex4 before ex3
		t.Fatal(err)
	}
	exNames := walkPages(t, 0, func(after int) ([]collections.Example, error) { return d.ListExamplesPage(ctx, col.ID, after, 2) },
		func(e collections.Example) int { return e.Position }, func(e collections.Example) string { return e.Name })
	if got := fmt.Sprint(exNames); got != "[ex0 ex1 ex2 ex4 ex3]" {
		t.Errorf("examples paged: %s", got)
	}

	got := walkPages(t, int64(0), func(before int64) ([]collections.Run, error) { return d.ListRunsBefore(ctx, col.ID, before, 2) },
		func(r collections.Run) int64 { return r.ID }, func(r collections.Run) int64 { return r.ID })
	if fmt.Sprint(got) != fmt.Sprint(runIDs) {
		t.Errorf("runs paged: %v, want %v", got, runIDs)
	}
}

// walkPages fetches pages from start until one is empty, each after the
// key of the last item of the one before, and returns what show says of
// every item in order.
func walkPages[T any, K any, S any](t *testing.T, start K, fetch func(K) ([]T, error), key func(T) K, show func(T) S) []S {
	t.Helper()
	var out []S
	for k := start; ; {
		page, err := fetch(k)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			return out
		}
		for _, item := range page {
			out = append(out, show(item))
		}
		k = key(page[len(page)-1])
	}
}

// TestRunningRunCounts: a run still going counts the results stored so
// far; once finished, the counts it was finished with.
func TestRunningRunCounts(t *testing.T) {
	d := MustOpenPath(t, filepath.Join(t.TempDir(), "playground.db"))
	ctx := testContext(t)
	col, err := d.CreateCollection(ctx, collections.Collection{Name: "c", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	run, err := d.CreateRun(ctx, collections.Run{CollectionID: col.ID, Started: time.Now(), Total: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []collections.RunOutcome{collections.RunPass, collections.RunFail} {
		if err := d.AddRunResult(ctx, collections.RunResult{RunID: run.ID, ExampleName: "x", Outcome: o}); err != nil {
			t.Fatal(err)
		}
	}
	got, _, err := d.GetRun(ctx, col.ID, run.ID)
	if err != nil || got.Passed != 1 || got.Failed != 1 || got.Done() != 2 || !got.Finished.IsZero() {
		t.Fatalf("a running run reads %+v, %v", got, err)
	}
	run.Finished, run.Passed, run.Failed = time.Now(), 2, 1
	if err := d.FinishRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	list, err := d.ListRunsBefore(ctx, col.ID, 0, 10)
	if err != nil || len(list) != 1 || list[0].Passed != 2 || list[0].Failed != 1 {
		t.Fatalf("the finished run reads %+v, %v", list, err)
	}
}
