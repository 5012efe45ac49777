package doctor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/mcp-playground/playground/mcpclient"
)

// initializeBody is the legacy initialize request the probes send.
const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-playground-doctor","version":"1"}}}`

// prober sends the doctor's HTTP probes as the transports would send them:
// the target's TLS and proxy settings and headers, without Credentials.
type prober struct {
	client *http.Client
	header http.Header
}

// newProber returns the prober of cfg and the transport it uses.
func newProber(cfg mcpclient.HTTPConfig) (prober, *http.Transport, error) {
	if cfg.Client != nil {
		tr, ok := cfg.Client.Transport.(*http.Transport)
		if !ok {
			tr = http.DefaultTransport.(*http.Transport)
		}
		return prober{client: cfg.Client, header: cfg.Header}, tr, nil
	}
	tr, err := mcpclient.NewHTTPTransport(cfg)
	if err != nil {
		return prober{}, nil, err
	}
	return prober{client: &http.Client{Transport: tr, Timeout: stepTimeout}, header: cfg.Header}, tr, nil
}

// reply is what a probe got.
type reply struct {
	status string
	header http.Header
	body   []byte
	err    error
}

// text describes the reply for a finding.
func (r reply) text() string {
	if r.err != nil {
		return r.err.Error()
	}
	return statusText(r.status, r.header.Get("Content-Type"), r.body)
}

func (p prober) request(ctx context.Context, method, rawURL, body, accept string) (*http.Response, context.CancelFunc, error) {
	ctx, cancel := context.WithTimeout(ctx, stepTimeout)
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, rawURL, r)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	for k, v := range p.header {
		req.Header[k] = v
	}
	req.Header.Set("Accept", accept)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := p.client.Do(req)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	return resp, cancel, nil
}

// post sends body to rawURL and reads the start of the answer; a session
// the server opened for it is ended with DELETE.
func (p prober) post(ctx context.Context, rawURL, body string) reply {
	resp, cancel, err := p.request(ctx, http.MethodPost, rawURL, body, "application/json, text/event-stream")
	if err != nil {
		return reply{err: err}
	}
	defer cancel()
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, bodyLimit))
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		if dresp, dcancel, err := p.request(ctx, http.MethodDelete, rawURL, "", "*/*"); err == nil {
			dresp.Body.Close()
			dcancel()
		}
	}
	return reply{status: resp.Status, header: resp.Header, body: b}
}

// initializes probes rawURL with a legacy initialize POST, records what it
// got, and reports whether it answered with an initialize result.
func (p prober) initializes(ctx context.Context, d *Diagnosis, rawURL string) bool {
	r := p.post(ctx, rawURL, initializeBody)
	ok := r.err == nil && hasInitializeResult(r.body)
	what := r.text()
	if ok {
		what = r.status + ": an initialize result (a Streamable HTTP endpoint)"
	}
	d.find("POST initialize", rawText(rawURL)+" → "+what)
	return ok
}

// endpointEvent probes rawURL with GET Accept: text/event-stream, records
// what it got, and reports whether the stream began with an HTTP+SSE
// endpoint event.
func (p prober) endpointEvent(ctx context.Context, d *Diagnosis, rawURL string) bool {
	const check = "GET event stream"
	at := rawText(rawURL) + " → "
	resp, cancel, err := p.request(ctx, http.MethodGet, rawURL, "", "text/event-stream")
	if err != nil {
		d.find(check, at+err.Error())
		return false
	}
	defer cancel()
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, bodyLimit))
		d.find(check, at+statusText(resp.Status, resp.Header.Get("Content-Type"), b))
		return false
	}
	sc := bufio.NewScanner(io.LimitReader(resp.Body, bodyLimit))
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "event: endpoint" {
			d.find(check, at+resp.Status+": an endpoint event (an HTTP+SSE server)")
			return true
		}
	}
	d.find(check, at+resp.Status+" ("+resp.Header.Get("Content-Type")+"), no endpoint event")
	return false
}

// hasInitializeResult reports whether body, JSON or an event stream,
// holds a JSON-RPC result with a protocolVersion.
func hasInitializeResult(body []byte) bool {
	msgs := [][]byte{body}
	for _, line := range bytes.Split(body, []byte("\n")) {
		if data, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data:")); ok {
			msgs = append(msgs, data)
		}
	}
	for _, m := range msgs {
		var res struct {
			Result struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
		}
		if json.Unmarshal(m, &res) == nil && res.Result.ProtocolVersion != "" {
			return true
		}
	}
	return false
}

// excerpt is the start of b as one line of valid text.
func excerpt(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > excerptLen {
		s = s[:excerptLen]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	return s
}

// rawText is urlText of raw.
func rawText(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the URL"
	}
	return urlText(u)
}
