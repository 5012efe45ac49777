// Package benchfig carries the figures of `make bench` from the benchmarks
// to its summary table (cmd/playground/benchreport): each figure is one
// JSON line appended to the file named by PLAYGROUND_BENCH_OUT. It also
// holds what several benchmarks share: percentiles and a synthetic
// session's frames (SessionFrame).
package benchfig

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"
)

// OutEnv names the environment variable holding the figures file.
const OutEnv = "PLAYGROUND_BENCH_OUT"

// Figure is one row of the summary table.
type Figure struct {
	Item   int     `json:"item"` // the benchmark's number in the performance issue
	Figure string  `json:"figure"`
	Value  float64 `json:"value"`
	Unit   string  `json:"unit"`
	Cmp    string  `json:"cmp,omitempty"` // "<=" or ">=": how Value must compare with Target; "" for no target
	Target float64 `json:"target"`
	// TargetText, if set, is how the table shows the target.
	TargetText string  `json:"targetText,omitempty"`
	Samples    float64 `json:"samples,omitempty"`
	Note       string  `json:"note,omitempty"`
	Skipped    string  `json:"skipped,omitempty"` // why there is no value
}

// Report reports f as the benchmark metric named metric (unless f was
// skipped) and appends it to the figures file when OutEnv is set.
func Report(b *testing.B, metric string, f Figure) {
	b.Helper()
	if f.Skipped == "" {
		b.ReportMetric(f.Value, metric)
	}
	path := os.Getenv(OutEnv)
	if path == "" {
		return
	}
	line, err := json.Marshal(f)
	if err != nil {
		b.Fatal(err)
	}
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		b.Fatalf("%s: %v", OutEnv, err)
	}
	defer out.Close()
	if _, err := out.Write(append(line, '\n')); err != nil {
		b.Fatalf("%s: %v", OutEnv, err)
	}
}

// Percentile returns the p-th percentile (nearest rank) of ds; 0 when empty.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}
