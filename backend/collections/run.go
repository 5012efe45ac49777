package collections

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/jsondiff"
	"github.com/mcp-playground/playground/mcpclient"
)

// Run is one run of a collection's examples (all, or one) on a session.
type Run struct {
	ID           int64
	CollectionID int64
	SessionID    int64
	ServerName   string
	Environment  string // the environment's name, "" when it ran with none
	Started      time.Time
	Finished     time.Time // zero while it runs
	Total        int       // how many examples it runs
	Passed       int
	Failed       int // failures and errors
	// Interrupted says the playground stopped in the middle of the run
	// (a crash, a kill): the next start ended it with the results stored
	// by then, so Done may be less than Total.
	Interrupted bool
}

// Done is how many of its examples the run has judged so far.
func (r Run) Done() int { return r.Passed + r.Failed }

// RunOutcome says how one example fared.
type RunOutcome string

const (
	RunPass  RunOutcome = "pass"  // the answer matched the snapshot and the assertions held
	RunFail  RunOutcome = "fail"  // the answer differed or an assertion failed: see Message, Diff and Checks
	RunError RunOutcome = "error" // no answer came, or the request could not be made: see Message
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
	Checks          []CheckResult     // the example's assertions, in order
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
	// A run still going has the results judged so far, and counts of
	// them (see Run.Done).
	GetRun(ctx context.Context, collectionID, runID int64) (Run, []RunResult, error)
	// ListRunsBefore returns at most limit runs older than the run before
	// (the newest when before is 0), newest first.
	ListRunsBefore(ctx context.Context, collectionID, before int64, limit int) ([]Run, error)
	// EndInterruptedRuns ends every run still going, as interrupted at
	// at with the counts of its stored results, and says how many it
	// ended. Only a start, before any run begins, may call it.
	EndInterruptedRuns(ctx context.Context, at time.Time) (int64, error)
	// PreferredServers returns, best first, the servers a run of the
	// collection most likely belongs on: the server most of its examples
	// were saved from, then the server of its latest run (either may be
	// missing, or both the same).
	PreferredServers(ctx context.Context, collectionID int64) ([]int64, error)
}

// RunRequest says what to run, where and with which values.
type RunRequest struct {
	CollectionID int64
	SessionID    int64 // a live session
	ExampleID    int64 // run this example alone; 0 runs them all
	// EnvironmentID picks the environment whose values fill the
	// placeholders; 0 runs with none.
	EnvironmentID int64
	// Vars are more values, which win over the environment's.
	Vars map[string]string
}

// Run calls the examples in order on a live session, judges each answer
// and stores the run with every result, calling progress (when not nil)
// after each. An example that gets no answer is an error in the run, not a
// Go error; Go errors mean the run could not be made or stored.
func (s *Service) Run(ctx context.Context, req RunRequest, progress func(RunResult)) (Run, error) {
	plan, err := s.prepareRun(ctx, req)
	if err != nil {
		return Run{}, err
	}
	return s.execute(ctx, plan, progress)
}

// Start begins a run as Run does and returns it at once, still going; its
// results are stored as they are judged (see GetRun). The run belongs to s:
// Close cancels it, leaving its remaining examples as errors.
func (s *Service) Start(ctx context.Context, req RunRequest) (Run, error) {
	plan, err := s.prepareRun(ctx, req)
	if err != nil {
		return Run{}, err
	}
	s.running.Add(1)
	go func() {
		defer s.running.Done()
		if _, err := s.execute(s.stop, plan, nil); err != nil {
			s.log.Error("collection run cut short", "run", plan.run.ID, "err", err)
		}
	}()
	return plan.run, nil
}

// Close cancels the runs Start began and waits for them to be stored.
func (s *Service) Close() {
	s.cancel()
	s.running.Wait()
}

// runPlan is a stored run's start with what it runs: its examples, the
// variables they start with, and the secret values its results hide.
type runPlan struct {
	run      Run
	examples []Example
	vars     Variables
	hide     backend.Redactor
}

