package backend_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/jsondiff"
)

// driftServer is an SDK server over Streamable HTTP whose tools a test
// changes between connects; failList makes its tools/list fail.
type driftServer struct {
	*mcp.Server
	URL      string
	failList atomic.Bool
}

func noTool(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{}, nil
}

// schema returns an object schema with the named string properties.
func schema(props ...string) map[string]any {
	p := map[string]any{}
	for _, name := range props {
		p[name] = map[string]any{"type": "string"}
	}
	return map[string]any{"type": "object", "properties": p}
}

// mustDriftServer serves tools echo, gone and stable, and one resource; it
// declares no prompts.
func mustDriftServer(tb testing.TB) *driftServer {
	tb.Helper()
	d := &driftServer{Server: mcp.NewServer(&mcp.Implementation{Name: "drift", Version: "1"}, nil)}
	d.AddTool(&mcp.Tool{Name: "echo", Description: "echoes", InputSchema: schema("text")}, noTool)
	d.AddTool(&mcp.Tool{Name: "gone", InputSchema: schema()}, noTool)
	d.AddTool(&mcp.Tool{Name: "stable", InputSchema: schema("x")}, noTool)
	d.AddResource(&mcp.Resource{URI: "file:///a.txt", Name: "a"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{}, nil
	})
	d.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" && d.failList.Load() {
				return nil, errors.New("listing is broken today")
			}
			return next(ctx, method, req)
		}
	})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return d.Server }, nil))
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	d.URL = ts.URL + "/mcp"
	return d
}

