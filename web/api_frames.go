package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// The API's recorded frames: /api/v1/sessions/:id/frames.

type apiFrame struct {
	ID        int64             `json:"id"`
	Time      time.Time         `json:"time"`
	Direction string            `json:"direction"`
	Kind      string            `json:"kind"`
	RPCType   string            `json:"rpcType,omitempty"`
	RPCID     json.RawMessage   `json:"rpcId,omitempty"`
	Method    string            `json:"method,omitempty"`
	Body      json.RawMessage   `json:"body,omitempty"`     // the body, when it is valid JSON
	BodyText  string            `json:"bodyText,omitempty"` // the body as text otherwise
	HTTP      *backend.HTTPInfo `json:"http,omitempty"`
	PairID    int64             `json:"pairId,omitempty"`
	LatencyMS float64           `json:"latencyMs,omitempty"`
	// IDClash is how the frame's JSON-RPC id clashed with a pending
	// request (backend.IDClash), IDClashFrame that request's frame.
	IDClash      string `json:"idClash,omitempty"`
	IDClashFrame int64  `json:"idClashFrame,omitempty"`
	// Findings are what the protocol linter found wrong with the frame.
	Findings []backend.LintFinding `json:"findings,omitempty"`
}

// apiFramePage is the most frames one answer lists; apiFrameBytes ends it
// sooner once the bodies add up to that many bytes (one frame is always
// listed). A client pages on with ?after= the last id it got until an
// answer is empty.
const (
	apiFramePage  = 1000
	apiFrameBytes = 8 << 20
)

// apiFrameOf is f as the API shows it; its HTTP info comes redacted from
// backend (backend.RedactHTTP).
func apiFrameOf(f backend.Frame) apiFrame {
	af := apiFrame{ID: f.ID, Time: f.Time, Direction: string(f.Direction), Kind: string(f.Kind), RPCType: string(f.RPCType),
		Method: f.Method, HTTP: f.HTTP, PairID: f.PairID, LatencyMS: float64(f.LatencyNS) / 1e6,
		IDClash: string(f.Clash), IDClashFrame: f.ClashFrameID, Findings: f.Findings}
	if f.RPCID != "" {
		af.RPCID = json.RawMessage(f.RPCID)
	}
	if json.Valid(f.Body) {
		af.Body = f.Body
	} else if utf8.Valid(f.Body) {
		af.BodyText = string(f.Body)
	} else {
		af.BodyText = strconv.Quote(string(f.Body))
	}
	return af
}

func (s *Server) apiListFrames(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	after, err := queryInt[int64](c, "after", 0)
	if err != nil {
		return err
	}
	limit, err := queryInt(c, "limit", apiFramePage)
	if err != nil {
		return err
	}
	if limit <= 0 || limit > apiFramePage {
		limit = apiFramePage
	}
	ctx := c.Request().Context()
	if _, err := s.deps.Sessions.GetSession(ctx, id); err != nil {
		return err
	}
	frames, err := s.deps.Frames.ListFrames(ctx, backend.FrameQuery{SessionID: id, AfterID: after, Limit: limit, MaxBodyBytes: apiFrameBytes})
	if err != nil {
		return err
	}
	out := make([]apiFrame, len(frames))
	for i, f := range frames {
		out[i] = apiFrameOf(f)
	}
	return c.JSON(http.StatusOK, out)
}
