package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend/benchfig"
)

// TestBaselineScalesTheTarget: a target relative to a baseline is scaled
// by the baseline this run measured (a machine half as fast is held to
// half the throughput), and one whose baseline did not run is held to the
// target as given, saying so.
func TestBaselineScalesTheTarget(t *testing.T) {
	calls := benchfig.Figure{Item: 4, Figure: "calls", Value: 1500, Unit: "calls/s", Cmp: ">=", Target: 2000, Baseline: "sdk p50", BaselineValue: 0.4}
	for _, tt := range []struct {
		name    string
		figures []benchfig.Figure
		want    []string
	}{
		{"half as fast", []benchfig.Figure{{Item: 1, Figure: "sdk p50", Value: 0.8, Unit: "ms"}, calls},
			[]string{"≥ 1,000 calls/s (2,000 × 0.400 / 0.800 ms, sdk p50)", "| yes", "0 missed"}},
		{"as fast", []benchfig.Figure{{Item: 1, Figure: "sdk p50", Value: 0.4, Unit: "ms"}, calls},
			[]string{"≥ 2,000 calls/s (2,000 × 0.400 / 0.400 ms, sdk p50)", "| NO", "1 missed"}},
		{"no baseline", []benchfig.Figure{calls},
			[]string{"≥ 2,000 calls/s (no baseline in this run: sdk p50)", "| NO", "1 missed"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bench.jsonl")
			var lines []byte
			for _, f := range tt.figures {
				line, err := json.Marshal(f)
				if err != nil {
					t.Fatal(err)
				}
				lines = append(append(lines, line...), '\n')
			}
			if err := os.WriteFile(path, lines, 0o644); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := run([]string{path}, &out); err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("the table lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}
