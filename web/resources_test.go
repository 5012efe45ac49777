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
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
)

// pngPixel is a 1x1 PNG.
var pngPixel, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")

// resourceServer is an SDK server with five resources in pages of two,
// a template and subscriptions, served over Streamable HTTP (stateless
// when modern, so that the modern era can reach it).
type resourceServer struct {
	server *mcp.Server
	url    string
}

func mustResourceServer(t *testing.T, modern bool) resourceServer {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "resources-test", Version: "1.0"}, &mcp.ServerOptions{
		PageSize:           2,
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	text := func(body string) mcp.ResourceHandler {
		return func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: body}}}, nil
		}
	}
	blob := func(mime string, data []byte) mcp.ResourceHandler {
		return func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: mime, Blob: data}}}, nil
		}
	}
	s.AddResource(&mcp.Resource{URI: "test://a-notes", Name: "notes", Title: "Team notes", MIMEType: "text/plain", Size: 11,
		Description: "<b>notes</b>"}, text("hello <world>"))
	s.AddResource(&mcp.Resource{URI: "test://b-pixel.png", Name: "pixel", MIMEType: "image/png"}, blob("image/png", pngPixel))
	s.AddResource(&mcp.Resource{URI: "test://c-data.bin", Name: "data", MIMEType: "application/octet-stream"}, blob("application/octet-stream", []byte{0, 1, 2, 3}))
	s.AddResource(&mcp.Resource{URI: "test://d-four", Name: "four"}, text("four"))
	s.AddResource(&mcp.Resource{URI: "test://e-five", Name: "five"}, text("five"))
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://items/{id}{?format}", Name: "item", Title: "An item"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "item at " + req.Params.URI}}}, nil
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: modern})
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return resourceServer{server: s, url: ts.URL + "/mcp"}
}

