package backend

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// Sending on a live session: requests, raw frames and notifications.

// CallResult is the outcome of a request that got a response.
type CallResult struct {
	Result  json.RawMessage     // set on success
	Error   *mcpclient.RPCError // set when the server answered with a JSON-RPC error
	Latency time.Duration
	// RequestFrameID and ResponseFrameID are the stored request and
	// response frames when the call asked for them
	// (CallOptions.ResponseFrame) and they were recorded in time, else 0.
	RequestFrameID, ResponseFrameID int64
}

// Call sends a request on a live session. A JSON-RPC error response is a
// CallResult with Error set, not a Go error; Go errors mean no response came
// (timeout, connection lost) and are EUnavailable *Errors.
func (p *Pool) Call(ctx context.Context, sessionID int64, method string, params json.RawMessage) (CallResult, error) {
	ls, err := p.writable(sessionID)
	if err != nil {
		return CallResult{}, err
	}
	return p.call(ctx, ls, method, params)
}

func (p *Pool) call(ctx context.Context, ls *liveSession, method string, params json.RawMessage, opts ...mcpclient.CallOption) (CallResult, error) {
	params = ls.withLogLevel(params)
	var ps any
	if len(params) > 0 {
		ps = params
	}
	start := time.Now()
	res, err := ls.client.Call(ctx, method, ps, opts...)
	latency := time.Since(start)
	var rpcErr *mcpclient.RPCError
	if errors.As(err, &rpcErr) {
		return CallResult{Error: rpcErr, Latency: latency}, nil
	}
	if err != nil {
		return CallResult{Latency: latency}, ls.callError(method, err)
	}
	return CallResult{Result: res, Latency: latency}, nil
}

// writable returns a live session that may send: traffic that cannot be
// recorded is refused rather than sent unrecorded.
func (p *Pool) writable(sessionID int64) (*liveSession, error) {
	ls, err := p.get(sessionID)
	if err != nil {
		return nil, err
	}
	if failure := p.rec.Failure(); failure != nil {
		return nil, Errorf(EUnavailable, "Recording is failing, so nothing is sent: %v", failure)
	}
	return ls, nil
}

// SendRaw writes body to a live session as one frame, exactly as given:
// malformed JSON, a wrong jsonrpc value, a duplicate id. Whatever the server
// answers is recorded like all traffic.
func (p *Pool) SendRaw(ctx context.Context, sessionID int64, body []byte) error {
	ls, err := p.writable(sessionID)
	if err != nil {
		return err
	}
	if err := ls.client.SendRaw(ctx, body); err != nil {
		return Errorf(EUnavailable, "The raw frame could not be sent: %s", ls.redacted(err.Error()))
	}
	return nil
}

// Notify sends a notification of any method on a live session; params may
// be nil. Like SendRaw it goes out as the user wrote it.
func (p *Pool) Notify(ctx context.Context, sessionID int64, method string, params json.RawMessage) error {
	ls, err := p.writable(sessionID)
	if err != nil {
		return err
	}
	var body any
	if len(params) > 0 {
		body = params
	}
	if err := ls.client.Notify(ctx, method, body); err != nil {
		return Errorf(EUnavailable, "The notification could not be sent: %s", ls.redacted(err.Error()))
	}
	return nil
}

// callError describes the failure of a request on the session for the
// user, with the server's secrets redacted (an exit error quotes stderr).
func (ls *liveSession) callError(method string, err error) error {
	var rpcErr *mcpclient.RPCError
	if errors.As(err, &rpcErr) {
		return Errorf(EUnavailable, "%s failed: the server answered with JSON-RPC error %d: %s", method, rpcErr.Code, rpcErr.Message)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return Errorf(EUnavailable, "%s timed out: the server did not answer in time.", method)
	}
	return Errorf(EUnavailable, "%s failed: %s", method, ls.redacted(err.Error()))
}

// answer turns a client's answer into a CallResult, as Pool.call does, and
// a call CancelCall ended into ErrCallCancelled.
func (p *Pool) answer(ctx context.Context, ls *liveSession, o CallOptions, method string, raw json.RawMessage, err error, start time.Time) (CallResult, error) {
	res := CallResult{Result: raw, Latency: time.Since(start)}
	var rpcErr *mcpclient.RPCError
	switch {
	case err == nil:
		return res, nil
	case cancelled(ctx, o):
		return CallResult{Latency: res.Latency}, ErrCallCancelled
	case errors.As(err, &rpcErr):
		return CallResult{Error: rpcErr, Latency: res.Latency}, nil
	}
	return CallResult{Latency: res.Latency}, ls.callError(method, err)
}

// followTask polls t until it ends and returns the outcome of the request