// prepareRun checks req, stores the run's start and returns its plan.
func (s *Service) prepareRun(ctx context.Context, req RunRequest) (runPlan, error) {
	_, examples, err := s.Get(ctx, req.CollectionID)
	if err != nil {
		return runPlan{}, err
	}
	if req.ExampleID != 0 {
		ex, err := s.store.GetExample(ctx, req.CollectionID, req.ExampleID)
		if err != nil {
			return runPlan{}, err
		}
		examples = []Example{ex}
	}
	if req.SessionID == 0 {
		return runPlan{}, backend.Errorf(backend.EInvalid, "Pick a connected session to run on.")
	}
	if len(examples) == 0 {
		return runPlan{}, backend.Errorf(backend.EInvalid, "The collection has no examples to run.")
	}
	vars, env, secrets, err := s.runVariables(ctx, req.CollectionID, req.EnvironmentID, req.Vars)
	if err != nil {
		return runPlan{}, err
	}
	if env.hasSecrets() {
		dest, err := s.caller.Destinations(req.SessionID)
		if err != nil {
			return runPlan{}, err
		}
		if err := env.mayGo(dest, slices.ContainsFunc(secrets, func(v string) bool { return v != "" })); err != nil {
			return runPlan{}, err
		}
	}
	s.caller.HideValues(req.SessionID, secrets)
	sess, err := s.sessions.GetSession(ctx, req.SessionID)
	if err != nil {
		return runPlan{}, err
	}
	run, err := s.store.CreateRun(ctx, Run{CollectionID: req.CollectionID, SessionID: req.SessionID, ServerName: sess.ServerName,
		Environment: env.Name, Started: time.Now(), Total: len(examples)})
	return runPlan{run: run, examples: examples, vars: vars, hide: backend.Redactor{}.With(secrets...)}, err
}

// execute runs the examples of a stored run. The run is stored whole even
// when ctx ends midway: the examples left then end as errors. Each result
// is stored, and handed to progress, with the plan's secrets hidden: an
// answer that echoes one would otherwise show it in a diff or a check.
func (s *Service) execute(ctx context.Context, plan runPlan, progress func(RunResult)) (Run, error) {
	store := context.WithoutCancel(ctx)
	run := plan.run
	for _, ex := range plan.examples {
		var r RunResult
		if ctx.Err() != nil {
			r = RunResult{ExampleID: ex.ID, ExampleName: ex.Name, Outcome: RunError, Message: "Not run: the run was stopped."}
		} else {
			r = hideInResult(plan.hide, s.runExample(ctx, run.SessionID, ex, plan.vars))
		}
		r.RunID = run.ID
		if r.Outcome == RunPass {
			run.Passed++
		} else {
			run.Failed++
		}
		if err := s.store.AddRunResult(store, r); err != nil {
			return run, err
		}
		if progress != nil {
			progress(r)
		}
	}
	run.Finished = time.Now()
	return run, s.store.FinishRun(store, run)
}

// DefaultSession picks, among the live sessions, the one a run of the
// collection starts on: a session of the server its examples came from,
// else of its latest run's server, else the first. It returns 0 when
// there is no live session.
func (s *Service) DefaultSession(ctx context.Context, collectionID int64, live []backend.Session) (int64, error) {
	if len(live) == 0 {
		return 0, nil
	}
	preferred, err := s.store.PreferredServers(ctx, collectionID)
	if err != nil {
		return 0, err
	}
	for _, serverID := range preferred {
		if i := slices.IndexFunc(live, func(l backend.Session) bool { return l.ServerID == serverID }); i >= 0 {
			return live[i].ID, nil
		}
	}
	return live[0].ID, nil
}

// GetRun returns a run of the collection with its results.
func (s *Service) GetRun(ctx context.Context, collectionID, runID int64) (Run, []RunResult, error) {
	return s.store.GetRun(ctx, collectionID, runID)
}

// Replay sends the request that the stored response frame answered again,
// on the live session sessionID (of the same server or another), and
// judges the new answer against the recorded one as a run judges an
// example against its snapshot. Nothing is stored but the new traffic.
func (s *Service) Replay(ctx context.Context, responseFrameID, sessionID int64) (RunResult, error) {
	ex, err := s.exampleFromFrame(ctx, responseFrameID)
	if err != nil {
		return RunResult{}, err
	}
	ex.Name = "replay"
	return s.runExample(ctx, sessionID, ex, Variables{}), nil
}

// ExampleTimeout bounds how long a run waits for one example's answer.
const ExampleTimeout = 60 * time.Second

