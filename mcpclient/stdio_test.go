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

func TestConnectStdioFailures(t *testing.T) {
	tests := []struct {
		name string
		cfg  StdioConfig
		opts Options
		want string
	}{
		{"no such command", StdioConfig{Command: "nosuchcmd-mcpclient"}, Options{},
			`start "nosuchcmd-mcpclient": executable file not found in $PATH`},
		{"no command", StdioConfig{}, Options{}, "start: no command given"},
		{"bad dir", StdioConfig{Command: "sh", Dir: "/nonexistent-dir"}, Options{},
			`start "sh": working directory: stat /nonexistent-dir: no such file or directory`},
		{"exits during initialize", StdioConfig{Command: "sh", Args: []string{"-c", "read x; echo boom >&2; exit 3"}}, Options{},
			"server exited during initialize: exit status 3; stderr: boom"},
		{"silent server", StdioConfig{Command: "sh", Args: []string{"-c", "cat >/dev/null"}}, Options{InitializeTimeout: 300 * time.Millisecond},
			"initialize (id 1): gave up waiting for the response: context deadline exceeded"},
		{"unsupported version", StdioConfig{Command: "sh", Args: []string{"-c",
			`read x; echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"1999-01-01","serverInfo":{"name":"old","version":"0"}}}'; cat >/dev/null`}},
			Options{}, `initialize: server chose protocol version "1999-01-01"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := ConnectStdio(testContext(t), tt.cfg, tt.opts)
			if err == nil {
				c.Close()
				t.Fatal("connected")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

// connectFake connects to fakeServer with a tap and collects notifications.
func connectFake(t *testing.T, opts Options, env ...string) (*Client, *recorder, <-chan Notification) {
	t.Helper()
	rec := &recorder{}
	notes := make(chan Notification, 10)
	opts.Tap = rec.tap
	opts.OnNotification = func(n Notification) { notes <- n }
	c, err := ConnectStdio(testContext(t), selfCommand("fake", env...), opts)
	if err != nil {
		t.Fatalf("ConnectStdio: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c, rec, notes
}

func TestFakeServerQuirks(t *testing.T) {
	c, rec, notes := connectFake(t, Options{})
	ctx := testContext(t)

	if res := c.InitializeResult(); res.ProtocolVersion != "2025-06-18" || res.Instructions != "be nice" || res.ServerInfo.Name != "fake" {
		t.Errorf("InitializeResult = %+v", res)
	}
	t.Run("notification before the initialize reply", func(t *testing.T) {
		select {
		case n := <-notes:
			if n.Method != "notifications/tools/list_changed" {
				t.Errorf("notification = %+v", n)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no notification delivered")
		}
	})
	t.Run("garbage line recorded as parse error", func(t *testing.T) {
		f := rec.waitFind(t, Inbound, KindParseError, "this is not JSON")
		if string(f.Body) != "this is not JSON" {
			t.Errorf("body = %q", f.Body)
		}
	})
	t.Run("unknown id recorded", func(t *testing.T) {
		rec.waitFind(t, Inbound, KindMessage, `"id":999`)
	})
	t.Run("stderr recorded", func(t *testing.T) {
		rec.waitFind(t, Stderr, KindLog, "fake server starting")
	})
	t.Run("server requests answered", func(t *testing.T) {
		raw, err := c.Call(ctx, "ask", nil)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Ping     message `json:"ping"`
			Sampling message `json:"sampling"`
		}
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		if string(got.Ping.ID) != `"s1"` || string(got.Ping.Result) != "{}" {
			t.Errorf("ping answer = %s", raw)
		}
		if string(got.Sampling.ID) != `"s2"` || got.Sampling.Error == nil || got.Sampling.Error.Code != -32601 {
			t.Errorf("sampling answer = %s", raw)
		}
	})
	t.Run("outbound frames are the exact bytes", func(t *testing.T) {
		f := rec.find(Outbound, KindMessage, `"method":"ask"`)
		if len(f) != 1 || string(f[0].Body) != `{"jsonrpc":"2.0","id":2,"method":"ask"}` {
			t.Errorf("frames = %+v", f)
		}
	})
}

func TestStdioRequestTimeout(t *testing.T) {
	c, rec, _ := connectFake(t, Options{RequestTimeout: 200 * time.Millisecond})
	start := time.Now()
	_, err := c.Call(context.Background(), "hang", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	f := rec.waitFind(t, Outbound, KindMessage, "notifications/cancelled")
	if !strings.Contains(string(f.Body), `"requestId":2`) || !strings.Contains(string(f.Body), `"reason":"request timed out"`) {
		t.Errorf("cancel frame = %s", f.Body)
	}
	if _, err := c.Call(context.Background(), "unknown", nil); !errors.As(err, new(*RPCError)) {
		t.Errorf("connection unusable after timeout: %v", err)
	}
}

func TestStdioServerExit(t *testing.T) {
	c, rec, _ := connectFake(t, Options{})
	want := "server process exited: exit status 7; stderr: fake server starting | fatal: asked to exit"
	_, err := c.Call(testContext(t), "exit", nil)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Done not closed")
	}
	if c.Err() == nil || c.Err().Error() != want {
		t.Errorf("Err() = %v", c.Err())
	}
	rec.waitFind(t, Inbound, KindTransport, "process exited: exit status 7")
	if _, err := c.Call(testContext(t), "ping", nil); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("call after exit: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if c.Err() == nil {
		t.Error("Close erased the cause")
	}
}

func TestStdioFrameTooLarge(t *testing.T) {
	const limitErr = "inbound frame larger than the 1024-byte limit (MaxFrameSize)"
	t.Run("a response fails its call; the session goes on", func(t *testing.T) {
		c, rec, _ := connectFake(t, Options{MaxFrameSize: 1024})
		ctx := testContext(t)
		for _, method := range []string{"big", "bigtail"} {
			_, err := c.Call(ctx, method, nil)
			if err == nil || err.Error() != method+": "+limitErr {
				t.Fatalf("%s: err = %v", method, err)
			}
		}
		f := rec.waitFind(t, Inbound, KindParseError, `{"jsonrpc":"2.0","id":2,"result":{"x":"xxx`)
		if len(f.Body) != 1024 {
			t.Errorf("recorded %d bytes", len(f.Body))
		}
		if f := rec.waitFind(t, Inbound, KindParseError, `{"result":{"x":"xxx`); len(f.Body) != 1024 {
			t.Errorf("recorded %d bytes", len(f.Body))
		}
		if _, err := c.Call(ctx, "ping", nil); !errors.As(err, new(*RPCError)) {
			t.Errorf("call after the oversized frames: %v", err)
		}
	})
	t.Run("an oversized notification ends the connection", func(t *testing.T) {
		c, rec, _ := connectFake(t, Options{MaxFrameSize: 1024})
		_, err := c.Call(testContext(t), "bignote", nil)
		if err == nil || err.Error() != "bignote: "+limitErr {
			t.Fatalf("err = %v", err)
		}
		rec.waitFind(t, Inbound, KindParseError, `"method":"notifications/message"`)
		<-c.Done()
		if c.Err() == nil || c.Err().Error() != limitErr {
			t.Errorf("Err() = %v", c.Err())
		}
	})
}

func TestStdioClose(t *testing.T) {
	tests := []struct {
		name     string
		env      []string
		min, max time.Duration
	}{
		{"exits on stdin EOF", nil, 0, time.Second},
		{"needs SIGTERM", []string{"FAKE_IGNORE_EOF=1"}, stopGrace, stopGrace + time.Second},
		{"needs SIGKILL", []string{"FAKE_IGNORE_EOF=1", "FAKE_IGNORE_TERM=1"}, 2 * stopGrace, 2*stopGrace + time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, rec, _ := connectFake(t, Options{}, tt.env...)
			pending := make(chan error)
			go func() {
				_, err := c.Call(context.Background(), "hang", nil)
				pending <- err
			}()
			rec.waitFind(t, Outbound, KindMessage, `"hang"`)
			start := time.Now()
			var wg sync.WaitGroup
			for range 3 {
				wg.Go(func() {
					if err := c.Close(); err != nil {
						t.Errorf("Close: %v", err)
					}
				})
			}
			if err := <-pending; !errors.Is(err, ErrClosed) {
				t.Errorf("pending call err = %v, want ErrClosed", err)
			}
			wg.Wait()
			if d := time.Since(start); d < tt.min || d > tt.max {
				t.Errorf("Close took %v, want %v..%v", d, tt.min, tt.max)
			}
			select {
			case <-c.Done():
			default:
				t.Error("Done not closed after Close")
			}
			if c.Err() != nil {
				t.Errorf("Err() = %v after Close", c.Err())
			}
			if _, err := c.Call(context.Background(), "x", nil); !errors.Is(err, ErrClosed) {
				t.Errorf("call after Close: %v", err)
			}
			rec.waitFind(t, Inbound, KindTransport, "process exited")
		})
	}
}

func TestConnectContextDoesNotOwnTheProcess(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c, err := ConnectStdio(ctx, selfCommand("sdk"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cancel()
	time.Sleep(100 * time.Millisecond)
	if _, err := c.CallTool(testContext(t), "echo", json.RawMessage(`{"text":"still here"}`)); err != nil {
		t.Fatalf("call after cancelling the connect ctx: %v", err)
	}
}