func TestResourcesSection(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	rs := mustResourceServer(t, false)
	srv := d.MustAPIServer(t, map[string]any{"name": "res", "transport": "http", "url": rs.url})
	sess := d.MustAPISession(t, srv.ID)
	base := fmt.Sprintf("/servers/%d/resources", srv.ID)

	mustGet := func(t *testing.T, path string) string {
		t.Helper()
		r := d.get(t, path)
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
		}
		return r.Body
	}
	contains := func(t *testing.T, body string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("the answer lacks %q:\n%s", w, body)
			}
		}
	}

	t.Run("first page with a More control", func(t *testing.T) {
		body := mustGet(t, base)
		contains(t, body, `data-testid="section-resources"`, `data-list-kind="resources"`, `data-item="test://a-notes"`, `data-item="test://b-pixel.png"`,
			"Team notes (notes)", "text/plain", "11 bytes", `data-testid="more-resources"`, `data-item="test://items/{id}{?format}"`,
			`data-testid="pick-item"`)
		if strings.Contains(body, `data-item="test://c-data.bin"`) {
			t.Error("the page lists the second page of resources before More was asked for")
		}
	})
	t.Run("More loads the next page", func(t *testing.T) {
		body := mustGet(t, base)
		m := regexpFind(body, `hx-get="(/servers/\d+/resources/more\?kind=resources&amp;cursor=[^"]+)"`)
		if m == "" {
			t.Fatal("no More control")
		}
		more := mustGet(t, strings.ReplaceAll(m, "&amp;", "&"))
		contains(t, more, `data-item="test://c-data.bin"`, `data-item="test://d-four"`, `data-testid="more-resources"`)
		if strings.Contains(more, `data-item="test://a-notes"`) || strings.Contains(more, "<html") {
			t.Errorf("More answered more than the next page's entries:\n%s", more)
		}
		if r := d.get(t, base+"/more?kind=resources"); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("More without a cursor: %d", r.Status)
		}
	})
	t.Run("q filters", func(t *testing.T) {
		body := mustGet(t, base+"?q=pixel")
		if !strings.Contains(body, `data-item="test://b-pixel.png"`) || strings.Contains(body, `data-item="test://a-notes"`) {
			t.Errorf("?q=pixel did not keep only the pixel")
		}
	})
	t.Run("uri opens a resource", func(t *testing.T) {
		body := mustGet(t, base+"?uri="+url.QueryEscape("test://a-notes"))
		contains(t, body, `data-testid="resource" data-resource="test://a-notes"`, `data-testid="resource-uri">test://a-notes<`,
			"&lt;b&gt;notes&lt;/b&gt;", `aria-current="true" data-testid="item-link" data-item="test://a-notes"`,
			fmt.Sprintf(`hx-post="/sessions/%d/resources/read"`, sess.ID), `data-testid="subscribe"`)
		if strings.Contains(body, "resource-unlisted") {
			t.Error("a listed resource is said to be unlisted")
		}
	})
	t.Run("uri on a later page", func(t *testing.T) {
		body := mustGet(t, base+"?uri="+url.QueryEscape("test://e-five"))
		contains(t, body, `data-testid="resource-uri">test://e-five<`, `<dt>Name</dt><dd class="mono">five</dd>`)
		if strings.Contains(body, "resource-unlisted") {
			t.Error("a resource of the third page is said to be unlisted")
		}
	})
	t.Run("unknown uri", func(t *testing.T) {
		body := mustGet(t, base+"?uri="+url.QueryEscape("test://nope"))
		contains(t, body, `data-testid="resource-unlisted"`, "names no resource test://nope")
		read := d.htmxPost(t, fmt.Sprintf("/sessions/%d/resources/read", sess.ID), token, url.Values{"uri": {"test://nope"}})
		contains(t, read.Body, `data-testid="resource-read-error"`, "JSON-RPC error")
	})
	t.Run("read text", func(t *testing.T) {
		r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/resources/read", sess.ID), token, url.Values{"uri": {"test://a-notes"}})
		contains(t, r.Body, `data-testid="resource-read-result"`, `hello &lt;world&gt;</pre>`)
		if strings.Contains(r.Body, "<html") {
			t.Error("the read answered a whole page, not a fragment")
		}
	})
	t.Run("read blobs", func(t *testing.T) {
		r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/resources/read", sess.ID), token, url.Values{"uri": {"test://b-pixel.png"}})
		contains(t, r.Body, `<img src="data:image/png;base64,`+base64.StdEncoding.EncodeToString(pngPixel)+`"`)
		r = d.htmxPost(t, fmt.Sprintf("/sessions/%d/resources/read", sess.ID), token, url.Values{"uri": {"test://c-data.bin"}})
		contains(t, r.Body, `href="data:application/octet-stream;base64,AAECAw=="`, `download="c-data.bin"`, "Download (4 bytes)")
	})
	t.Run("template form and read", func(t *testing.T) {
		body := mustGet(t, base+"?template="+url.QueryEscape("test://items/{id}{?format}"))
		contains(t, body, `data-testid="template-form"`, `name="var.id"`, `name="var.format"`,
			`data-complete-ref="resource" data-complete-name="test://items/{id}{?format}" data-complete-arg="id"`)
		r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/resources/template", sess.ID), token, url.Values{
			"_template": {"test://items/{id}{?format}"}, "var.id": {"a b"}, "var.format": {"json"}})
		contains(t, r.Body, `data-testid="expanded-uri">test://items/a%20b?format=json<`,
			"item at test://items/a%20b?format=json", `href="`+base+"?uri="+url.QueryEscape("test://items/a%20b?format=json")+`"`)
	})
	t.Run("unknown template", func(t *testing.T) {
		body := mustGet(t, base+"?template="+url.QueryEscape("test://none/{x}"))
		contains(t, body, `data-testid="template-error"`, "names no template test://none/{x}")
	})
	t.Run("every POST needs the CSRF token", func(t *testing.T) {
		for _, p := range []string{"contents", "template", "subscribe", "unsubscribe"} {
			if r := d.postForm(t, fmt.Sprintf("/sessions/%d/resources/%s", sess.ID, p), url.Values{"uri": {"test://a-notes"}}); r.Status != http.StatusForbidden {
				t.Errorf("POST %s without a token: %d, want 403", p, r.Status)
			}
		}
	})
}

