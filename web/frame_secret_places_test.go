package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
)

// cookieSecret is what the server of mustCookieSDKServer sets as a cookie:
// a secret behind markup that must stay text.
const cookieSecret = `sid=<script>alert("cookie")</script>cookie-s3cret`

// mustCookieSDKServer serves newSDKServer over Streamable HTTP on loopback,
// answering every request with the cookie cookieSecret, and returns its
// MCP URL with credentials user:password in it.
func mustCookieSDKServer(t *testing.T, user, password string) string {
	t.Helper()
	server := newSDKServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Set-Cookie", cookieSecret)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	u, err := url.Parse(ts.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	if user != "" {
		u.User = url.UserPassword(user, password)
	}
	return u.String()
}

// echoFrames calls echo on a new session of a server registered with the
// given URL and configured headers, and returns the ids of the recorded
// tools/call request and of its response.
func (d *dashboard) echoFrames(t *testing.T, serverURL string, headers map[string]string) (request, response int64) {
	t.Helper()
	srv := d.MustAPIServer(t, map[string]any{"name": "remote", "transport": "http", "url": serverURL, "headers": headers})
	sess := d.MustAPISession(t, srv.ID)
	d.mustEcho(t, sess.ID, "hello")
	if err := d.rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, f := range d.allFrames(t, sess.ID) {
		if f.Method == "tools/call" && f.RPCType == backend.RPCRequest {
			request, response = f.ID, f.PairID
		}
	}
	if request == 0 || response == 0 {
		t.Fatalf("session %d recorded no tools/call exchange", sess.ID)
	}
	return request, response
}

var (
	redactionHintRE = regexp.MustCompile(`data-testid="redaction-hint">([^<]*)<`)
	secretRowRE     = regexp.MustCompile(`<tr data-testid="(secret-place|revealed-secret)"><td>([^<]*)</td><td class="mono">([^<]*)</td><td[^>]*>([^<]*)</td></tr>`)
)

// secretRows returns the rows of the secrets tables in body as
// "where name: value or note", unescaped.
func secretRows(body string) []string {
	var rows []string
	for _, m := range secretRowRE.FindAllStringSubmatch(body, -1) {
		rows = append(rows, unescapeHTML(m[2]+" "+m[3]+": "+m[4]))
	}
	return rows
}

func unescapeHTML(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&amp;", "&").Replace(s)
}

const notRecordedNote = "not recorded — the server's configured secret is replaced before recording"

