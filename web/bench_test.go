package web_test

// Benchmarks of the dashboard, each measured side by side in one run:
//
//   - BenchmarkCallOverhead: tools/call through the JSON API beside the
//     official Go SDK client calling the same server over the same transport;
//   - BenchmarkLiveFanOut: one session recording 5,000 frames/s watched by 20
//     WebSocket viewers and one viewer that stops reading;
//   - BenchmarkServerPage: the server page of a server with 500 tools.
//
// Each reports its figures with b.ReportMetric and, for `make bench`'s
// summary table, appends them with their targets to the file named by
// PLAYGROUND_BENCH_OUT (see cmd/playground/benchreport). They never fail
// because a figure misses its target: that is for the table to say.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/benchfig"
	"github.com/mcp-playground/playground/web"
)

// BenchmarkCallOverhead times one tools/call (the echo tool of newSDKServer)
// sent through POST /api/v1/sessions/{id}/requests of a dashboard served on
// 127.0.0.1, and the same call from the official Go SDK client connected
// straight to the same server, alternating the two in every iteration. The
// server runs in a child process, as real servers do, so that its garbage
// collection and scheduling are not the dashboard's.
func BenchmarkCallOverhead(b *testing.B) {
	for _, transport := range []string{"http", "stdio"} {
		b.Run(transport, func(b *testing.B) { benchCallOverhead(b, transport) })
	}
}

func benchCallOverhead(b *testing.B, transport string) {
	d := MustDashboard(b)
	var server map[string]any
	var sdkTransport mcp.Transport
	switch transport {
	case "http":
		url := mustSDKHTTPProcess(b)
		server = map[string]any{"name": "sdk", "transport": "http", "url": url}
		sdkTransport = &mcp.StreamableClientTransport{Endpoint: url}
	case "stdio":
		// Two processes of the same server program: a stdio server has one client.
		server = sdkStdioServer("sdk")
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), roleEnv+"=sdk")
		sdkTransport = &mcp.CommandTransport{Command: cmd}
	}
	sess := d.MustAPISession(b, d.MustAPIServer(b, server).ID)
	sdk, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(b.Context(), sdkTransport, nil)
	if err != nil {
		b.Fatalf("SDK client: %v", err)
	}
	defer sdk.Close()

	apiClient := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	defer apiClient.CloseIdleConnections()
	apiURL := fmt.Sprintf("%s/api/v1/sessions/%d/requests", d.URL, sess.ID)
	apiBody := []byte(`{"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`)
	viaAPI := func() time.Duration {
		start := time.Now()
		req, err := http.NewRequest(http.MethodPost, apiURL, bytes.NewReader(apiBody))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+d.token)
		resp, err := apiClient.Do(req)
		if err != nil {
			b.Fatalf("API call: %v", err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		elapsed := time.Since(start)
		if err != nil || resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte("echo: hello")) {
			b.Fatalf("API call: %d %s %v", resp.StatusCode, body, err)
		}
		return elapsed
	}
	params := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hello"}}
	viaSDK := func() time.Duration {
		start := time.Now()
		res, err := sdk.CallTool(context.Background(), params)
		elapsed := time.Since(start)
		if err != nil || res.IsError || len(res.Content) != 1 {
			b.Fatalf("SDK call: %v %+v", err, res)
		}
		if text, ok := res.Content[0].(*mcp.TextContent); !ok || text.Text != "echo: hello" {
			b.Fatalf("SDK call: %+v, want the text echo: hello", res.Content[0])
		}
		return elapsed
	}
	for range 20 { // warm up connections and caches
		viaAPI()
		viaSDK()
	}

	var api, direct []time.Duration
	for b.Loop() {
		if len(api)%2 == 0 {
			api = append(api, viaAPI())
			direct = append(direct, viaSDK())
		} else {
			direct = append(direct, viaSDK())
			api = append(api, viaAPI())
		}
	}
	apiP50, sdkP50 := benchfig.Percentile(api, 50), benchfig.Percentile(direct, 50)
	n := float64(len(api))
	benchfig.Report(b, "api-p50-ms", benchfig.Figure{Item: 1, Figure: "call p50 via JSON API, " + transport, Value: ms(apiP50), Unit: "ms", Samples: n})
	benchfig.Report(b, "sdk-p50-ms", benchfig.Figure{Item: 1, Figure: "call p50 via Go SDK client, " + transport, Value: ms(sdkP50), Unit: "ms", Samples: n})
	benchfig.Report(b, "overhead-p50-ms", benchfig.Figure{Item: 1, Figure: "call overhead p50, " + transport, Value: ms(apiP50 - sdkP50), Unit: "ms",
		Cmp: "<=", Target: 1})
	benchfig.Report(b, "ratio", benchfig.Figure{Item: 1, Figure: "call ratio API/SDK p50, " + transport, Value: float64(apiP50) / float64(sdkP50), Unit: "x",
		Cmp: "<=", Target: 1.2})
}

