package backend

import (
	"context"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// RPCType is the JSON-RPC shape of a message frame.
type RPCType string

const (
	RPCRequest      RPCType = "request"
	RPCNotification RPCType = "notification"
	RPCResult       RPCType = "result"
	RPCError        RPCType = "error"
)

// Frame is one recorded unit of traffic of a session.
type Frame struct {
	ID        int64
	SessionID int64
	Time      time.Time
	Direction mcpclient.Direction
	Kind      mcpclient.FrameKind
	RPCType   RPCType // empty for frames that are not well-formed JSON-RPC messages
	// RPCID is the JSON-RPC id as its JSON text (`1`, `"a"`), empty for notifications and non-messages.
	RPCID string
	// Method is the JSON-RPC method of requests and notifications; for
	// responses, the method of the request they answer when known.
	Method string
	Body   []byte
	HTTP   *mcpclient.HTTPInfo
	// PairID links a request to its response and a response to its request; 0 when unlinked.
	PairID int64
	// LatencyNS is response time minus request time on both frames of a linked pair.
	LatencyNS int64
}

// Exchange links a request frame to the response frame that answered it.
type Exchange struct {
	RequestFrameID  int64
	ResponseFrameID int64
	SessionID       int64
	Method          string
	LatencyNS       int64
}

// FrameStore persists frames. The recorder is the only writer of frames and
// assigns their ids itself.
type FrameStore interface {
	// MaxFrameID returns the largest stored frame id, 0 when there is none.
	MaxFrameID(ctx context.Context) (int64, error)
	// InsertFrames stores frames (with their ids set) and exchanges in one transaction.
	InsertFrames(ctx context.Context, frames []Frame, exchanges []Exchange) error
	// ListFrames returns a session's frames in id order, with pair links
	// filled, with id > afterID, at most limit (0 for no limit).
	ListFrames(ctx context.Context, sessionID, afterID int64, limit int) ([]Frame, error)
	// ListLastFrames returns a session's newest frames, at most limit, in
	// id order, with pair links filled.
	ListLastFrames(ctx context.Context, sessionID int64, limit int) ([]Frame, error)
}
