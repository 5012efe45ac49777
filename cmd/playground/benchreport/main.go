// Command benchreport prints the summary table of `make bench`: the figures
// that the benchmarks appended, one JSON object a line, to the file named
// by PLAYGROUND_BENCH_OUT, each with its target and whether it met it.
//
//	go run ./cmd/playground/benchreport FILE
//
// A figure reported more than once (a benchmark that ran again) counts
// with its last value. The exit status is 0 even when targets are missed:
// the table says so, and a slow machine must not fail a build.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-playground/playground/backend/benchfig"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

// figure is one line of the benchmarks' output file.
type figure = benchfig.Figure

func run(args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: benchreport FILE")
	}
	f, err := os.Open(args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	var figures []figure
	index := map[string]int{}
	lines := bufio.NewScanner(f)
	for n := 1; lines.Scan(); n++ {
		var fig figure
		if err := json.Unmarshal(lines.Bytes(), &fig); err != nil {
			return fmt.Errorf("%s:%d: %w", args[0], n, err)
		}
		if i, ok := index[fig.Figure]; ok {
			figures[i] = fig
			continue
		}
		index[fig.Figure] = len(figures)
		figures = append(figures, fig)
	}
	if err := lines.Err(); err != nil {
		return err
	}
	slices.SortStableFunc(figures, func(a, b figure) int { return a.Item - b.Item })
	printTable(stdout, figures)
	return nil
}

func printTable(w io.Writer, figures []figure) {
	rows := [][]string{{"#", "figure", "value", "target", "ok?"}}
	missed := 0
	for _, f := range figures {
		ok := "—"
		if f.Skipped != "" {
			rows = append(rows, []string{strconv.Itoa(f.Item), f.Figure, "skipped: " + f.Skipped, target(f), "—"})
			continue
		}
		if f.Cmp != "" {
			ok = "yes"
			if !meets(f) {
				ok, missed = "NO", missed+1
			}
		}
		value := number(f.Value) + " " + f.Unit
		if f.Note != "" {
			value += " (" + f.Note + ")"
		}
		rows = append(rows, []string{strconv.Itoa(f.Item), f.Figure, value, target(f), ok})
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	fmt.Fprintf(w, "\nmake bench summary (%d CPUs, %s/%s)\n\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	for i, r := range rows {
		cells := make([]string, len(r))
		for j, c := range r {
			cells[j] = c + strings.Repeat(" ", widths[j]-len([]rune(c)))
		}
		fmt.Fprintln(w, strings.TrimRight(strings.Join(cells, " | "), " "))
		if i == 0 {
			dashes := make([]string, len(r))
			for j := range r {
				dashes[j] = strings.Repeat("-", widths[j])
			}
			fmt.Fprintln(w, strings.Join(dashes, "-|-"))
		}
	}
	fmt.Fprintf(w, "\n%d figures, %d with a target, %d missed\n", len(figures), countTargets(figures), missed)
}

func meets(f figure) bool {
	switch f.Cmp {
	case "<=":
		return f.Value <= f.Target
	case ">=":
		return f.Value >= f.Target
	}
	return true
}

func target(f figure) string {
	switch {
	case f.TargetText != "":
		return f.TargetText
	case f.Cmp == "<=":
		return "≤ " + number(f.Target) + " " + f.Unit
	case f.Cmp == ">=":
		return "≥ " + number(f.Target) + " " + f.Unit
	}
	return ""
}

func countTargets(figures []figure) int {
	n := 0
	for _, f := range figures {
		if f.Cmp != "" {
			n++
		}
	}
	return n
}

// number formats v with about three significant digits, and thousands
// separated by commas.
func number(v float64) string {
	switch a := max(v, -v); {
	case a >= 1000:
		s := strconv.FormatFloat(v, 'f', 0, 64)
		neg := strings.HasPrefix(s, "-")
		s = strings.TrimPrefix(s, "-")
		for i := len(s) - 3; i > 0; i -= 3 {
			s = s[:i] + "," + s[i:]
		}
		if neg {
			s = "-" + s
		}
		return s
	case a >= 100 || a == 0 || v == float64(int64(v)):
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}