// Live fan-out: one session records fanOutRate frames/s for fanOutSeconds,
// watched by fanOutViewers WebSocket viewers that read everything, and one
// that never reads.
const (
	fanOutRate    = 5000
	fanOutSeconds = 8
	fanOutViewers = 20
)

// BenchmarkLiveFanOut measures, for every frame and every viewer, the time
// from Recorder.Record to the viewer receiving the WebSocket message that
// carries the frame; when the stalled viewer is cut off; how many times
// each committed batch of frames was rendered (its viewers are one person,
// so one view); and the heap.
func BenchmarkLiveFanOut(b *testing.B) {
	for b.Loop() {
		benchLiveFanOut(b)
	}
}

func benchLiveFanOut(b *testing.B) {
	base := time.Now()
	closed := &logWatch{what: []byte("live viewer cut off"), base: base}
	d := mustDashboardWith(b, dashboardOptions{log: closed})
	ctx := context.Background()
	sessID, err := d.db.CreateSession(ctx, backend.Session{ServerName: "fan-out", Transport: backend.TransportStdio,
		Status: backend.SessionOpen, StartedAt: time.Now()})
	if err != nil {
		b.Fatal(err)
	}
	if err := d.rec.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	maxID, err := d.db.MaxFrameID(ctx)
	if err != nil {
		b.Fatal(err)
	}
	// Only this benchmark records, from one goroutine, so the n-th frame
	// recorded gets id firstID+n.
	firstID := maxID + 1
	const total = fanOutRate * fanOutSeconds
	recordedAt := make([]atomic.Int64, total) // ns since base
	viewers := make([]*liveViewer, fanOutViewers)
	for i := range viewers {
		viewers[i] = &liveViewer{latencies: make([]time.Duration, 0, total)}
	}

	runtime.GC()
	heapBefore := heapAlloc()

	for _, v := range viewers {
		v.conn = dialViewer(b, d, sessID)
	}
	stalled := &liveViewer{conn: dialViewer(b, d, sessID)} // reads nothing from now on
	for d.hub.Subscribers(sessID) < fanOutViewers+1 {
		time.Sleep(time.Millisecond)
	}
	renders, restore := web.CountFrameRenders()
	defer restore()
	batches := d.hub.Subscribe(sessID) // counts the committed batches
	var batchCount atomic.Int64
	counted := make(chan struct{})
	go func() {
		defer close(counted)
		for ev := range batches.C {
			if len(ev.Frames) > 0 {
				batchCount.Add(1)
			}
		}
	}()

	var wg sync.WaitGroup
	lastID := firstID + total - 1
	for _, v := range viewers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v.read(firstID, lastID, base, recordedAt)
		}()
	}

	// Watch the heap and the number of viewers the hub feeds.
	var peak atomic.Uint64
	var cutOff atomic.Int64 // ns since base when the hub dropped a viewer
	stopWatch := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			if h := heapAlloc(); h > peak.Load() {
				peak.Store(h)
			}
			followers := fanOutViewers + 1 // the reading viewers and the batch counter
			if batches.Dropped() {
				followers--
			}
			if cutOff.Load() == 0 && d.hub.Subscribers(sessID) <= followers {
				cutOff.Store(int64(time.Since(base)))
			}
			select {
			case <-stopWatch:
				return
			case <-tick.C:
			}
		}
	}()

	start := time.Now()
	startNS := int64(start.Sub(base))
	for seq := 0; seq < total; {
		due := min(total, int(time.Since(start).Seconds()*fanOutRate)+1)
		for ; seq < due; seq++ {
			f := benchfig.SessionFrame(seq)
			recordedAt[seq].Store(int64(time.Since(base)))
			if err := d.rec.Record(sessID, f); err != nil {
				b.Fatal(err)
			}
		}
		time.Sleep(200 * time.Microsecond)
	}
	produced := time.Since(start)
	wg.Wait()
	batches.Close()
	<-counted
	close(stopWatch)
	<-watched
	runtime.GC()
	heapAfter := heapAlloc()

	var lat []time.Duration
	var missing, cut int
	for _, v := range viewers {
		lat = append(lat, v.latencies...)
		missing += total - v.frames
		if v.err != nil {
			cut++
			b.Logf("viewer: %v after %d frames", v.err, v.frames)
		}
	}
	// The stalled viewer: what it got before the cut, and how it ended.
	stalledFrames, stalledEnd := stalled.drain()
	b.Logf("stalled viewer: %d frames, then %v", stalledFrames, stalledEnd)

	benchfig.Report(b, "frames/s", benchfig.Figure{Item: 3, Figure: "fan-out: frames recorded per second", Value: float64(total) / produced.Seconds(), Unit: "frames/s"})
	benchfig.Report(b, "p50-ms", benchfig.Figure{Item: 3, Figure: "fan-out: delivery latency p50, 20 viewers", Value: ms(benchfig.Percentile(lat, 50)), Unit: "ms", Samples: float64(len(lat))})
	benchfig.Report(b, "p99-ms", benchfig.Figure{Item: 3, Figure: "fan-out: delivery latency p99, 20 viewers", Value: ms(benchfig.Percentile(lat, 99)), Unit: "ms",
		Cmp: "<=", Target: 50, Samples: float64(len(lat))})
	benchfig.Report(b, "max-ms", benchfig.Figure{Item: 3, Figure: "fan-out: delivery latency max", Value: ms(slices.Max(lat)), Unit: "ms"})
	benchfig.Report(b, "missed-frames", benchfig.Figure{Item: 3, Figure: "fan-out: frames the 20 viewers missed", Value: float64(missing), Unit: "frames", Cmp: "<=", Target: 0})
	benchfig.Report(b, "viewers-cut", benchfig.Figure{Item: 3, Figure: "fan-out: reading viewers cut off", Value: float64(cut), Unit: "viewers", Cmp: "<=", Target: 0})
	since := func(at int64) float64 {
		if at == 0 {
			return -1
		}
		return float64(at-startNS) / 1e9
	}
	benchfig.Report(b, "stalled-dropped-s", benchfig.Figure{Item: 3, Figure: "fan-out: stalled viewer dropped by the hub, s after the first frame", Value: since(cutOff.Load()), Unit: "s",
		Cmp: ">=", Target: 0, TargetText: "dropped (-1: never)"})
	benchfig.Report(b, "stalled-closed-s", benchfig.Figure{Item: 3, Figure: "fan-out: stalled viewer's connection closed, s after the first frame", Value: since(closed.at.Load()), Unit: "s",
		Cmp: ">=", Target: 0, TargetText: "closed (-1: never)", Note: fmt.Sprintf("it had been sent %d frames", stalledFrames)})
	perBatch := benchfig.Figure{Item: 3, Figure: "fan-out: renderings of each committed batch, 21 viewers in one view", Unit: "renders",
		Cmp: "<=", Target: 1, Samples: float64(batchCount.Load())}
	if batches.Dropped() || batchCount.Load() == 0 {
		perBatch.Skipped = "the subscription counting the batches fell behind"
	} else {
		perBatch.Value = float64(renders()) / float64(batchCount.Load())
	}
	benchfig.Report(b, "renders/batch", perBatch)
	benchfig.Report(b, "heap-before-MiB", benchfig.Figure{Item: 3, Figure: "fan-out: heap before (after GC)", Value: mib(heapBefore), Unit: "MiB"})
	benchfig.Report(b, "heap-peak-MiB", benchfig.Figure{Item: 3, Figure: "fan-out: heap peak (sampled every 20 ms)", Value: mib(peak.Load()), Unit: "MiB"})
	benchfig.Report(b, "heap-after-MiB", benchfig.Figure{Item: 3, Figure: "fan-out: heap after (after GC)", Value: mib(heapAfter), Unit: "MiB"})
}