// TestFrameRevealTellsNeverRecordedFromSealed: of a request sent with the
// headers configured on its server, whose values the Redactor replaces
// before recording, and with credentials in its URL, an admin's frame
// page names the URL as sealed and each configured header as not
// recorded, and the reveal shows the URL as recorded and says again that
// the headers were not recorded, rather than that the exchange holds no
// secret; of the response, the cookie the server set is sealed and
// revealed as text. Only what was revealed is audited.
func TestFrameRevealTellsNeverRecordedFromSealed(t *testing.T) {
	d := MustDashboard(t)
	secrets := []string{"conf-s3cret-token", "conf-s3cret-team", "url-s3cret-pw", "cookie-s3cret"}
	holdsSecret := func(body string) bool {
		for _, s := range secrets {
			if strings.Contains(body, s) {
				return true
			}
		}
		return false
	}
	request, response := d.echoFrames(t, mustCookieSDKServer(t, "ann", "url-s3cret-pw"),
		map[string]string{"Authorization": "Bearer conf-s3cret-token", "X-Team": "conf-s3cret-team"})

	page := d.get(t, fmt.Sprintf("/frames/%d/body", request))
	wantRows := []string{"URL url: sealed — shown as REDACTED", "header Authorization: " + notRecordedNote, "header X-Team: " + notRecordedNote}
	if page.Status != http.StatusOK || holdsSecret(page.Body) || fmt.Sprint(secretRows(page.Body)) != fmt.Sprint(wantRows) {
		t.Errorf("the request's page: %d, rows %q, want %q", page.Status, secretRows(page.Body), wantRows)
	}
	if !strings.Contains(page.Body, `data-testid="reveal-frame-http"`) {
		t.Error("the request's page offers no reveal of its sealed URL")
	}

	r := d.htmxPost(t, fmt.Sprintf("/frames/%d/reveal", request), d.MustCSRF(t), url.Values{})
	wantRows = []string{"URL url: " + mustURLWithUser(t, r.Body, "ann:url-s3cret-pw"), "header Authorization: " + notRecordedNote, "header X-Team: " + notRecordedNote}
	if r.Status != http.StatusOK || fmt.Sprint(secretRows(r.Body)) != fmt.Sprint(wantRows) || strings.Contains(r.Body, "holds no secret value") ||
		strings.Contains(r.Body, "conf-s3cret") {
		t.Errorf("reveal of the request: %d, rows %q, want %q\n%s", r.Status, secretRows(r.Body), wantRows, r.Body)
	}
	if e := d.mustOneAuditEvent(t, "secret.reveal"); string(e.Details) != `{"revealed":["URL url"]}` {
		t.Errorf("the reveal was audited with %s, want the URL alone", e.Details)
	}

	page = d.get(t, fmt.Sprintf("/frames/%d/body", response))
	if rows := secretRows(page.Body); !strings.Contains(fmt.Sprint(rows), "header Set-Cookie: sealed — shown as [redacted]") || holdsSecret(page.Body) {
		t.Errorf("the response's page: rows %q, want its cookie sealed", rows)
	}
	r = d.htmxPost(t, fmt.Sprintf("/frames/%d/reveal", response), d.MustCSRF(t), url.Values{})
	if !strings.Contains(r.Body, `sid=&lt;script&gt;alert(&#34;cookie&#34;)&lt;/script&gt;cookie-s3cret`) || strings.Contains(r.Body, "<script>") {
		t.Errorf("reveal of the response: want the cookie as escaped text\n%s", r.Body)
	}
}

// mustURLWithUser returns the URL with userinfo user in body, failing when
// there is none.
func mustURLWithUser(t *testing.T, body, user string) string {
	t.Helper()
	m := regexp.MustCompile(`http://` + regexp.QuoteMeta(user) + `@[^<"\s]+`).FindString(body)
	if m == "" {
		t.Errorf("no URL with %s in\n%s", user, body)
	}
	return m
}

// TestFrameRevealOffersOnlyWhatIsSealed: a frame whose only secret is a
// configured header, never recorded, offers no reveal and says there is
// nothing sealed, naming the header; a frame without any secret says so;
// neither has the reveal button, whose posts a click sends once at a time
// (the button is disabled while its request runs, and a second click is
// dropped) and which an admin can hide again.
func TestFrameRevealOffersOnlyWhatIsSealed(t *testing.T) {
	d := MustDashboard(t)
	request, response := d.echoFrames(t, MustSDKHTTPServer(t, nil), map[string]string{"Authorization": "Bearer conf-s3cret-token"})

	page := d.get(t, fmt.Sprintf("/frames/%d/body", request))
	if strings.Contains(page.Body, `data-testid="reveal-frame-http"`) || !strings.Contains(page.Body, "Nothing in this exchange is sealed, so there is nothing to reveal.") ||
		fmt.Sprint(secretRows(page.Body)) != fmt.Sprint([]string{"header Authorization: " + notRecordedNote}) {
		t.Errorf("the page of a request with a configured header alone: rows %q\n%s", secretRows(page.Body), page.Body)
	}
	page = d.get(t, fmt.Sprintf("/frames/%d/body", response))
	if strings.Contains(page.Body, `data-testid="reveal-frame-http"`) || !strings.Contains(page.Body, "This exchange holds no secret value.") || len(secretRows(page.Body)) != 0 {
		t.Errorf("the page of a response without secrets: rows %q\n%s", secretRows(page.Body), page.Body)
	}

	sealed := d.get(t, fmt.Sprintf("/frames/%d/body", d.recordHTTPFrame(t)))
	button := regexp.MustCompile(`<button[^>]*data-testid="reveal-frame-http"[^>]*>`).FindString(sealed.Body)
	if !strings.Contains(button, `hx-disabled-elt="this"`) || !strings.Contains(button, `hx-sync="this:drop"`) {
		t.Errorf("the reveal button %q is not disabled while it asks, nor drops a second click", button)
	}
	if !regexp.MustCompile(`<button[^>]*data-reveal-hide[^>]*hidden`).MatchString(sealed.Body) {
		t.Error("the frame's page has no Hide values control waiting for a reveal")
	}
}

