package mcpclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Progress is one notifications/progress the server sent about a request.
type Progress struct {
	Token    json.RawMessage `json:"progressToken"`
	Progress float64         `json:"progress"`
	Total    float64         `json:"total,omitempty"` // 0 when the server sent none
	Message  string          `json:"message,omitempty"`
}

// CallOption changes how one request is made; see WithProgress.
type CallOption func(*callOptions)

type callOptions struct {
	progress func(Progress)
	tasks    bool // see WithTasks
	sentID   func(id int64)
}

// WithRequestID calls fn with the JSON-RPC id of each request the call
// sends, before it is sent. A modern-era call may send several (one per
// round); the last id fn saw is the one whose response Call returned.
func WithRequestID(fn func(id int64)) CallOption {
	return func(o *callOptions) { o.sentID = fn }
}

// WithProgress asks the server for progress reports on the request. The
// Client puts a progressToken (the request's id, unless params already
// hold params._meta.progressToken, which is then used as is) into
// params._meta, keeping the other members of params and of _meta as they
// are; params must therefore be absent or a JSON object. fn is called with
// each notifications/progress that carries the token, from the goroutine
// reading the connection, one call at a time, and never after Call has
// returned; it must be fast and must not call into the Client
// synchronously. The notifications also reach Options.OnNotification.
// Progress does not extend the request's timeout: a long operation needs a
// ctx with a long enough deadline.
func WithProgress(fn func(Progress)) CallOption {
	return func(o *callOptions) { o.progress = fn }
}

// watchProgress arranges for fn to get the progress notifications carrying
// token, and returns the function that stops it; after that returns, fn is
// not running and will not be called.
func (c *Client) watchProgress(token json.RawMessage, fn func(Progress)) (stop func()) {
	key := idKey(token)
	c.progressMu.Lock()
	if c.progress == nil {
		c.progress = make(map[string]func(Progress))
	}
	c.progress[key] = fn
	c.progressMu.Unlock()
	return func() {
		c.progressMu.Lock()
		delete(c.progress, key)
		c.progressMu.Unlock()
	}
}

// progressed hands a notifications/progress to the call that asked for it,
// if any is still waiting.
func (c *Client) progressed(params json.RawMessage) {
	var p Progress
	if json.Unmarshal(params, &p) != nil || len(p.Token) == 0 {
		return
	}
	c.progressMu.Lock()
	defer c.progressMu.Unlock()
	if fn := c.progress[idKey(p.Token)]; fn != nil {
		fn(p)
	}
}

// withProgressToken returns params as JSON with _meta.progressToken set to
// the request id, or to the token params already carry, and that token.
func withProgressToken(params any, id int64) (json.RawMessage, json.RawMessage, error) {
	token := json.RawMessage(strconv.FormatInt(id, 10))
	raw, err := paramsJSON(params)
	if err != nil {
		return nil, nil, err
	}
	if raw == nil {
		return json.RawMessage(`{"_meta":{"progressToken":` + string(token) + `}}`), token, nil
	}
	obj := bytes.TrimSpace(raw)
	if len(obj) == 0 || obj[0] != '{' {
		return nil, nil, errors.New("progress needs params to be a JSON object, to carry _meta")
	}
	start, end, found, err := memberSpan(obj, "_meta")
	if err != nil {
		return nil, nil, err
	}
	if !found {
		return appendMember(obj, "_meta", []byte(`{"progressToken":`+string(token)+`}`)), token, nil
	}
	meta := obj[start:end]
	if meta[0] != '{' {
		return nil, nil, errors.New("params._meta is not a JSON object")
	}
	ts, te, found, err := memberSpan(meta, "progressToken")
	if err != nil {
		return nil, nil, err
	}
	if found {
		return obj, json.RawMessage(meta[ts:te]), nil
	}
	out := make([]byte, 0, len(obj)+len(token)+20)
	out = append(out, obj[:start]...)
	out = append(out, appendMember(meta, "progressToken", token)...)
	out = append(out, obj[end:]...)
	return out, token, nil
}

// paramsJSON encodes params as Call sends them; nil means absent.
func paramsJSON(params any) (json.RawMessage, error) {
	switch p := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		if p == nil {
			return nil, nil
		}
		if !json.Valid(p) {
			return nil, errors.New("params are not valid JSON")
		}
		return p, nil
	}
	return marshal(params)
}

// memberSpan finds the member key of the JSON object obj (valid JSON, no
// surrounding space) and returns where its value starts and ends.
func memberSpan(obj []byte, key string) (start, end int, found bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // {
		return 0, 0, false, fmt.Errorf("params: %w", err)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return 0, 0, false, fmt.Errorf("params: %w", err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return 0, 0, false, fmt.Errorf("params: %w", err)
		}
		if k == key {
			end := int(dec.InputOffset())
			return end - len(v), end, true, nil
		}
	}
	return 0, 0, false, nil
}

// appendMember adds "key":value at the end of the JSON object obj (no
// surrounding space).
func appendMember(obj []byte, key string, value []byte) []byte {
	body := bytes.TrimRight(obj[:len(obj)-1], " \t\r\n")
	k, _ := json.Marshal(key)
	out := make([]byte, 0, len(obj)+len(k)+len(value)+2)
	out = append(out, body...)
	if body[len(body)-1] != '{' {
		out = append(out, ',')
	}
	out = append(out, k...)
	out = append(out, ':')
	out = append(out, value...)
	return append(out, '}')
}
