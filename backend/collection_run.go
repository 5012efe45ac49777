package backend

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcp-playground/playground/backend/jsondiff"
)

// Run is one run of a collection's examples (all, or one) on a session.
type Run struct {
	ID           int64
	CollectionID int64
	SessionID    int64
	ServerName   string
	Started      time.Time
	Finished     time.Time // zero while it runs
	Passed       int
	Failed       int // failures and errors
}

// RunOutcome says how one example fared.
type RunOutcome string

const (
	RunPass  RunOutcome = "pass"  // the answer matched the snapshot
	RunFail  RunOutcome = "fail"  // the answer differed: see Diff and Message
	RunError RunOutcome = "error" // no answer came: see Message
)

// RunResult is how one example fared in a run.
type RunResult struct {
	ID              int64
	RunID           int64
	ExampleID       int64 // 0 once the example is deleted
	ExampleName     string
	Outcome         RunOutcome
	Message         string
	Diff            []jsondiff.Change // from the snapshot to the answer
	Latency         time.Duration
	ResponseFrameID int64 // 0 when no response was stored
}

// RunStore persists runs and their results.
type RunStore interface {
	CreateRun(ctx context.Context, r Run) (Run, error)
	AddRunResult(ctx context.Context, r RunResult) error
	// FinishRun records a run's end and its counts.
	FinishRun(ctx context.Context, r Run) error
	// GetRun returns a run of the collection with its results in order.
	GetRun(ctx context.Context, collectionID, runID int64) (Run, []RunResult, error)
	// ListRuns returns the collection's newest runs, newest first.
	ListRuns(ctx context.Context, collectionID int64, limit int) ([]Run, error)
}

// Run calls the collection's examples in order on a live session (only
// the example exampleID when it is not 0), judges each answer against its
// snapshot and stores the run with every result. An example that gets no
// answer is an error in the run, not a Go error; Go errors mean the run
// could not be made or stored.
func (s *Collections) Run(ctx context.Context, collectionID, sessionID, exampleID int64) (Run, error) {
	_, examples, err := s.Get(ctx, collectionID)
	if err != nil {
		return Run{}, err
	}
	if exampleID != 0 {
		ex, err := s.store.GetExample(ctx, collectionID, exampleID)
		if err != nil {
			return Run{}, err
		}
		examples = []Example{ex}
	}
	if sessionID == 0 {
		return Run{}, Errorf(EInvalid, "Pick a connected session to run on.")
	}
	if len(examples) == 0 {
		return Run{}, Errorf(EInvalid, "The collection has no examples to run.")
	}
	sess, err := s.sessions.GetSession(ctx, sessionID)
	if err != nil {
		return Run{}, err
	}
	// The run is stored whole even when ctx ends midway: the examples
	// left then end as errors.
	store := context.WithoutCancel(ctx)
	run, err := s.store.CreateRun(store, Run{CollectionID: collectionID, SessionID: sessionID, ServerName: sess.ServerName, Started: time.Now()})
	if err != nil {
		return Run{}, err
	}
	for _, ex := range examples {
		r := s.runExample(ctx, sessionID, ex)
		r.RunID = run.ID
		if r.Outcome == RunPass {
			run.Passed++
		} else {
			run.Failed++
		}
		if err := s.store.AddRunResult(store, r); err != nil {
			return run, err
		}
	}
	run.Finished = time.Now()
	return run, s.store.FinishRun(store, run)
}

// GetRun returns a run of the collection with its results.
func (s *Collections) GetRun(ctx context.Context, collectionID, runID int64) (Run, []RunResult, error) {
	return s.store.GetRun(ctx, collectionID, runID)
}

// Runs returns the collection's newest runs (at most limit), newest first.
func (s *Collections) Runs(ctx context.Context, collectionID int64, limit int) ([]Run, error) {
	return s.store.ListRuns(ctx, collectionID, limit)
}