// runExample fills the example's placeholders from vars, calls it, judges
// the answer and adds the values it captures to vars.
func (s *Service) runExample(ctx context.Context, sessionID int64, ex Example, vars Variables) RunResult {
	r := RunResult{ExampleID: ex.ID, ExampleName: ex.Name}
	params, err := vars.Substitute(ex.Params)
	if err != nil {
		r.Outcome, r.Message = RunError, "Not sent: "+err.Error()
		return r
	}
	ctx, cancel := context.WithTimeout(ctx, ExampleTimeout)
	defer cancel()
	res, err := s.caller.CallWith(ctx, sessionID, ex.Method, params, backend.CallOptions{ResponseFrame: true})
	r.Latency, r.ResponseFrameID = res.Latency, res.ResponseFrameID
	if err != nil {
		r.Outcome, r.Message = RunError, backend.ErrorMessageOf(err)
		if errors.Is(ctx.Err(), context.Canceled) {
			r.Message = "The run was stopped before the answer came."
		}
		return r
	}
	r.Outcome, r.Message, r.Diff, r.Checks = Judge(ex, res, s.outputSchema(ctx, sessionID, ex.Method, params))
	for _, c := range ex.Captures {
		v, err := capture(c, answerOf(res))
		if err != nil {
			if r.Outcome == RunPass {
				r.Outcome = RunFail
			}
			r.Message = strings.TrimSpace(r.Message + " " + err.Error() + ".")
			continue
		}
		vars[c.Name] = v
	}
	return r
}

// outputSchema is the outputSchema of the tool a tools/call calls, nil
// for any other request or when the session cannot say.
func (s *Service) outputSchema(ctx context.Context, sessionID int64, method string, params json.RawMessage) json.RawMessage {
	var p struct{ Name string }
	if method != "tools/call" || json.Unmarshal(params, &p) != nil {
		return nil
	}
	tool, err := s.caller.Tool(ctx, sessionID, p.Name)
	if err != nil {
		return nil
	}
	return tool.OutputSchema
}

// answerOf is what assertions and captures look into: the result, or the
// JSON-RPC error object.
func answerOf(res backend.CallResult) json.RawMessage {
	if res.Error != nil {
		b, _ := json.Marshal(res.Error)
		return b
	}
	return res.Result
}

// Judge judges an answer to an example. The answer must be of the kind
// the snapshot is: a JSON-RPC error passes only when the snapshot is an
// error with the same code; a result only when the snapshot is a result
// with the same isError and, unless the example is judged by its
// assertions alone, an equal value outside the volatile paths. Then every
// assertion must hold (outputSchema is the called tool's, nil when none).
// A failure's message says why; its diff goes from the snapshot to the
// answer (both wrapped as {"result": ...} or {"error": ...} when their
// kinds differ).
func Judge(ex Example, res backend.CallResult, outputSchema json.RawMessage) (RunOutcome, string, []jsondiff.Change, []CheckResult) {
	checks := checkAssertions(ex.Assertions, answerOf(res), res.Latency, outputSchema)
	outcome, msg, diff := judgeSnapshot(ex, res)
	failed := 0
	for _, c := range checks {
		if !c.Passed {
			failed++
		}
	}
	if failed > 0 && outcome == RunPass {
		outcome, msg = RunFail, fmt.Sprintf("%d of %d assertions failed.", failed, len(checks))
	}
	return outcome, msg, diff, checks
}

func judgeSnapshot(ex Example, res backend.CallResult) (RunOutcome, string, []jsondiff.Change) {
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
	if !json.Valid(res.Result) {
		return RunFail, "The result is not valid JSON.", nil
	}
	var diff []jsondiff.Change
	if !ex.AssertionsOnly {
		diff, _ = jsondiff.Diff(ex.Snapshot, res.Result, ex.Volatile)
	}
	if got := mcpclient.IsToolError(res.Result); got != ex.ExpectIsError {
		return RunFail, fmt.Sprintf("isError is %t, expected %t.", got, ex.ExpectIsError), diff
	}
	if len(diff) > 0 {
		return RunFail, fmt.Sprintf("The result differs from the snapshot (%s).", backend.Count(len(diff), "change")), diff
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

// hideInResult returns a run result with the secret values replaced in its
// message, its diff's values and its checks' messages.
func hideInResult(r backend.Redactor, res RunResult) RunResult {
	res.Message = r.WithoutValues(res.Message)
	res.Diff = slices.Clone(res.Diff)
	for i, c := range res.Diff {
		c.Old, c.New = r.WithoutValuesInJSON(c.Old), r.WithoutValuesInJSON(c.New)
		res.Diff[i] = c
	}
	res.Checks = slices.Clone(res.Checks)
	for i := range res.Checks {
		res.Checks[i].Message = r.WithoutValues(res.Checks[i].Message)
	}
	return res
}
