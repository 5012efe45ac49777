package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// The JSON API under /api/v1, for scripts and benchmarks. Errors are
// {"error": "...", "fields": {...}} with a matching status.

type apiError struct {
	Error   string            `json:"error"`
	Fields  map[string]string `json:"fields,omitempty"`
	Session *apiSession       `json:"session,omitempty"`
	// Diagnosis explains a failed connect (the connection doctor's).
	Diagnosis *backend.Diagnosis `json:"diagnosis,omitempty"`
	// SignInURL, when the server needs an OAuth sign-in, is the page of
	// the dashboard where a person signs in.
	SignInURL string `json:"signInUrl,omitempty"`
}

func isAPIPath(c echo.Context) bool { return strings.HasPrefix(c.Request().URL.Path, "/api/") }

// apiServer is a server as the API shows it. Env and header values may be
// secrets, so only their names are listed; the URL and the proxy are
// redacted.
type apiServer struct {
	ID         int64          `json:"id"`
	Name       string         `json:"name"`
	Transport  string         `json:"transport"`
	Era        string         `json:"era"`
	Command    string         `json:"command,omitempty"`
	Args       []string       `json:"args,omitempty"`
	EnvNames   []string       `json:"envNames,omitempty"`
	Dir        string         `json:"dir,omitempty"`
	URL        string         `json:"url,omitempty"`
	HeaderKeys []string       `json:"headerNames,omitempty"`
	CACert     string         `json:"caCert,omitempty"`
	Insecure   bool           `json:"insecureSkipVerify,omitempty"`
	Proxy      string         `json:"proxy,omitempty"`
	Roots      []backend.Root `json:"roots,omitempty"`
	CreatedAt  time.Time      `json:"createdAt"`
}

func apiServerOf(s backend.Server) apiServer {
	out := apiServer{ID: s.ID, Name: s.Name, Transport: string(s.Transport), Era: string(s.Era), Command: s.Command, Args: s.Args,
		Dir: s.Dir, URL: backend.RedactURL(s.URL), CACert: s.CACertPEM, Insecure: s.InsecureSkipVerify, Proxy: backend.RedactURL(s.Proxy),
		Roots: s.Roots, CreatedAt: s.CreatedAt}
	for k := range s.Env {
		out.EnvNames = append(out.EnvNames, k)
	}
	for k := range s.Headers {
		out.HeaderKeys = append(out.HeaderKeys, k)
	}
	return out
}

type apiSession struct {
	ID              int64      `json:"id"`
	ServerID        int64      `json:"serverId,omitempty"`
	ServerName      string     `json:"serverName"`
	Status          string     `json:"status"`
	CloseReason     string     `json:"closeReason,omitempty"`
	Era             string     `json:"era,omitempty"`
	ProtocolVersion string     `json:"protocolVersion,omitempty"`
	PeerName        string     `json:"peerName,omitempty"`
	PeerVersion     string     `json:"peerVersion,omitempty"`
	StartedAt       time.Time  `json:"startedAt"`
	EndedAt         *time.Time `json:"endedAt,omitempty"`
	// ImportedFrom is the file an imported, read-only session came from.
	ImportedFrom string `json:"importedFrom,omitempty"`
}

func apiSessionOf(s backend.Session) *apiSession {
	out := &apiSession{ID: s.ID, ServerID: s.ServerID, ServerName: s.ServerName, Status: string(s.Status), CloseReason: s.CloseReason,
		Era: string(s.Era), ProtocolVersion: s.ProtocolVersion, PeerName: s.PeerName, PeerVersion: s.PeerVersion, StartedAt: s.StartedAt,
		ImportedFrom: s.ImportedFrom}
	if !s.EndedAt.IsZero() {
		out.EndedAt = &s.EndedAt
	}
	return out
}

func (s *Server) apiListServers(c echo.Context) error {
	servers, err := s.deps.Registry.List(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]apiServer, len(servers))
	for i, srv := range servers {
		out[i] = apiServerOf(srv)
	}
	return c.JSON(http.StatusOK, out)
}

type apiServerInput struct {
	Name      string            `json:"name"`
	Transport string            `json:"transport"`
	Era       string            `json:"era"`
	Command   string            `json:"command"`
	Args      []string          `json:"args"`
	Env       map[string]string `json:"env"`
	Dir       string            `json:"dir"`
	URL       string            `json:"url"`
	Headers   map[string]string `json:"headers"`
	CACert    string            `json:"caCert"`
	Insecure  bool              `json:"insecureSkipVerify"`
	Proxy     string            `json:"proxy"`
	Roots     []backend.Root    `json:"roots"`
}

func (s *Server) apiCreateServer(c echo.Context) error {
	var in apiServerInput
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	srv := backend.Server{Name: in.Name, Transport: backend.Transport(in.Transport), Era: backend.Era(in.Era), Command: in.Command, Args: in.Args,
		Env: in.Env, Dir: in.Dir, URL: in.URL, Headers: in.Headers, CACertPEM: in.CACert, InsecureSkipVerify: in.Insecure, Proxy: in.Proxy,
		Roots: in.Roots}
	if err := mayManageServer(c, srv.Transport); err != nil {
		return err
	}
	ctx := c.Request().Context()
	id, err := s.deps.Registry.Create(ctx, srv)
	if err != nil {
		return err
	}
	if srv, err = s.deps.Registry.Get(ctx, id); err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, apiServerOf(srv))
}

