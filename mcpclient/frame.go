package mcpclient

import (
	"net/http"
	"time"
)

// Direction says which way a frame travelled, seen from the client.
type Direction string

const (
	// Outbound frames were written by the client to the server.
	Outbound Direction = "out"
	// Inbound frames were read by the client from the server.
	Inbound Direction = "in"
	// Stderr frames are lines a stdio server wrote to its standard error.
	Stderr Direction = "stderr"
)

// FrameKind classifies the content of a frame.
type FrameKind string

const (
	// KindMessage is a JSON-RPC message (request, notification or response).
	KindMessage FrameKind = "message"
	// KindParseError is inbound data that could not be decoded as JSON-RPC.
	// Its Body holds the raw bytes exactly as received.
	KindParseError FrameKind = "parse-error"
	// KindLog is a line of server stderr.
	KindLog FrameKind = "log"
	// KindTransport is a transport-level event with no JSON-RPC body, such as
	// an HTTP error status or a process exit. Body holds a human-readable text.
	KindTransport FrameKind = "transport"
)

// HTTPInfo describes the HTTP exchange a frame travelled in. It is nil for
// stdio frames. Header holds the request headers on outbound frames and the
// response headers on inbound ones; Status is 0 on outbound frames and on
// notes about exchanges that got no response.
type HTTPInfo struct {
	Method  string      `json:"method,omitempty"`
	URL     string      `json:"url,omitempty"`
	Status  int         `json:"status,omitempty"`
	Header  http.Header `json:"header,omitempty"`
	EventID string      `json:"eventId,omitempty"` // SSE event id, when the frame came in an SSE event
	// EventType is the SSE event type ("message", "endpoint", ...) when the
	// frame came in an SSE event that named one.
	EventType string `json:"eventType,omitempty"`
	// Retry is the SSE retry field of the event, when it carried one.
	Retry time.Duration `json:"retry,omitempty"`
	// Elapsed is the time from sending the HTTP request to seeing this
	// frame (0 on outbound frames).
	Elapsed time.Duration `json:"elapsed,omitempty"`
}

// Frame is one unit of traffic seen by a Tap. Body is the exact bytes on the
// wire (without framing newlines or SSE field prefixes); a Tap must not
// modify it and may retain it.
type Frame struct {
	Time      time.Time
	Direction Direction
	Kind      FrameKind
	Body      []byte
	HTTP      *HTTPInfo
}

// Tap receives every frame of a connection, in both directions, in the order
// the client saw them. Tap is called synchronously from the client's I/O
// goroutines, so it must be fast and must not call back into the Client.
type Tap func(Frame)
