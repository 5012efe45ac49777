package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestWithProgressToken(t *testing.T) {
	tests := []struct {
		name      string
		params    any
		want      string
		wantToken string
		wantErr   string
	}{
		{"no params", nil, `{"_meta":{"progressToken":7}}`, "7", ""},
		{"nil raw params", json.RawMessage(nil), `{"_meta":{"progressToken":7}}`, "7", ""},
		{"empty object", json.RawMessage(`{}`), `{"_meta":{"progressToken":7}}`, "7", ""},
		{"empty object with space", json.RawMessage(" { \n} "), `{"_meta":{"progressToken":7}}`, "7", ""},
		{"members kept in order", json.RawMessage(`{"z":1,"a":{"b":[1,2]}}`), `{"z":1,"a":{"b":[1,2]},"_meta":{"progressToken":7}}`, "7", ""},
		{"struct", struct {
			Name string `json:"name"`
		}{"echo"}, `{"name":"echo","_meta":{"progressToken":7}}`, "7", ""},
		{"existing _meta", json.RawMessage(`{"_meta":{"k":"v"},"x":1}`), `{"_meta":{"k":"v","progressToken":7},"x":1}`, "7", ""},
		{"existing empty _meta", json.RawMessage(`{"x":1,"_meta":{ }}`), `{"x":1,"_meta":{"progressToken":7}}`, "7", ""},
		{"caller's own token", json.RawMessage(`{"_meta":{"progressToken":"mine"}}`), `{"_meta":{"progressToken":"mine"}}`, `"mine"`, ""},
		{"escaped key is not _meta", json.RawMessage(`{"_met\u0061x":1}`), `{"_met\u0061x":1,"_meta":{"progressToken":7}}`, "7", ""},
		{"array", json.RawMessage(`[1]`), "", "", "progress needs params to be a JSON object"},
		{"_meta not an object", json.RawMessage(`{"_meta":3}`), "", "", "params._meta is not a JSON object"},
		{"invalid JSON", json.RawMessage(`{"a":`), "", "", "params are not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, token, err := withProgressToken(tt.params, 7)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want || string(token) != tt.wantToken {
				t.Errorf("got %s (token %s), want %s (token %s)", got, token, tt.want, tt.wantToken)
			}
		})
	}
}

func TestProgress(t *testing.T) {
	for _, conn := range sdkConnectors {
		t.Run(conn.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			var notified sync.Map
			c := conn.connect(t, Options{Tap: rec.tap, OnNotification: func(n Notification) {
				if n.Method == "notifications/progress" {
					notified.Store(string(n.Params), true)
				}
			}})
			var mu sync.Mutex
			var got []Progress
			returned := false
			res, err := c.CallTool(testContext(t), "progress", json.RawMessage(`{"steps":3}`), WithProgress(func(p Progress) {
				mu.Lock()
				defer mu.Unlock()
				if returned {
					t.Error("progress reported after Call returned")
				}
				got = append(got, p)
			}))
			mu.Lock()
			returned = true
			mu.Unlock()
			if err != nil || res.IsError {
				t.Fatalf("CallTool: %v %+v", err, res)
			}
			out := rec.find(Outbound, KindMessage, `"name":"progress"`)
			if len(out) != 1 {
				t.Fatalf("frames = %+v", out)
			}
			var req message
			if err := json.Unmarshal(out[0].Body, &req); err != nil {
				t.Fatal(err)
			}
			if want := `{"name":"progress","arguments":{"steps":3},"_meta":{"progressToken":` + string(req.ID) + `}}`; string(req.Params) != want {
				t.Errorf("params = %s, want %s", req.Params, want)
			}
			mu.Lock()
			defer mu.Unlock()
			// Over HTTP with JSON responses the SDK sends progress on the
			// standalone stream, if it is open yet, racing the response.
			if conn.name != "http-json" && len(got) != 3 {
				t.Fatalf("got %d progress reports: %+v", len(got), got)
			}
			for i, p := range got {
				if p.Progress != float64(i+1) || p.Total != 3 || p.Message == "" || string(p.Token) != string(req.ID) {
					t.Errorf("report %d = %+v", i, p)
				}
			}
			n := 0
			notified.Range(func(any, any) bool { n++; return true })
			if conn.name != "http-json" && n != 3 {
				t.Errorf("OnNotification saw %d progress notifications", n)
			}
		})
	}
}

func TestProgressNeedsObjectParams(t *testing.T) {
	c, rec, _ := connectFake(t, Options{})
	_, err := c.Call(testContext(t), "anything", json.RawMessage(`[1,2]`), WithProgress(func(Progress) {}))
	if err == nil || err.Error() != "anything: progress needs params to be a JSON object, to carry _meta" {
		t.Fatalf("err = %v", err)
	}
	if f := rec.find(Outbound, KindMessage, "anything"); len(f) != 0 {
		t.Errorf("sent %s", f[0].Body)
	}
}

func TestTimeouts(t *testing.T) {
	t.Run("defaults", func(t *testing.T) {
		o := Options{Timeouts: map[string]time.Duration{"tools/call": time.Second, "custom/x": 2 * time.Second, "prompts/get": -1}}.withDefaults()
		tests := []struct {
			method string
			want   time.Duration
		}{
			{"initialize", 5 * time.Second},
			{"tools/list", 5 * time.Second},
			{"resources/list", 5 * time.Second},
			{"resources/templates/list", 5 * time.Second},
			{"prompts/list", 5 * time.Second},
			{"resources/read", 10 * time.Second},
			{"prompts/get", 5 * time.Second},
			{"tools/call", time.Second},
			{"custom/x", 2 * time.Second},
			{"completion/complete", 60 * time.Second},
		}
		for _, tt := range tests {
			if got := o.timeout(tt.method); got != tt.want {
				t.Errorf("timeout(%s) = %v, want %v", tt.method, got, tt.want)
			}
		}
		if o.InitializeTimeout != 5*time.Second {
			t.Errorf("InitializeTimeout = %v", o.InitializeTimeout)
		}
	})
	t.Run("a hung request times out by its method's timeout", func(t *testing.T) {
		c, rec, _ := connectFake(t, Options{Timeouts: map[string]time.Duration{"hang": 200 * time.Millisecond}})
		start := time.Now()
		_, err := c.Call(context.Background(), "hang", nil)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want DeadlineExceeded", err)
		}
		if d := time.Since(start); d < 200*time.Millisecond || d > 2*time.Second {
			t.Errorf("took %v", d)
		}
		rec.waitFind(t, Outbound, KindMessage, `"notifications/cancelled","params":{"reason":"request timed out","requestId":2}`)
	})
	t.Run("a deadline on ctx wins", func(t *testing.T) {
		c, _, _ := connectFake(t, Options{Timeouts: map[string]time.Duration{"hang": time.Hour}})
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		if _, err := c.Call(ctx, "hang", nil); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want DeadlineExceeded", err)
		}
	})
	t.Run("cancelled by the caller", func(t *testing.T) {
		c, rec, _ := connectFake(t, Options{})
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		if _, err := c.Call(ctx, "hang", nil); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want Canceled", err)
		}
		rec.waitFind(t, Outbound, KindMessage, `"notifications/cancelled","params":{"reason":"request cancelled by the client","requestId":2}`)
	})
}