// Replay sends the request that the stored response frame answered again,
// on the live session sessionID (of the same server or another), and
// judges the new answer against the recorded one as a run judges an
// example against its snapshot. Nothing is stored but the new traffic.
func (s *Collections) Replay(ctx context.Context, responseFrameID, sessionID int64) (RunResult, error) {
	ex, err := s.exampleFromFrame(ctx, responseFrameID)
	if err != nil {
		return RunResult{}, err
	}
	ex.Name = "replay"
	return s.runExample(ctx, sessionID, ex), nil
}

// ExampleTimeout bounds how long a run waits for one example's answer.
const ExampleTimeout = 60 * time.Second

func (s *Collections) runExample(ctx context.Context, sessionID int64, ex Example) RunResult {
	r := RunResult{ExampleID: ex.ID, ExampleName: ex.Name}
	ctx, cancel := context.WithTimeout(ctx, ExampleTimeout)
	defer cancel()
	res, err := s.caller.CallWith(ctx, sessionID, ex.Method, requestParams(ex), CallOptions{ResponseFrame: true})
	r.Latency, r.ResponseFrameID = res.Latency, res.ResponseFrameID
	if err != nil {
		r.Outcome, r.Message = RunError, ErrorMessageOf(err)
		return r
	}
	r.Outcome, r.Message, r.Diff = Judge(ex, res)
	return r
}

// requestParams are the params an example sends. It is the one place where
// a later version substitutes variables and captured values.
func requestParams(ex Example) json.RawMessage { return ex.Params }

// Judge compares an answer with an example's snapshot. A JSON-RPC error
// passes only when the snapshot is an error with the same code; a result
// passes when the snapshot is a result, isError is as expected and the
// result equals the snapshot outside the volatile paths. A failure's
// message says why and its diff goes from the snapshot to the answer
// (both wrapped as {"result": ...} or {"error": ...} when their kinds
// differ).
func Judge(ex Example, res CallResult) (RunOutcome, string, []jsondiff.Change) {
	if res.Error != nil {
		got, _ := json.Marshal(res.Error)
		var want struct{ Code int }
		if ex.SnapshotKind == SnapshotError && json.Unmarshal(ex.Snapshot, &want) == nil && want.Code == res.Error.Code {
			return RunPass, "", nil
		}
		msg := fmt.Sprintf("The server answered with JSON-RPC error %d: %s", res.Error.Code, res.Error.Message)
		if ex.SnapshotKind == SnapshotError {
			msg = fmt.Sprintf("JSON-RPC error %d instead of %d: %s", res.Error.Code, want.Code, res.Error.Message)
		}
		return RunFail, msg, kindDiff(ex, "error", got)
	}
	if ex.SnapshotKind == SnapshotError {
		return RunFail, "A result came where a JSON-RPC error was expected.", kindDiff(ex, "result", res.Result)
	}
	diff, err := jsondiff.Diff(ex.Snapshot, res.Result, ex.Volatile)
	if err != nil {
		return RunFail, "The result is not valid JSON.", nil
	}
	if got := isErrorResult(res.Result); got != ex.ExpectIsError {
		return RunFail, fmt.Sprintf("isError is %t, expected %t.", got, ex.ExpectIsError), diff
	}
	if len(diff) > 0 {
		return RunFail, fmt.Sprintf("The result differs from the snapshot (%d changes).", len(diff)), diff
	}
	return RunPass, "", nil
}

// kindDiff diffs the snapshot and an answer of another kind, each wrapped
// in an object under its kind.
func kindDiff(ex Example, gotKind string, got json.RawMessage) []jsondiff.Change {
	want, _ := json.Marshal(map[string]json.RawMessage{string(ex.SnapshotKind): ex.Snapshot})
	have, _ := json.Marshal(map[string]json.RawMessage{gotKind: got})
	diff, _ := jsondiff.Diff(want, have, nil)
	return diff
}
