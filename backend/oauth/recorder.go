package oauth

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// stepBodyLimit bounds how much of an exchange's body a step keeps (and
// checks); what the client reads is not bounded by it.
const stepBodyLimit = 256 << 10

// stepRecorder is the http.RoundTripper of a flow's OAuth client: it sends
// each request through base and stores the exchange as a step of the flow,
// classified, checked and with its secrets redacted. Recording failures
// are logged; they never fail the exchange. A recorder of flow 0 checks
// but stores nothing. Exchanges of one flow happen
// one after another (the SDK's Authorize, a refresh, a re-run), which
// facts relies on.
type stepRecorder struct {
	base    http.RoundTripper
	store   Store
	log     *slog.Logger
	flowID  int64
	rerunOf int64 // set on the steps of a re-run
	facts   *flowFacts
	// issuerGuard, when set, is asked before a request that authenticates
	// the client with its secret or key (a code exchange, a client
	// credentials grant) whether it may go to the issuer the flow
	// discovered (issuerRefusal); a refusal is recorded and nothing sent.
	issuerGuard func(issuer string) error
}

func (r *stepRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	reqBody, err := requestBody(req)
	if err != nil {
		return nil, err
	}
	kind := r.classify(req, reqBody)
	start := time.Now()
	var resp *http.Response
	if r.issuerGuard != nil && (kind == StepToken || kind == StepClientCredentials) {
		err = r.issuerGuard(r.facts.issuer)
	}
	if err == nil {
		resp, err = r.base.RoundTrip(req)
	}
	step := Step{FlowID: r.flowID, Kind: kind, Method: req.Method, URL: redactParsedURL(req.URL),
		RequestHeader: redactHeader(req.Header), RequestBody: redactBody(req.Header.Get("Content-Type"), reqBody),
		Elapsed: time.Since(start), At: start, RerunOf: r.rerunOf}
	var respBody []byte
	if err != nil {
		step.Err = err.Error()
	} else {
		respBody, resp.Body = peekBody(resp.Body)
		step.Status, step.ResponseHeader = resp.StatusCode, redactHeader(resp.Header)
		step.ResponseBody = redactBody(resp.Header.Get("Content-Type"), respBody)
	}
	r.record(req.Context(), step, respBody)
	return resp, err
}

// record checks a step against what the flow learned, learns from it and
// stores it.
func (r *stepRecorder) record(ctx context.Context, step Step, respBody []byte) {
	step.Title = stepTitle(step.Kind)
	step.Checks = r.facts.checkStep(step, respBody)
	r.facts.learn(step, respBody)
	if r.flowID == 0 {
		return // nobody's connection: there is no flow to show it in
	}
	if _, err := r.store.AddOAuthStep(context.WithoutCancel(ctx), step); err != nil {
		r.log.Error("OAuth step not recorded", "flow", r.flowID, "err", err)
	}
}

// classify says what an exchange of an OAuth client is, from its URL and
// body: what the SDK's Authorize and oauth2's token calls send.
func (r *stepRecorder) classify(req *http.Request, body []byte) StepKind {
	path := req.URL.Path
	switch {
	case req.URL.String() == r.facts.serverURL:
		return StepChallenge
	case strings.HasPrefix(path, "/.well-known/oauth-protected-resource"):
		return StepResourceMetadata
	case strings.HasPrefix(path, "/.well-known/oauth-authorization-server"), strings.HasPrefix(path, "/.well-known/openid-configuration"):
		return StepServerMetadata
	case req.Method != http.MethodPost:
		return StepOther
	}
	if form, err := url.ParseQuery(string(body)); err == nil {
		switch form.Get("grant_type") {
		case "authorization_code":
			return StepToken
		case "refresh_token":
			return StepRefresh
		case "client_credentials":
			return StepClientCredentials
		}
	}
	if bytes.Contains(body, []byte(`"redirect_uris"`)) {
		return StepRegistration
	}
	return StepOther
}

// stepTitle names a step's kind in plain words.
func stepTitle(k StepKind) string {
	switch k {
	case StepChallenge:
		return "Request without credentials"
	case StepResourceMetadata:
		return "Protected resource metadata"
	case StepServerMetadata:
		return "Authorization server metadata"
	case StepRegistration:
		return "Client registration"
	case StepAuthorization:
		return "Authorization in the browser"
	case StepCallback:
		return "Redirect back to the playground"
	case StepToken:
		return "Authorization code exchange"
	case StepRefresh:
		return "Token refresh"
	case StepClientCredentials:
		return "Client credentials grant"
	}
	return "Other request"
}

// requestBody returns the body req will send, leaving req able to send it.
func requestBody(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	if req.GetBody != nil {
		b, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		defer b.Close()
		return io.ReadAll(io.LimitReader(b, stepBodyLimit))
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	req.Body = io.NopCloser(bytes.NewReader(body))
	return body[:min(len(body), stepBodyLimit)], err
}

// peekBody returns the start of body and a reader that still yields all of it.
func peekBody(body io.ReadCloser) ([]byte, io.ReadCloser) {
	head, err := io.ReadAll(io.LimitReader(body, stepBodyLimit))
	rest := io.MultiReader(bytes.NewReader(head), body)
	if err != nil {
		rest = io.MultiReader(bytes.NewReader(head), errReader{err})
	}
	return head, struct {
		io.Reader
		io.Closer
	}{rest, body}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