// liveViewer is one WebSocket client of a session's live stream.
type liveViewer struct {
	conn      *websocket.Conn
	frames    int
	latencies []time.Duration
	err       error // why reading stopped before the last frame
}

func dialViewer(b *testing.B, d *dashboard, sessionID int64) *websocket.Conn {
	b.Helper()
	u := fmt.Sprintf("ws://%s/sessions/%d/live?after=0", d.Host, sessionID)
	conn, _, err := d.wsDialer().Dial(u, nil)
	if err != nil {
		b.Fatalf("dial %s: %v", u, err)
	}
	b.Cleanup(func() { conn.Close() })
	return conn
}

var frameIDAttr = []byte(`id="frame-`)

// read reads messages until the one holding the frame lastID, noting for
// each frame from firstID on how long after its Record it arrived. A
// message may hold a response (in its request's entry) before frames
// recorded earlier, so the message is read to its end.
func (v *liveViewer) read(firstID, lastID int64, base time.Time, recordedAt []atomic.Int64) {
	for done := false; !done; {
		_ = v.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, msg, err := v.conn.ReadMessage()
		if err != nil {
			v.err = err
			return
		}
		now := time.Since(base)
		for rest := msg; ; {
			i := bytes.Index(rest, frameIDAttr)
			if i < 0 {
				break
			}
			rest = rest[i+len(frameIDAttr):]
			end := bytes.IndexByte(rest, '"')
			id, err := strconv.ParseInt(string(rest[:end]), 10, 64)
			if err != nil || id < firstID || id > lastID {
				continue
			}
			v.frames++
			v.latencies = append(v.latencies, now-time.Duration(recordedAt[id-firstID].Load()))
			done = done || id == lastID
		}
	}
}