// TestRedactionHintsNameTheMarkersShown: where a page says how secrets
// read, it names the markers that occur there: a frame with URL
// credentials and secret headers names both [redacted] and REDACTED, to
// viewers too; a frame with secret headers alone names [redacted] alone;
// so do a server's reveal card, an exchange's copies and the audit page.
func TestRedactionHintsNameTheMarkersShown(t *testing.T) {
	d := MustDashboard(t)
	both := "In this exchange, secret header values show as [redacted], and secret parts of the URL as REDACTED, to everyone."
	headers := "In this exchange, secret header values show as [redacted] to everyone."
	hintOf := func(body string) string {
		m := redactionHintRE.FindStringSubmatch(body)
		if m == nil {
			return ""
		}
		return unescapeHTML(m[1])
	}

	withURL := d.recordHTTPFrame(t)
	if got := hintOf(d.get(t, fmt.Sprintf("/frames/%d/body", withURL)).Body); got != both {
		t.Errorf("the hint of a frame with URL credentials and a secret header reads %q, want %q", got, both)
	}
	request, _ := d.echoFrames(t, MustSDKHTTPServer(t, nil), map[string]string{"Authorization": "Bearer conf-s3cret-token"})
	if got := hintOf(d.get(t, fmt.Sprintf("/frames/%d/body", request)).Body); got != headers {
		t.Errorf("the hint of a frame with a secret header alone reads %q, want %q", got, headers)
	}
	d.mustAccount(t, "vera", backend.RoleViewer)
	viewer := newClient()
	d.mustSignIn(t, viewer, "vera")
	if got := hintOf(d.doWith(t, viewer, d.newRequest(t, http.MethodGet, fmt.Sprintf("/frames/%d/body", withURL), nil)).Body); got != both {
		t.Errorf("the viewer's hint reads %q, want %q", got, both)
	}

	srv := d.MustAPIServer(t, map[string]any{"name": "creds", "transport": "http", "url": "http://ann:url-s3cret@127.0.0.1:9/mcp",
		"headers": map[string]string{"Authorization": "Bearer s3cret-token"}})
	wantServer := "On the form, secret header values show as [redacted], and secret parts of the URL as REDACTED, to everyone. As an admin you can see them."
	if got := hintOf(d.get(t, fmt.Sprintf("/servers/%d/edit", srv.ID)).Body); got != wantServer {
		t.Errorf("the server's reveal card reads %q, want %q", got, wantServer)
	}

	sess := d.MustAPISession(t, d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": mustCookieSDKServer(t, "ann", "url-s3cret-pw"),
		"headers": map[string]string{"Authorization": "Bearer conf-s3cret-token"}}).ID)
	d.mustEcho(t, sess.ID, "hello")
	if err := d.rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	var exchange int64
	for _, f := range d.allFrames(t, sess.ID) {
		if f.Method == "tools/call" && f.RPCType == backend.RPCRequest {
			exchange = f.ID
		}
	}
	copies := d.get(t, fmt.Sprintf("/sessions/%d/exchanges/%d", sess.ID, exchange)).Body
	if m := regexp.MustCompile(`data-testid="copies-redaction-hint">([^<]*)<`).FindStringSubmatch(copies); m == nil ||
		m[1] != "Secret values read [redacted] and secret URL parts REDACTED: put your own in." {
		t.Errorf("the exchange's copies hint: %q", m)
	}
	audit := d.get(t, "/audit").Body
	if !strings.Contains(audit, "Secret values in the details show as [redacted] and the secret parts of full URLs (credentials, secret parameters) as REDACTED") {
		t.Errorf("the audit page does not name both markers:\n%s", audit)
	}
}
