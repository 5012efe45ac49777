package backend

import (
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// This file is where the recorder decides what a frame is, once: its
// JSON-RPC shape, id and method, whether a result is a tool's failure,
// and which request a response answers. What it decides is stored with
// the frame; nothing reads the envelope again to decide it.
//
// Duplicate ids: a request sent while an earlier one of the same
// direction and session with the same id is unanswered is marked
// ClashDuplicate, and both stay pending. A response to such an id is
// paired with the oldest pending request (peers answer in order more
// often than not) and marked ClashAmbiguous, naming the newest request
// still pending; the next response pairs with the next oldest. A clash is
// never resolved silently.

type pendingKey struct {
	sessionID int64
	dir       mcpclient.Direction // direction of the request
	id        string
}

type pendingRequest struct {
	frameID int64
	time    time.Time
	method  string
	watch   *RequestWatch // nil unless someone waits for the request's frames
}

// pendingRequests are the unanswered requests, per key, oldest first. The
// oldest of a key sits in first and the others, of keys whose id was
// sent again while pending, in later: a request then costs no allocation.
type pendingRequests struct {
	first map[pendingKey]pendingRequest
	later map[pendingKey][]pendingRequest
	n     int
}

func newPendingRequests() pendingRequests {
	return pendingRequests{first: map[pendingKey]pendingRequest{}, later: map[pendingKey][]pendingRequest{}}
}

// add keeps req pending under key, and returns the oldest request already
// pending under it (ok false when there was none). Past maxPendingPerRun
// requests, req is not kept.
func (p *pendingRequests) add(key pendingKey, req pendingRequest) (oldest pendingRequest, ok, kept bool) {
	oldest, ok = p.first[key]
	if p.n >= maxPendingPerRun {
		return oldest, ok, false
	}
	p.n++
	if ok {
		p.later[key] = append(p.later[key], req)
	} else {
		p.first[key] = req
	}
	return oldest, ok, true
}

// take removes and returns the oldest request pending under key, and the
// ones that stay pending under it, oldest first.
func (p *pendingRequests) take(key pendingKey) (req pendingRequest, others []pendingRequest, ok bool) {
	req, ok = p.first[key]
	if !ok {
		return req, nil, false
	}
	p.n--
	others = p.later[key]
	switch len(others) {
	case 0:
		delete(p.first, key)
	case 1:
		p.first[key] = others[0]
		delete(p.later, key)
	default:
		p.first[key] = others[0]
		p.later[key] = others[1:]
	}
	return req, others, true
}

// forget drops the session's pending requests, telling their watchers
// that no response will be paired.
func (r *Recorder) forget(sessionID int64) {
	for k, req := range r.pending.first {
		if k.sessionID == sessionID {
			req.watch.answer(req.frameID, 0)
			delete(r.pending.first, k)
			r.pending.n--
		}
	}
	for k, reqs := range r.pending.later {
		if k.sessionID == sessionID {
			for _, req := range reqs {
				req.watch.answer(req.frameID, 0)
			}
			delete(r.pending.later, k)
			r.pending.n -= len(reqs)
		}
	}
}

// classify gives the frame its id, JSON-RPC shape and outcome, what
// people are shown of its HTTP exchange and, for a response, the exchange
// linking it to its request.
func (r *Recorder) classify(sessionID int64, in mcpclient.Frame) (Frame, *Exchange) {
	f := Frame{
		ID: r.nextID.Add(1) - 1, SessionID: sessionID, Time: in.Time, Direction: in.Direction,
		Kind: in.Kind, Body: in.Body, HTTP: in.HTTP, Shown: ShowHTTP(in.HTTP),
	}
	if in.Kind != mcpclient.KindMessage {
		return f, nil
	}
	env, err := mcpclient.DecodeEnvelope(in.Body)
	if err != nil {
		return f, nil
	}
	hasID := len(env.ID) > 0 && string(env.ID) != "null"
	if hasID && !isRPCID(env.ID) {
		return f, nil // an object or array id names no request: not a well-formed message
	}
	if hasID {
		f.RPCID = string(env.ID)
	}
	switch {
	case env.Method != nil && hasID:
		f.RPCType, f.Method = RPCRequest, *env.Method
		r.pend(&f)
	case env.Method != nil:
		f.RPCType, f.Method = RPCNotification, *env.Method
	case hasID && (env.Result != nil || env.Error != nil):
		f.RPCType = RPCResult
		if env.Error != nil {
			f.RPCType = RPCError
		} else {
			f.ToolError = mcpclient.IsToolError(env.Result)
		}
		return f, r.pair(&f)
	case env.Error != nil:
		f.RPCType = RPCError // an error without an id, e.g. a parse error reply
	}
	return f, nil
}

// pend keeps the request f pending, marking it when its id is taken.
func (r *Recorder) pend(f *Frame) {
	key := pendingKey{f.SessionID, f.Direction, f.RPCID}
	req := pendingRequest{frameID: f.ID, time: f.Time, method: f.Method, watch: r.takeWatch(key)}
	req.watch.sent(f.ID)
	oldest, taken, kept := r.pending.add(key, req)
	if taken {
		f.Clash, f.ClashFrameID = ClashDuplicate, oldest.frameID
	}
	if !kept {
		req.watch.answer(f.ID, 0) // it will not be paired
	}
}

// pair links the response f to the oldest request pending under its id,
// marking it when others stay pending, and returns their exchange; nil
// when no request is pending.
func (r *Recorder) pair(f *Frame) *Exchange {
	req, others, ok := r.pending.take(pendingKey{f.SessionID, opposite(f.Direction), f.RPCID})
	if !ok {
		return nil
	}
	f.Method, f.PairID, f.LatencyNS = req.method, req.frameID, f.Time.Sub(req.time).Nanoseconds()
	req.watch.answer(req.frameID, f.ID)
	if len(others) > 0 {
		f.Clash, f.ClashFrameID = ClashAmbiguous, others[len(others)-1].frameID
		// A client's call waiting on one of the others has been handed
		// this response by its client, which knows only the id.
		for _, o := range others {
			o.watch.answer(o.frameID, f.ID)
		}
	}
	return &Exchange{RequestFrameID: req.frameID, ResponseFrameID: f.ID, SessionID: f.SessionID, Method: req.method, LatencyNS: f.LatencyNS}
}

func opposite(d mcpclient.Direction) mcpclient.Direction {
	if d == mcpclient.Outbound {
		return mcpclient.Inbound
	}
	return mcpclient.Outbound
}
