package mcpclient

import (
	"fmt"
	"net/http"
)

// maxRedirects is how many redirects a request follows, as net/http's
// default policy allows.
const maxRedirects = 10

// credentialHeaders are sent to the server's origin only, besides the
// configured headers.
var credentialHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", "Cookie2"}

// withRedirectPolicy returns a copy of client with a redirect policy that
// keeps credentials to the configured server's origin. Once a request is
// redirected to another origin (another scheme, host or port; see
// SameOrigin), it and its further redirects carry neither the configured
// headers nor Authorization, Proxy-Authorization or Cookie; net/http alone
// would send the configured headers anywhere, and Authorization to another
// port. dropped is called for each such redirect. client's own
// CheckRedirect still runs first.
func withRedirectPolicy(client *http.Client, configured http.Header, dropped func(req *http.Request)) *http.Client {
	copied := *client
	c := &copied
	next := c.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if next != nil {
			if err := next(req, via); err != nil {
				return err
			}
		} else if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		left := !SameOrigin(req.URL, via[0].URL)
		for _, r := range via[1:] {
			left = left || !SameOrigin(r.URL, via[0].URL)
		}
		if !left {
			return nil
		}
		for name := range configured {
			req.Header.Del(name)
		}
		for _, name := range credentialHeaders {
			req.Header.Del(name)
		}
		if dropped != nil {
			dropped(req)
		}
		return nil
	}
	return c
}

// noteDropped records that a redirect to another origin was followed
// without the credentials.
func (c *Client) noteDropped(req *http.Request) {
	c.note(&HTTPInfo{Method: req.Method, URL: req.URL.String()},
		"redirected to another origin, %s: the configured headers, Authorization and Cookie are not sent there", originOf(req.URL))
}