func (s *Server) apiOpenSession(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), connectTimeout)
	defer cancel()
	sess, err := s.deps.Pool.Connect(connectingAs(ctx, c), id)
	if err != nil {
		if sess.ID == 0 {
			return err
		}
		out := apiError{Error: backend.ErrorMessageOf(err), Session: apiSessionOf(sess)}
		if d, ok := backend.DiagnosisOf(err); ok {
			out.Diagnosis = &d
		}
		var signIn *backend.OAuthSignInNeededError
		if errors.As(err, &signIn) {
			out.SignInURL = s.PublicURL("/servers/" + itoa(id) + "#authorization")
		}
		return c.JSON(statusOf(err), out)
	}
	return c.JSON(http.StatusCreated, apiSessionOf(sess))
}

func (s *Server) apiGetSession(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	sess, err := s.deps.Sessions.GetSession(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, apiSessionOf(sess))
}

func (s *Server) apiCloseSession(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	if err := s.deps.Pool.Disconnect(c.Request().Context(), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

type apiRequestInput struct {
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	TimeoutMS int64           `json:"timeoutMs"`
}

type apiRPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

type apiResponse struct {
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *apiRPCError    `json:"error,omitempty"`
	LatencyMS float64         `json:"latencyMs"`
}

const maxAPITimeout = 10 * time.Minute

// apiSendRequest sends {method, params} on a live session and answers with
// the result or the JSON-RPC error, and the latency. A request that gets no
// response (timeout, lost connection) is a 502/504 error.
func (s *Server) apiSendRequest(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	var in apiRequestInput
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	if strings.TrimSpace(in.Method) == "" {
		return &backend.Error{Code: backend.EInvalid, Message: "method is required.", Fields: map[string]string{"method": "required"}}
	}
	if in.TimeoutMS < 0 {
		return &backend.Error{Code: backend.EInvalid, Message: "timeoutMs must not be negative.",
			Fields: map[string]string{"timeoutMs": "must not be negative"}}
	}
	timeout := toolCallTimeout
	if in.TimeoutMS > 0 {
		// Clamped before it is multiplied: a Duration overflows past 292 years.
		timeout = time.Duration(min(in.TimeoutMS, maxAPITimeout.Milliseconds())) * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), timeout)
	defer cancel()
	res, err := s.deps.Pool.Call(ctx, id, in.Method, in.Params)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return c.JSON(http.StatusGatewayTimeout, apiError{Error: backend.ErrorMessageOf(err)})
		}
		return err
	}
	out := apiResponse{Result: res.Result, LatencyMS: float64(res.Latency.Microseconds()) / 1000}
	if res.Error != nil {
		out.Error = &apiRPCError{Code: res.Error.Code, Message: res.Error.Message, Data: res.Error.Data}
	}
	return c.JSON(http.StatusOK, out)
}

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
		IDClash: string(f.Clash), IDClashFrame: f.ClashFrameID}
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

// decodeJSON reads the request body, one JSON value and nothing after it
// but white space, into v, refusing unknown fields. A body over the limit is
// a 413 error; any other fault is invalid input.
func decodeJSON(c echo.Context, v any) error {
	dec := json.NewDecoder(c.Request().Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, echo.ErrStatusRequestEntityTooLarge) {
			return bodyError("request body", err)
		}
		return backend.Errorf(backend.EInvalid, "The request body is not valid JSON for this endpoint: %v", err)
	}
	switch _, err := dec.Token(); {
	case err == io.EOF:
		return nil
	case errors.Is(err, echo.ErrStatusRequestEntityTooLarge):
		return bodyError("request body", err)
	}
	return backend.Errorf(backend.EInvalid, "The request body must hold one JSON value and nothing after it but white space.")
}

type apiInput struct {
	ID       int64           `json:"id"`
	Method   string          `json:"method"`
	Params   json.RawMessage `json:"params,omitempty"`
	Received time.Time       `json:"received"`
}

// apiListInputs lists the session's server requests that wait for a person
// (elicitation, sampling).
func (s *Server) apiListInputs(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	pending := s.deps.Inbox.Pending(id)
	out := make([]apiInput, len(pending))
	for i, r := range pending {
		out[i] = apiInput{ID: r.ID, Method: r.Method, Params: r.Params, Received: r.Received}
	}
	return c.JSON(http.StatusOK, out)
}

type apiInputAnswer struct {
	Result json.RawMessage `json:"result"`
	Error  *apiRPCError    `json:"error"`
}

// apiAnswerInput answers a waiting server request with {result} or {error}.
func (s *Server) apiAnswerInput(c echo.Context) error {
	sessionID, err := idParam(c)
	if err != nil {
		return err
	}
	inputID, err := pathID(c, "input")
	if err != nil {
		return err
	}
	var in apiInputAnswer
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	if string(bytes.TrimSpace(in.Result)) == "null" {
		in.Result = nil
	}
	if (in.Result == nil) == (in.Error == nil) {
		return backend.Errorf(backend.EInvalid, "Give exactly one of result and error.")
	}
	if req, err := s.deps.Inbox.Get(inputID); err != nil || req.SessionID != sessionID {
		return backend.Errorf(backend.ENotFound, "The server is no longer waiting for this answer.")
	}
	if in.Error != nil {
		err = s.deps.Inbox.Refuse(inputID, &backend.JSONRPCError{Code: in.Error.Code, Message: in.Error.Message, Data: in.Error.Data}, answererName(c))
	} else {
		err = s.deps.Inbox.Answer(inputID, in.Result, answererName(c))
	}
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
