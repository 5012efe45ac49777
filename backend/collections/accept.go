package collections

import (
	"context"

	"github.com/mcp-playground/playground/backend"
)

// AcceptAnswer makes the answer that failed example resultID of the run
// the example's new snapshot: what the server answers now is what it
// should answer. The answer comes from the recorded response frame, as
// when an example is saved (secrets the run hid stay hidden). Only a
// failure with a recorded answer, whose example still exists, can be
// accepted; anything else is an EInvalid *backend.Error. It returns the example
// as it is now.
func (s *Service) AcceptAnswer(ctx context.Context, collectionID, runID, resultID int64) (Example, error) {
	_, results, err := s.store.GetRun(ctx, collectionID, runID)
	if err != nil {
		return Example{}, err
	}
	var result *RunResult
	for i := range results {
		if results[i].ID == resultID {
			result = &results[i]
		}
	}
	switch {
	case result == nil:
		return Example{}, backend.Errorf(backend.ENotFound, "Result %d is not one of this run's.", resultID)
	case result.Outcome != RunFail || result.ResponseFrameID == 0:
		return Example{}, backend.Errorf(backend.EInvalid, "Only a failed example's recorded answer can become its snapshot.")
	case result.ExampleID == 0:
		return Example{}, backend.Errorf(backend.EInvalid, "The example %q was deleted: there is no snapshot to replace.", result.ExampleName)
	}
	answer, err := s.exampleFromFrame(ctx, result.ResponseFrameID)
	if err != nil {
		return Example{}, err
	}
	ex, err := s.store.GetExample(ctx, collectionID, result.ExampleID)
	if err != nil {
		return Example{}, err
	}
	ex.SnapshotKind, ex.Snapshot, ex.ExpectIsError = answer.SnapshotKind, answer.Snapshot, answer.ExpectIsError
	return ex, s.store.SetExampleSnapshot(ctx, ex)
}