// drain reads what the stalled viewer was sent and how its stream ended.
func (v *liveViewer) drain() (frames int, end error) {
	for {
		_ = v.conn.SetReadDeadline(time.Now().Add(2 * time.Second))
		_, msg, err := v.conn.ReadMessage()
		if err != nil {
			return frames, err
		}
		frames += bytes.Count(msg, frameIDAttr)
	}
}

// BenchmarkServerPage renders, through the real handler, the Tools section
// of a server with benchPageTools tools of varied input schemas: the list
// of all of them and one tool's card.
func BenchmarkServerPage(b *testing.B) {
	d := MustDashboard(b)
	server := mcp.NewServer(&mcp.Implementation{Name: "many-tools", Version: "1.0"}, nil)
	for i := range benchPageTools {
		server.AddTool(&mcp.Tool{Name: fmt.Sprintf("tool_%03d", i), Title: fmt.Sprintf("Tool %d", i),
			Description: fmt.Sprintf("Tool number %d of the benchmark: it does <nothing> & returns \"ok\".", i),
			InputSchema: benchToolSchema(i)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
			})
	}
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	b.Cleanup(func() {
		ts.CloseClientConnections() // the dashboard's session holds a GET stream open
		ts.Close()
	})
	srv := d.MustAPIServer(b, map[string]any{"name": "many-tools", "transport": "http", "url": ts.URL + "/mcp"})
	d.MustAPISession(b, srv.ID)

	// d.client is signed in, and does not follow the redirect to the
	// sign-in page that a client without its cookie gets.
	path := fmt.Sprintf("/servers/%d/tools/tool_250", srv.ID)
	first := d.get(b, path) // lists the tools once; later renders use the list
	if n := strings.Count(first.Body, `data-testid="item-link"`); first.Status != http.StatusOK || n != benchPageTools || !strings.Contains(first.Body, `data-tool="tool_250"`) {
		b.Fatalf("GET %s: status %d listing %d tools, want 200 listing %d with tool_250's card", path, first.Status, n, benchPageTools)
	}
	var times []time.Duration
	var size int
	for b.Loop() {
		status, body, elapsed, err := timedGet(d.client, d.URL+path)
		times = append(times, elapsed)
		if err != nil || status != http.StatusOK || !bytes.Contains(body, []byte(`data-tool="tool_250"`)) {
			b.Fatalf("GET %s: %d %v, want 200 with tool_250's card:\n%.500s", path, status, err, body)
		}
		size = len(body)
	}
	benchfig.Report(b, "p50-ms", benchfig.Figure{Item: 6, Figure: "server page with 500 tools, p50", Value: ms(benchfig.Percentile(times, 50)), Unit: "ms",
		Cmp: "<=", Target: 50, Samples: float64(len(times))})
	benchfig.Report(b, "p99-ms", benchfig.Figure{Item: 6, Figure: "server page with 500 tools, p99", Value: ms(benchfig.Percentile(times, 99)), Unit: "ms", Samples: float64(len(times))})
	benchfig.Report(b, "page-KiB", benchfig.Figure{Item: 6, Figure: "server page with 500 tools, size", Value: float64(size) / 1024, Unit: "KiB",
		Cmp: "<=", Target: 300})
}

