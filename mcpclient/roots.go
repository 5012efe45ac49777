package mcpclient

import "encoding/json"

// MethodRootsList is the server's request for the client's roots.
const MethodRootsList = "roots/list"

// Root is a directory a client offers a server: a file:// URI and an
// optional display name.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// ListRootsResult is the client's answer to roots/list.
type ListRootsResult struct {
	Roots []Root `json:"roots"`
}

// MarshalJSON writes no roots as an empty list, never null.
func (r ListRootsResult) MarshalJSON() ([]byte, error) {
	type plain ListRootsResult
	if r.Roots == nil {
		r.Roots = []Root{}
	}
	return json.Marshal(plain(r))
}