func TestResourcesNotConnected(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "res", "transport": "http", "url": mustResourceServer(t, false).url})
	r := d.get(t, fmt.Sprintf("/servers/%d/resources", srv.ID))
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="not-connected"`) || !strings.Contains(r.Body, "see its resources") {
		t.Errorf("the section of a disconnected server: %d\n%s", r.Status, r.Body)
	}
}

// TestResourceSubscriptions subscribes in both eras and sees the server's
// update published to the session's viewers and shown on the resource.
func TestResourceSubscriptions(t *testing.T) {
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			d := MustDashboard(t)
			token := d.MustCSRF(t)
			rs := mustResourceServer(t, era == "modern")
			srv := d.MustAPIServer(t, map[string]any{"name": "res", "transport": "http", "url": rs.url, "era": era})
			sess := d.MustAPISession(t, srv.ID)
			sub := d.hub.Subscribe(sess.ID)
			defer sub.Close()
			conn, _, err := d.dialLive(t, sess.ID, 0, "")
			if err != nil {
				t.Fatal(err)
			}
			live := &liveReader{conn: conn, seen: map[int64]bool{}}

			r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/resources/subscribe", sess.ID), token, url.Values{"uri": {"test://a-notes"}})
			if !strings.Contains(r.Body, `data-testid="unsubscribe"`) || strings.Contains(r.Body, "subscription-error") {
				t.Fatalf("subscribe answered:\n%s", r.Body)
			}
			// The server says the resource changed until the viewer hears it.
			deadline := time.Now().Add(10 * time.Second)
			var got *backend.ResourceUpdate
			for got == nil && time.Now().Before(deadline) {
				_ = rs.server.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: "test://a-notes"})
				select {
				case ev := <-sub.C:
					got = ev.Resource
				case <-time.After(200 * time.Millisecond):
				}
			}
			if got == nil || got.URI != "test://a-notes" {
				t.Fatalf("no update published for the subscribed resource: %+v", got)
			}
			// The page's live stream tells the page's script.
			live.until(t, "the resource's update", func(msg string) bool {
				return strings.HasPrefix(msg, `{"resourceUpdated":{"uri":"test://a-notes","at":"`)
			})
			body := d.get(t, fmt.Sprintf("/servers/%d/resources?uri=%s", srv.ID, url.QueryEscape("test://a-notes"))).Body
			for _, w := range []string{`data-testid="updated-at"`, `data-testid="read-again"`, `data-testid="unsubscribe"`, `class="badge small updated"`} {
				if !strings.Contains(body, w) {
					t.Errorf("the resource's page lacks %q after an update", w)
				}
			}
			r = d.htmxPost(t, fmt.Sprintf("/sessions/%d/resources/unsubscribe", sess.ID), token, url.Values{"uri": {"test://a-notes"}})
			if !strings.Contains(r.Body, `data-testid="subscribe"`) || strings.Contains(r.Body, "subscription-error") {
				t.Errorf("unsubscribe answered:\n%s", r.Body)
			}
		})
	}
}

// regexpFind returns the first submatch of expr in s, "" when none.
func regexpFind(s, expr string) string {
	if m := regexp.MustCompile(expr).FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

func TestResourcesOfAServerWithoutThem(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "tools only", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	sess := d.MustAPISession(t, srv.ID)
	r := d.get(t, fmt.Sprintf("/servers/%d/resources", srv.ID))
	if !strings.Contains(r.Body, "This server offers no resources") {
		t.Errorf("the section of a server without resources:\n%s", r.Body)
	}
	r = d.htmxPost(t, fmt.Sprintf("/sessions/%d/resources/subscribe", sess.ID), token, url.Values{"uri": {"test://x"}})
	if !strings.Contains(r.Body, `data-testid="subscription-error">The server does not offer resource subscriptions`) {
		t.Errorf("subscribing where the server offers no subscriptions:\n%s", r.Body)
	}
}
