package web_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// resultsServerReadme is the Markdown resource the results server offers.
const resultsServerReadme = "# Read me\n\nSome *words*."

// pixelPNG is a 1x1 PNG.
var pixelPNG, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")

// mustResultsServer serves, over Streamable HTTP on loopback, an SDK
// server whose tools return Markdown with a resource link (md), a text of
// the given KiB (big) and structured content (temp, with an
// outputSchema) or wait until cancelled (hang), and which offers the
// resources demo://readme (Markdown), demo://pixel.png and demo://data.bin.
func mustResultsServer(tb testing.TB) string {
	tb.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "results", Version: "1"}, nil)
	type mdIn struct {
		Title string `json:"title"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "md"}, func(_ context.Context, _ *mcp.CallToolRequest, in mdIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "# " + in.Title + "\n\n- **bold** item\n<script>alert(1)</script>"},
			&mcp.ResourceLink{URI: "demo://readme", Name: "readme", Description: "The read me.", MIMEType: "text/markdown"},
		}}, nil, nil
	})
	type bigIn struct {
		KiB int `json:"kib"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "big"}, func(_ context.Context, _ *mcp.CallToolRequest, in bigIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("z", in.KiB<<10)}}}, nil, nil
	})
	type tempOut struct {
		C float64 `json:"c"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "temp"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, tempOut, error) {
		return nil, tempOut{C: 21}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "hang"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		<-ctx.Done()
		return nil, nil, ctx.Err()
	})
	for uri, mime := range map[string]string{"demo://pixel.png": "image/png", "demo://data.bin": "application/octet-stream"} {
		s.AddResource(&mcp.Resource{URI: uri, Name: uri, MIMEType: mime},
			func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: mime, Blob: pixelPNG}}}, nil
			})
	}
	s.AddResource(&mcp.Resource{URI: "demo://readme", Name: "readme", MIMEType: "text/markdown"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown", Text: resultsServerReadme}}}, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}

// toolPage loads the Tools section of the server open at the named tool
// and returns the page from that tool's card to the traffic panel.
func toolPage(tb testing.TB, d *dashboard, serverID int64, tool string) string {
	tb.Helper()
	page := d.get(tb, fmt.Sprintf("/servers/%d/tools/%s", serverID, tool))
	if page.Status != http.StatusOK {
		tb.Fatalf("the page of tool %s: %d", tool, page.Status)
	}
	start := strings.Index(page.Body, `data-tool="`+tool+`"`)
	if start < 0 {
		tb.Fatalf("no card of %s on its page", tool)
	}
	card := page.Body[start:]
	if end := strings.Index(card, `data-live-panel`); end >= 0 {
		card = card[:end]
	}
	return card
}

// TestReloadShowsLastResult calls tools from the page, then loads the
// server page again: each tool's card shows its last outcome, from the
// stored response, with when and on which session it ran, and its
// arguments in the raw box; a second call replaces the first.
func TestReloadShowsLastResult(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "results", "transport": "http", "url": mustResultsServer(t)})
	sess := d.MustAPISession(t, srv.ID)
	call := func(tool string, values url.Values) string {
		values.Set("_tool", tool)
		r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/tools/call?card=0", sess.ID), token, values)
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="outcome"`) || strings.Contains(r.Body, "remember-error") {
			t.Fatalf("call %s: %d\n%s", tool, r.Status, r.Body)
		}
		return r.Body
	}
	call("md", url.Values{"arg.title": {"First"}})
	fresh := call("md", url.Values{"arg.title": {"Second"}})
	if !strings.Contains(fresh, "<h1>Second</h1>") || strings.Contains(fresh, "<script>alert") {
		t.Errorf("the fresh outcome does not show sanitised Markdown:\n%s", fresh)
	}
	call("temp", url.Values{})
	if r := call("hang", url.Values{"_timeout": {"1"}}); !strings.Contains(r, `data-outcome="failure"`) {
		t.Fatalf("hang with a 1 s timeout:\n%s", r)
	}

	md := toolPage(t, d, srv.ID, "md")
	for _, want := range []string{`data-testid="outcome-from"`, fmt.Sprintf(`href="/sessions/%d"`, sess.ID), "<h1>Second</h1>",
		`name="arg.title" value="Second"`, `data-testid="resource-link"`, "The read me."} {
		if !strings.Contains(md, want) {
			t.Errorf("after a reload the md card lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "First") {
		t.Error("the md card still shows the first call")
	}
	if temp := toolPage(t, d, srv.ID, "temp"); !strings.Contains(temp, `data-verdict="match"`) || !strings.Contains(temp, `&#34;c&#34;: 21`) {
		t.Errorf("after a reload the temp card lacks its verdict or structured content:\n%s", temp)
	}
	if hang := toolPage(t, d, srv.ID, "hang"); !strings.Contains(hang, `data-outcome="failure"`) || !strings.Contains(hang, "timed out") ||
		!strings.Contains(hang, `data-testid="outcome-from"`) {
		t.Errorf("after a reload the hang card lacks its failure:\n%s", hang)
	}
	if big := toolPage(t, d, srv.ID, "big"); strings.Contains(big, `data-testid="outcome"`) {
		t.Error("a tool never called shows an outcome")
	}
}

// TestBigResultIsCut calls a tool whose result is 5 MiB: the card stays
// small and links to the stored response, which holds it all.
func TestBigResultIsCut(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "results", "transport": "http", "url": mustResultsServer(t)})
	sess := d.MustAPISession(t, srv.ID)
	r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/tools/call?card=0", sess.ID), token, url.Values{"_tool": {"big"}, "arg.kib": {"5120"}})
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="outcome-cut"`) {
		t.Fatalf("big call: %d, %d bytes", r.Status, len(r.Body))
	}
	if len(r.Body) > 600<<10 {
		t.Errorf("the card of a 5 MiB result is %d bytes", len(r.Body))
	}
	m := regexp.MustCompile(`href="/frames/(\d+)/raw"`).FindStringSubmatch(r.Body)
	if m == nil {
		t.Fatal("no Download link")
	}
	raw := d.get(t, "/frames/"+m[1]+"/raw")
	if raw.Status != http.StatusOK || len(raw.Body) < 5<<20 || !strings.Contains(raw.Body, strings.Repeat("z", 1000)) {
		t.Errorf("Download: %d, %d bytes", raw.Status, len(raw.Body))
	}
	if big := toolPage(t, d, srv.ID, "big"); !strings.Contains(big, `data-testid="outcome-cut"`) || len(big) > 1<<20 {
		t.Errorf("after a reload: page of %d bytes, cut big card: %t", len(big), strings.Contains(big, "outcome-cut"))
	}
}

// TestReadResourceFragment reads a resource from a result's link: the
// fragment shows the contents (Markdown rendered) or why there are none,
// and the route wants the CSRF token.
func TestReadResourceFragment(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "results", "transport": "http", "url": mustResultsServer(t)})
	sess := d.MustAPISession(t, srv.ID)
	path := fmt.Sprintf("/sessions/%d/resources/read", sess.ID)

	r := d.htmxPost(t, path, token, url.Values{"uri": {"demo://readme"}})
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="resource-contents"`) || !strings.Contains(r.Body, "<h1>Read me</h1>") ||
		!strings.Contains(r.Body, "<em>words</em>") {
		t.Errorf("read demo://readme: %d\n%s", r.Status, r.Body)
	}
	r = d.htmxPost(t, path, token, url.Values{"uri": {"demo://pixel.png"}})
	if !strings.Contains(r.Body, `data-testid="resource-image"`) || !strings.Contains(r.Body, `src="data:image/png;base64,`) {
		t.Errorf("read an image: %d\n%s", r.Status, r.Body)
	}
	r = d.htmxPost(t, path, token, url.Values{"uri": {"demo://data.bin"}})
	if !strings.Contains(r.Body, `data-testid="resource-download"`) || !strings.Contains(r.Body, `download="data.bin"`) ||
		!strings.Contains(r.Body, `href="data:application/octet-stream;base64,`) {
		t.Errorf("read binary data: %d\n%s", r.Status, r.Body)
	}
	r = d.htmxPost(t, path, token, url.Values{"uri": {"demo://nothing"}})
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="resource-read-error"`) {
		t.Errorf("read an unknown resource: %d\n%s", r.Status, r.Body)
	}
	r = d.htmxPost(t, path, token, url.Values{"uri": {" "}})
	if !strings.Contains(r.Body, "Which resource?") {
		t.Errorf("read without a URI: %d\n%s", r.Status, r.Body)
	}
	if r := d.postForm(t, path, url.Values{"uri": {"demo://readme"}}); r.Status != http.StatusForbidden {
		t.Errorf("read without the CSRF token: %d, want 403", r.Status)
	}
}
