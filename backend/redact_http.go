package backend

import (
	"net/http"
	"slices"
)

// RedactHeader returns a copy of h fit to show anyone who may read the
// traffic, and the one rule for it: curl copies, frame pages, the API,
// exports, live events and the OAuth debugger all show headers this way.
// The value of each header whose name IsSecretName reads RedactedValue;
// the others keep theirs. h is not changed; nil stays nil.
func RedactHeader(h http.Header) http.Header {
	if h == nil {
		return nil
	}
	out := make(http.Header, len(h))
	for name, values := range h {
		if IsSecretName(name) {
			values = []string{RedactedValue}
		}
		out[name] = slices.Clone(values)
	}
	return out
}

// RedactHTTP returns a copy of info fit to show anyone who may read the
// traffic: its URL redacted (RedactURL) and its header (RedactHeader).
// info is not changed; nil stays nil.
func RedactHTTP(info *HTTPInfo) *HTTPInfo {
	if info == nil {
		return nil
	}
	out := *info
	out.URL = RedactURL(info.URL)
	out.Header = RedactHeader(info.Header)
	return &out
}