const benchPageTools = 500

// benchToolSchema is the input schema of the i-th tool: six shapes, from
// no arguments to nested objects, arrays, enums and unions.
func benchToolSchema(i int) json.RawMessage {
	var s string
	switch i % 6 {
	case 0:
		s = `{"type":"object"}`
	case 1:
		s = `{"type":"object","properties":{"query":{"type":"string","description":"What to look for","minLength":1},
			"limit":{"type":"integer","minimum":1,"maximum":100,"default":10}},"required":["query"]}`
	case 2:
		s = `{"type":"object","properties":{"units":{"type":"string","enum":["metric","imperial","kelvin"]},
			"verbose":{"type":"boolean"},"city":{"type":"string","description":"City <name>"}},"required":["city"]}`
	case 3:
		s = `{"type":"object","properties":{"user":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},
			"tags":{"type":"array","items":{"type":"string"}}},"required":["name"]},"notify":{"type":"boolean","default":true}}}`
	case 4:
		s = `{"type":"object","properties":{"target":{"oneOf":[{"type":"string","format":"uri"},{"type":"object","properties":{"host":{"type":"string"},"port":{"type":"integer"}}}]},
			"retries":{"type":"number","minimum":0,"exclusiveMaximum":10},"mode":{"type":"string","enum":["fast","safe"],"default":"safe"}}}`
	default:
		var props []string
		for k := range 12 {
			props = append(props, fmt.Sprintf(`"field_%d":{"type":"%s","description":"Field %d of tool %d"}`, k, []string{"string", "number", "integer", "boolean"}[k%4], k, i))
		}
		s = `{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":["field_0","field_1"]}`
	}
	return json.RawMessage(s)
}

// timedGet fetches url with client (which must not follow redirects, as
// dashboard.client does not) and returns the answer's status and body and
// the time to its last byte.
func timedGet(client *http.Client, url string) (int, []byte, time.Duration, error) {
	start := time.Now()
	resp, err := client.Get(url)
	if err != nil {
		return 0, nil, time.Since(start), err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, body, time.Since(start), err
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func mib(n uint64) float64 { return float64(n) / (1 << 20) }

func heapAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
