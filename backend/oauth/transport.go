package oauth

import (
	"net/http"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
)

// transportTo returns what sends the OAuth requests of srv (its challenge,
// metadata discovery, registration, token and refresh requests): the way
// srv's own traffic goes, through its proxy, trusting its CA certificates
// and skipping TLS verification when it does, so that the client secret,
// key and tokens travel only where a change of destination would have
// removed them from (destinationChange). A server reached directly uses
// o.base; for the others a transport is made that keeps no idle
// connection, being for one flow or connection. Settings it cannot use
// (they are checked at save) give a transport whose every request fails
// saying why.
func (o *Service) transportTo(srv backend.Server) http.RoundTripper {
	if srv.Proxy == "" && srv.CACertPEM == "" && !srv.InsecureSkipVerify {
		return o.base
	}
	t, err := mcpclient.NewHTTPTransport(srv.Target().HTTP)
	if err != nil {
		return failingTransport{err}
	}
	t.DisableKeepAlives = true
	return t
}

// failingTransport fails every request with err.
type failingTransport struct{ err error }

func (f failingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	return nil, f.err
}