// connectForRevision connects, waits for the session's revision, and
// disconnects; it returns AwaitRevision's error.
func (e *env) connectForRevision(t *testing.T, serverID int64) (backend.Session, error) {
	t.Helper()
	ctx := backendtest.Context(t)
	sess := e.MustConnect(t, serverID)
	err := e.Pool.AwaitRevision(ctx, sess.ID)
	if err := e.Pool.Disconnect(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	return sess, err
}

func (e *env) mustRevisions(t *testing.T, serverID int64) []backend.Revision {
	t.Helper()
	revs, err := e.DB.Revisions(backendtest.Context(t), serverID, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	return revs
}

func TestInterfaceDrift(t *testing.T) {
	e := MustEnv(t)
	ctx := backendtest.Context(t)
	d := mustDriftServer(t)
	id := e.MustServer(t, httpServer("drift", d.URL))

	first, err := e.connectForRevision(t, id)
	if err != nil {
		t.Fatalf("first revision: %v", err)
	}
	revs := e.mustRevisions(t, id)
	if len(revs) != 1 || revs[0].Number != 1 || revs[0].SessionID != first.ID {
		t.Fatalf("revisions after the first connect = %+v", revs)
	}
	l := revs[0].Listing
	if len(l.Tools) != 3 || len(l.Resources) != 1 || len(l.ResourceTemplates) != 0 || len(l.Prompts) != 0 || l.Prompts == nil {
		t.Errorf("first listing = %d tools, %d resources, %d templates, prompts %v", len(l.Tools), len(l.Resources), len(l.ResourceTemplates), l.Prompts)
	}
	if err := e.Rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if n := countFrames(t, e, first.ID, "prompts/list", backend.RPCRequest); n != 0 {
		t.Errorf("%d prompts/list requests to a server without prompts", n)
	}
	if n := countFrames(t, e, first.ID, "tools/list", backend.RPCRequest); n != 1 {
		t.Errorf("%d tools/list requests, want 1", n)
	}

	t.Run("no new revision when nothing changed", func(t *testing.T) {
		if _, err := e.connectForRevision(t, id); err != nil {
			t.Fatal(err)
		}
		if revs := e.mustRevisions(t, id); len(revs) != 1 {
			t.Errorf("%d revisions, want still 1", len(revs))
		}
	})

	t.Run("a failed listing stores nothing", func(t *testing.T) {
		d.failList.Store(true)
		d.RemoveTools("stable")
		_, err := e.connectForRevision(t, id)
		d.failList.Store(false)
		d.AddTool(&mcp.Tool{Name: "stable", InputSchema: schema("x")}, noTool)
		if backend.ErrorCodeOf(err) != backend.EUnavailable {
			t.Errorf("AwaitRevision = %v, want the listing's EUnavailable error", err)
		}
		if revs := e.mustRevisions(t, id); len(revs) != 1 {
			t.Errorf("%d revisions after a failed listing, want 1", len(revs))
		}
	})

	t.Run("added, removed and changed tools", func(t *testing.T) {
		d.AddTool(&mcp.Tool{Name: "fresh", InputSchema: schema()}, noTool)
		d.RemoveTools("gone")
		d.AddTool(&mcp.Tool{Name: "echo", Description: "echoes", InputSchema: schema("text", "loud")}, noTool)
		if _, err := e.connectForRevision(t, id); err != nil {
			t.Fatal(err)
		}
		latest, ok, err := backend.LatestDrift(ctx, e.DB, id)
		if err != nil || !ok {
			t.Fatalf("LatestDrift = %v, %v", ok, err)
		}
		if latest.Revision.Number != 2 || latest.Previous == nil || latest.Previous.Number != 1 {
			t.Fatalf("latest = revision %d after %+v", latest.Revision.Number, latest.Previous)
		}
		want := []backend.KindDiff{{Kind: backend.KindTools, Added: []string{"fresh"}, Removed: []string{"gone"},
			Changed: []backend.ItemChange{{Name: "echo", Changes: []jsondiff.Change{
				{Path: "/inputSchema/properties/loud", Kind: jsondiff.Added, New: json.RawMessage(`{"type":"string"}`)},
			}}}}}
		if !reflect.DeepEqual(latest.Changes, want) {
			t.Errorf("changes = %+v\nwant      %+v", latest.Changes, want)
		}
		all, err := backend.ServerRevisions(ctx, e.DB, id)
		if err != nil || len(all) != 2 || all[1].Previous != nil || all[1].Revision.Number != 1 {
			t.Errorf("ServerRevisions = %+v, %v", all, err)
		}
	})
}

// TestInterfaceDriftOnListChanged takes a revision during a session when
// the server says its tool list changed.
func TestInterfaceDriftOnListChanged(t *testing.T) {
	e := MustEnv(t)
	ctx := backendtest.Context(t)
	d := mustDriftServer(t)
	id := e.MustServer(t, httpServer("drift", d.URL))
	sess := e.MustConnect(t, id)
	if err := e.Pool.AwaitRevision(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	d.AddTool(&mcp.Tool{Name: "late", InputSchema: schema()}, noTool)
	for {
		latest, ok, err := backend.LatestDrift(ctx, e.DB, id)
		if err != nil {
			t.Fatal(err)
		}
		if ok && latest.Revision.Number == 2 {
			want := []backend.KindDiff{{Kind: backend.KindTools, Added: []string{"late"}}}
			if !reflect.DeepEqual(latest.Changes, want) || latest.Revision.SessionID != sess.ID {
				t.Errorf("revision 2 = %+v of session %d", latest.Changes, latest.Revision.SessionID)
			}
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no revision after tools/list_changed (latest %d)", latest.Revision.Number)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func TestDiffListingsResourcesAndPrompts(t *testing.T) {
	old, err := backend.NewInterfaceListing(nil,
		[]backend.Resource{{URI: "file:///b", Name: "b"}, {URI: "file:///a", Name: "a"}},
		[]backend.ResourceTemplate{{URITemplate: "file:///{x}", Name: "x"}},
		[]backend.Prompt{{Name: "greet"}})
	if err != nil {
		t.Fatal(err)
	}
	new, err := backend.NewInterfaceListing(nil,
		[]backend.Resource{{URI: "file:///a", Name: "a", MimeType: "text/plain"}},
		nil,
		[]backend.Prompt{{Name: "greet"}, {Name: "bye"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []backend.KindDiff{
		{Kind: backend.KindResources, Removed: []string{"file:///b"}, Changed: []backend.ItemChange{{Name: "file:///a",
			Changes: []jsondiff.Change{{Path: "/mimeType", Kind: jsondiff.Added, New: json.RawMessage(`"text/plain"`)}}}}},
		{Kind: backend.KindResourceTemplates, Removed: []string{"file:///{x}"}},
		{Kind: backend.KindPrompts, Added: []string{"bye"}},
	}
	if got := backend.DiffListings(old, new); !reflect.DeepEqual(got, want) {
		t.Errorf("DiffListings = %+v\nwant %+v", got, want)
	}
	_, h1, _ := old.Encode()
	reordered, _ := backend.NewInterfaceListing(nil,
		[]backend.Resource{{URI: "file:///a", Name: "a"}, {URI: "file:///b", Name: "b"}},
		[]backend.ResourceTemplate{{URITemplate: "file:///{x}", Name: "x"}},
		[]backend.Prompt{{Name: "greet"}})
	if _, h2, _ := reordered.Encode(); h1 != h2 {
		t.Errorf("the same items in another order hash differently")
	}
}
