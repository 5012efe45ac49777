package web_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/benchfig"
)

const (
	benchPageFrames     = 100_000
	benchPageLargeBody  = 7 << 20
	benchPageViewers    = 20
	benchPageLargeEvery = 5 // among the newest 50 frames, every fifth body is large
)

// BenchmarkSessionPage renders the page of a recorded session of 100,000
// frames whose newest page holds ten 7 MiB bodies (and the rest of the
// session 4 more), then opens it in 20 more viewers at once — each loads
// the page and keeps its live stream open, as a browser tab does — and
// watches the heap.
func BenchmarkSessionPage(b *testing.B) {
	d := MustDashboard(b)
	ctx := context.Background()
	large := []byte(`{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("x", benchPageLargeBody) + `"}}`)
	sessID, _ := d.MustRecordedSession(b, nil)
	for seq := range benchPageFrames {
		f := benchfig.SessionFrame(seq)
		newest := benchPageFrames - seq
		if (newest <= 50 && newest%benchPageLargeEvery == 0) || seq%25_000 == 1 {
			f = backend.WireFrame{Time: time.Now(), Direction: backend.Inbound, Kind: backend.KindMessage, Body: large}
		}
		if err := d.rec.Record(sessID, f); err != nil {
			b.Fatal(err)
		}
	}
	if err := d.rec.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	if n, err := d.db.CountFrames(ctx, sessID); err != nil || n != benchPageFrames {
		b.Fatalf("the session has %d frames (%v), want %d", n, err, benchPageFrames)
	}

	lastID, err := d.db.MaxFrameID(ctx) // only this session records
	if err != nil {
		b.Fatal(err)
	}
	last := strconv.FormatInt(lastID, 10)
	// The page is the session's when it holds its newest frame. d.client
	// is signed in, and does not follow the redirect to the sign-in page
	// that a client without its cookie gets.
	path := fmt.Sprintf("/sessions/%d", sessID)
	newest := []byte(`id="frame-` + last + `"`)
	get := func() (int, time.Duration, error) {
		status, body, elapsed, err := timedGet(d.client, d.URL+path)
		if err == nil && (status != http.StatusOK || !bytes.Contains(body, newest)) {
			err = fmt.Errorf("GET %s: %d without frame %s, want 200 with the session's newest frames:\n%.500s", path, status, last, body)
		}
		return len(body), elapsed, err
	}
	var times []time.Duration
	var size int
	for b.Loop() {
		n, elapsed, err := get()
		times = append(times, elapsed)
		if err != nil {
			b.Fatal(err)
		}
		size = n
	}

	// 20 viewers open the page at once and stay.
	runtime.GC()
	heapBefore, rssBefore := heapAlloc(), rssKiB()
	var peak atomic.Uint64
	stopWatch, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			if h := heapAlloc(); h > peak.Load() {
				peak.Store(h)
			}
			select {
			case <-stopWatch:
				return
			case <-tick.C:
			}
		}
	}()
	var wg sync.WaitGroup
	conns := make([]*websocket.Conn, benchPageViewers)
	errs := make([]error, benchPageViewers)
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, errs[i] = get(); errs[i] != nil {
				return
			}
			u := "ws://" + d.Host + path + "/live?after=" + last
			if conns[i], _, errs[i] = d.wsDialer().Dial(u, nil); errs[i] != nil {
				return
			}
			// The waiting-requests panel is the first message of a stream
			// that is up to date.
			conns[i].SetReadDeadline(time.Now().Add(10 * time.Second))
			_, _, errs[i] = conns[i].ReadMessage()
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			b.Fatalf("viewer %d: %v", i, err)
		}
	}
	for d.hub.Subscribers(sessID) < benchPageViewers {
		time.Sleep(time.Millisecond)
	}
	close(stopWatch)
	<-watched
	runtime.GC()
	heapAfter, rssAfter := heapAlloc(), rssKiB()
	for _, c := range conns {
		c.Close()
	}

	item := 7
	benchfig.Report(b, "p50-ms", benchfig.Figure{Item: item, Figure: "session page, 100,000 frames with 14 bodies of 7 MiB (10 on the page), p50", Value: ms(benchfig.Percentile(times, 50)), Unit: "ms",
		Cmp: "<=", Target: 100, Samples: float64(len(times))})
	benchfig.Report(b, "p99-ms", benchfig.Figure{Item: item, Figure: "session page, p99", Value: ms(benchfig.Percentile(times, 99)), Unit: "ms", Samples: float64(len(times))})
	benchfig.Report(b, "page-KiB", benchfig.Figure{Item: item, Figure: "session page, HTML size", Value: float64(size) / 1024, Unit: "KiB", Cmp: "<=", Target: 1024})
	benchfig.Report(b, "viewers-heap-growth-MiB", benchfig.Figure{Item: item, Figure: "20 viewers open the page and stay: heap growth (after GC)", Value: mib(heapAfter) - mib(heapBefore), Unit: "MiB",
		Cmp: "<=", Target: 8, TargetText: "flat (≤ 8 MiB)", Note: fmt.Sprintf("heap %.1f → peak %.1f → %.1f MiB; RSS %.0f → %.0f MiB", mib(heapBefore), mib(peak.Load()), mib(heapAfter), float64(rssBefore)/1024, float64(rssAfter)/1024)})
}

// rssKiB is this process's resident set size in KiB, 0 where /proc is
// missing.
func rssKiB() int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
