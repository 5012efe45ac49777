package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The modern era's per-call path: each request carries the negotiated
// version and the client's capabilities in _meta, and an input_required
// result is answered and the request retried (era.go negotiates the era).

// modernRoundKey marks the context of one round of a modern Call, so that
// Call sends it as it is.
type modernRoundKey struct{}

// modernDispatch reports whether Call must hand the request to callModern:
// in the modern era, unless ctx is already one of its rounds.
func (c *Client) modernDispatch(ctx context.Context) bool {
	return ctx.Value(modernRoundKey{}) == nil && c.isModern()
}

// callModern makes a request in the modern era. Each round is a Call of
// its own (new id, own timeout) whose params carry the per-request _meta.
// An UnsupportedProtocolVersion error is retried with a version from its
// data.supported; a HeaderMismatch on tools/call over HTTP is retried once
// after refreshing tools/list; an input_required result has its
// inputRequests answered by Options.Handler and the request is retried with
// inputResponses and the echoed requestState, for up to 32 rounds. A result
// of resultType "task" is returned as it is for a request made WithTasks;
// any other resultType than complete (or none) is an error.
func (c *Client) callModern(ctx context.Context, method string, params any, opts ...CallOption) (json.RawMessage, error) {
	base, err := paramsJSON(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	base, err = checkObject(base)
	if err != nil {
		return nil, fmt.Errorf("%s: params: %w", method, err)
	}
	var (
		input          json.RawMessage // inputResponses for the next round
		state          *string         // requestState to echo
		retried        bool            // the round is a retry after input_required
		versionRetries int
		headerRetried  bool
	)
	var co callOptions
	for _, o := range opts {
		o(&co)
	}
	caps := c.caps
	if co.tasks {
		caps = tasksCapabilities(caps)
	}
	rctx := context.WithValue(ctx, modernRoundKey{}, true)
	for round := 0; ; {
		p, err := c.modernParams(base, c.ProtocolVersion(), caps, retried, input, state)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		raw, err := c.Call(rctx, method, p, opts...)
		var rpcErr *RPCError
		switch {
		case errors.As(err, &rpcErr) && rpcErr.Code == codeUnsupportedProtocolVersion && versionRetries < maxVersionRetries:
			var data struct {
				Supported []string `json:"supported"`
				Requested string   `json:"requested"`
			}
			_ = json.Unmarshal(rpcErr.Data, &data)
			v := pickVersion(data.Supported, modernVersions, c.opts.ProtocolVersion)
			if v == "" {
				return nil, err
			}
			versionRetries++
			c.note(nil, "%s: the server does not support protocol version %s (it supports %s); retrying with %s",
				method, c.ProtocolVersion(), strings.Join(data.Supported, ", "), v)
			c.mu.Lock()
			c.protocolVersion = v
			c.mu.Unlock()
			continue
		case errors.As(err, &rpcErr) && rpcErr.Code == codeHeaderMismatch && method == "tools/call" && !headerRetried && c.overHTTP():
			headerRetried = true
			c.note(nil, "tools/call: the server reports a header mismatch (%s); refreshing tools/list and retrying once", rpcErr.Message)
			if _, lerr := c.Call(ctx, "tools/list", nil); lerr != nil {
				return nil, err
			}
			continue
		case err != nil:
			return nil, err
		}
		var head struct {
			ResultType    string                     `json:"resultType"`
			InputRequests map[string]json.RawMessage `json:"inputRequests"`
			RequestState  *string                    `json:"requestState"`
		}
		_ = json.Unmarshal(raw, &head)
		switch head.ResultType {
		case "", "complete":
			if method == "tools/list" && c.overHTTP() {
				return c.screenTools(raw)
			}
			return raw, nil
		case "input_required":
		case "task":
			if co.tasks {
				return raw, nil
			}
			return raw, fmt.Errorf("%s: the result has resultType \"task\", but this request did not declare the tasks extension", method)
		default:
			return raw, fmt.Errorf("%s: the result has resultType %q, which this client does not support", method, head.ResultType)
		}
		round++
		if round > maxInputRounds {
			return nil, fmt.Errorf("%s: the server still asks for input after %d rounds", method, maxInputRounds)
		}
		input, err = c.answerInputRequests(ctx, method, head.InputRequests)
		if err != nil {
			return nil, err
		}
		state, retried = head.RequestState, true
		c.note(nil, "%s: input_required (round %d): answered %d input request(s); retrying", method, round, len(head.InputRequests))
	}
}

// answerInputRequests has Options.Handler answer each input request of an
// input_required result and returns the inputResponses object.
func (c *Client) answerInputRequests(ctx context.Context, method string, reqs map[string]json.RawMessage) (json.RawMessage, error) {
	if reqs == nil {
		return nil, nil
	}
	responses := make(map[string]json.RawMessage, len(reqs))
	for _, key := range slices.Sorted(maps.Keys(reqs)) {
		var ir struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(reqs[key], &ir); err != nil || ir.Method == "" {
			return nil, fmt.Errorf("%s: input request %q is malformed", method, key)
		}
		res, rpcErr := c.handleRequest(ctx, ir.Method, ir.Params)
		if rpcErr != nil {
			return nil, fmt.Errorf("%s: input request %q (%s) was not answered: %w", method, key, ir.Method, rpcErr)
		}
		responses[key] = res
	}
	return marshal(responses)
}

// modernParams returns the params of one round: base with _meta carrying
// the protocol version (always), client info and capabilities caps (unless
// already there), and, on a retry, inputResponses and requestState
// (replacing any in base; requestState removed when the server sent none).
func (c *Client) modernParams(base json.RawMessage, version string, caps json.RawMessage, retry bool, input json.RawMessage, state *string) (json.RawMessage, error) {
	meta, _, err := getMember(base, "_meta")
	if err != nil {
		return nil, err
	}
	if meta == nil {
		meta = json.RawMessage(`{}`)
	}
	v, _ := marshal(version)
	if meta, err = setMember(meta, metaProtocolVersion, v, true); err != nil {
		return nil, fmt.Errorf("params._meta: %w", err)
	}
	info, _ := marshal(c.opts.ClientInfo)
	if meta, err = setMember(meta, metaClientInfo, info, false); err != nil {
		return nil, err
	}
	if meta, err = setMember(meta, metaClientCapabilities, caps, false); err != nil {
		return nil, err
	}
	p, err := setMember(base, "_meta", meta, true)
	if err != nil {
		return nil, err
	}
	if !retry {
		return p, nil
	}
	if input != nil {
		if p, err = setMember(p, "inputResponses", input, true); err != nil {
			return nil, err
		}
	} else if p, err = deleteMember(p, "inputResponses"); err != nil {
		return nil, err
	}
	if state != nil {
		s, _ := marshal(*state)
		return setMember(p, "requestState", s, true)
	}
	return deleteMember(p, "requestState")
}
